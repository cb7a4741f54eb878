// Several accounts on one browser: adding one keeps the other, switching
// takes one click and applies to every tab, each account keeps its own
// drafts, and signing out of one leaves the others signed in.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { signInWithOAuth, signInWithToken, token } from './helpers';

const session = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('perch.session') ?? 'null'));
const menu = (page: Page) => page.locator('.account-menu');
const current = (page: Page, username: string) => expect(menu(page).locator('summary')).toHaveText(`@${username}`);

async function openMenu(page: Page) {
  const details = menu(page);
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  return page.locator('.account-panel');
}

/** Adds `username` from the account menu, with the Access token form. */
async function addAccount(page: Page, username: string) {
  await (await openMenu(page)).getByRole('link', { name: 'Add an account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add an account' })).toBeVisible();
  await page.getByLabel('Access token', { exact: true }).fill(token(username));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await current(page, username);
}

test('add a second account, switch both ways in one click; each keeps its own draft', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const box = page.getByLabel('Post text');
  await box.fill('what mira was writing');
  await addAccount(page, 'tomas');
  // Nothing of mira's shows while tomas is current.
  await expect(box).toHaveValue('');
  await box.fill('what tomas was writing');

  const panel = await openMenu(page);
  const accounts = panel.getByRole('list', { name: 'Accounts' }).getByRole('listitem');
  await expect(accounts).toHaveCount(2);
  await expect(accounts.first()).toHaveAttribute('aria-current', 'true');
  await expect(accounts.first()).toContainText('@tomas');
  await expect(accounts.nth(1)).toContainText('@mira');

  await panel.getByRole('button', { name: 'Switch to @mira' }).click();
  await expect(page).toHaveURL(/\/$/);
  await current(page, 'mira');
  await expect(page.getByLabel('Post text')).toHaveValue('what mira was writing');

  await (await openMenu(page)).getByRole('button', { name: 'Switch to @tomas' }).click();
  await current(page, 'tomas');
  await expect(page.getByLabel('Post text')).toHaveValue('what tomas was writing');
  // Both are still signed in, each with its own tokens.
  expect((await session(page)).user.username).toBe('tomas');
  const others = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.accounts') ?? '[]'));
  expect(others.map((s: any) => s.user.username)).toEqual(['mira']);
});

test('an account added through the server\'s sign-in page comes back beside the first, which is one click away', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.getByLabel('Post text').fill('mira, before adding');
  await (await openMenu(page)).getByRole('link', { name: 'Add an account' }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Username').fill('sam');
  await page.getByLabel('Password').fill('perch-demo');
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await current(page, 'sam');
  await expect(page.getByLabel('Post text')).toHaveValue('');
  expect((await session(page)).scopes_known).toBe(true);
  await (await openMenu(page)).getByRole('button', { name: 'Switch to @mira' }).click();
  await current(page, 'mira');
  await expect(page.getByLabel('Post text')).toHaveValue('mira, before adding');
});

test('a switch in one tab applies to the other; signing out of one account keeps the other signed in', async ({ page, context }) => {
  await signInWithToken(page, 'mira');
  await addAccount(page, 'tomas');
  const tomas = await session(page);
  await page.getByLabel('Post text').fill('a draft tomas leaves behind');
  const other = await context.newPage();
  await other.goto('/');
  await current(other, 'tomas');

  await (await openMenu(page)).getByRole('button', { name: 'Switch to @mira' }).click();
  await current(page, 'mira');
  await current(other, 'mira');

  await (await openMenu(page)).getByRole('button', { name: 'Switch to @tomas' }).click();
  await current(page, 'tomas');
  await current(other, 'tomas');
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of @tomas' }).click();
  await page.getByRole('group', { name: 'Unsent drafts' }).getByRole('button', { name: 'Discard drafts' }).click();
  // The account used before becomes current, here and in the other tab.
  await current(page, 'mira');
  await current(other, 'mira');
  await expect((await openMenu(page)).getByRole('list', { name: 'Accounts' }).getByRole('listitem')).toHaveCount(1);
  const kept = await page.evaluate(() => Object.keys(localStorage));
  expect(kept.filter((k) => k.includes(tomas.user.uuid))).toEqual([]);
  await expect
    .poll(async () => (await page.request.get('/api/v1/user', { headers: { Authorization: `Bearer ${tomas.token}` } })).status())
    .toBe(401);
  // mira's token still works.
  const mira = await session(page);
  expect((await page.request.get('/api/v1/user', { headers: { Authorization: `Bearer ${mira.token}` } })).status()).toBe(200);
});

test('sign out of all accounts revokes every token and leaves nobody signed in', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const mira = await session(page);
  await addAccount(page, 'tomas');
  const tomas = await session(page);
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of all accounts' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k === 'perch.session' || k === 'perch.accounts'))).toEqual([]);
  for (const signed of [mira, tomas]) {
    await expect
      .poll(async () => (await page.request.get('/api/v1/user', { headers: { Authorization: `Bearer ${signed.token}` } })).status())
      .toBe(401);
  }
});

test('a kept account list written by another tab is checked: duplicates, the current account and junk are dropped', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const mira = await session(page);
  const ines = { ...mira, token: token('ines'), user: { ...mira.user, uuid: 'ines-uuid', username: 'ines', display_name: 'Ines' } };
  await page.evaluate(([mira, ines]) => {
    localStorage.setItem('perch.accounts', JSON.stringify([ines, mira, ines, { user: 'not an account' }]));
  }, [mira, ines]);
  await page.reload();
  let items = (await openMenu(page)).getByRole('list', { name: 'Accounts' }).getByRole('listitem');
  // Unreadable as a whole: nothing is taken from it.
  await expect(items).toHaveCount(1);

  await page.evaluate(([mira, ines]) => {
    localStorage.setItem('perch.accounts', JSON.stringify([ines, mira, ines]));
  }, [mira, ines]);
  await page.reload();
  items = (await openMenu(page)).getByRole('list', { name: 'Accounts' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText('@ines');
});

test('signing out with an unsent draft asks first: kept, it is there at the next sign-in; discarded, it is gone', async ({ page }) => {
  await signInWithToken(page, 'ines');
  const ines = await session(page);
  await page.getByLabel('Post text').fill('half a thought ines keeps');
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of @ines' }).click();
  const question = page.getByRole('group', { name: 'Unsent drafts' });
  await expect(question).toContainText('1 unsent draft would go with it.');
  // Cancel changes nothing.
  await question.getByRole('button', { name: 'Cancel' }).click();
  await current(page, 'ines');
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of @ines' }).click();
  await question.getByRole('button', { name: 'Keep drafts for the next sign-in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  // The tokens are revoked and what ines liked and read is forgotten; only the draft stays.
  const kept = await page.evaluate(() => Object.keys(localStorage));
  expect(kept.filter((k) => k.includes(ines.user.uuid))).toEqual([`perch.draft.${ines.user.uuid}.new`]);
  await expect
    .poll(async () => (await page.request.get('/api/v1/user', { headers: { Authorization: `Bearer ${ines.token}` } })).status())
    .toBe(401);

  await signInWithToken(page, 'ines');
  await expect(page.getByLabel('Post text')).toHaveValue('half a thought ines keeps');
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of @ines' }).click();
  await question.getByRole('button', { name: 'Discard drafts' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await signInWithToken(page, 'ines');
  await expect(page.getByLabel('Post text')).toHaveValue('');
});

test('signing out while another tab is open: a draft typed there is counted, kept, and waits there for the next sign-in', async ({ page, context }) => {
  await signInWithToken(page, 'olga');
  const other = await context.newPage();
  await other.goto('/');
  await other.getByLabel('Post text').fill('olga typed this in the other tab');
  await (await openMenu(page)).getByRole('button', { name: 'Sign out of @olga' }).click();
  const question = page.getByRole('group', { name: 'Unsent drafts' });
  await expect(question).toContainText('1 unsent draft would go with it.');
  await question.getByRole('button', { name: 'Keep drafts for the next sign-in' }).click();
  // The other tab follows the sign-out at once.
  await expect(other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await signInWithToken(other, 'olga');
  await expect(other.getByLabel('Post text')).toHaveValue('olga typed this in the other tab');
  await other.close();
});

test('an account whose sign-in was revoked elsewhere is marked, keeps its draft, and the other account works', async ({ page }) => {
  await signInWithToken(page, 'arjun');
  const arjun = await session(page);
  await page.getByLabel('Post text').fill('arjun was writing this');
  await addAccount(page, 'sam');
  // Revoked somewhere else (another client, the server's admin).
  const revoked = await page.request.post('/api/oauth/revoke', { data: { token: arjun.token } });
  expect(revoked.ok()).toBeTruthy();

  await (await openMenu(page)).getByRole('button', { name: 'Switch to @arjun' }).click();
  await current(page, 'arjun');
  await expect(page.locator('.error-box')).toBeVisible();
  await expect(menu(page).locator('summary')).toHaveClass(/ended/);
  const panel = await openMenu(page);
  await expect(panel.getByRole('status')).toContainText('no longer accepts this sign-in');
  await expect(panel.getByRole('link', { name: 'Sign in again' })).toBeVisible();
  await expect(page.getByLabel('Post text')).toHaveValue('arjun was writing this');

  // sam is untouched, and lists arjun as signed out.
  await panel.getByRole('button', { name: 'Switch to @sam' }).click();
  await current(page, 'sam');
  await expect(page.locator('article.post').first()).toBeVisible();
  const accounts = (await openMenu(page)).getByRole('list', { name: 'Accounts' });
  await expect(accounts.getByRole('listitem').filter({ hasText: '@arjun' })).toContainText('signed out, sign in again');
});

test('an action the token does not allow offers to sign in again for it, and comes back with the draft', async ({ page }) => {
  // mira allowed Perch less than it asked for: no posting, no likes, no email.
  await signInWithOAuth(page, 'mira', [/post\.send/, /post\.like/, /user\.email/]);
  await page.getByLabel('Post text').fill('mira needs post.send for this');
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  const ask = page.locator('.composer').getByRole('button', { name: 'Sign in again to allow post.send' });
  await ask.click();
  // The server's page asks for what the token holds plus the missing scope, nothing more.
  await expect(page.getByRole('heading', { name: 'Sign in to Perch' })).toBeVisible();
  await expect(page.getByRole('checkbox')).toHaveCount(13);
  await expect(page.getByRole('checkbox', { name: /post\.send/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /post\.like/ })).toHaveCount(0);
  await page.getByLabel('Username').fill('mira');
  await page.getByLabel('Password').fill('perch-demo');
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByLabel('Post text')).toHaveValue('mira needs post.send for this');
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeEnabled();
  const scopes = (await session(page)).scopes;
  expect(scopes).toContain('post.send');
  expect(scopes).not.toContain('post.like');
});
