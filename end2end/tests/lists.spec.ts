// Lists (issue 47, point 1): named lists of people, per account, kept in
// this browser; made from a profile, a Following list and the list's own
// page; each a timeline composed as Home's (its own new posts, its own
// count); renamed, reordered and deleted with Undo; followed across tabs;
// exported with "Your Perch data"; `g l` goes to them. Each test makes its
// own accounts.
import * as fs from 'fs';
import { test, expect, expectAccessible } from './fixtures';
import { api, call, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const feed = (page: Page) => page.getByRole('feed', { name: 'Timeline' });

/** What this browser keeps of the signed-in account's lists: names and members' uuids. */
async function keptLists(page: Page) {
  return page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('perch.session')!);
    const all = JSON.parse(localStorage.getItem(`perch.lists.${session.user.uuid}`) ?? '[]');
    return all.map((l: any) => ({ name: l.name, members: l.members }));
  });
}

async function makeList(page: Page, name: string) {
  await page.getByLabel('New list').fill(name);
  await page.getByRole('button', { name: 'Make the list' }).click();
  await expect(page.getByRole('status').filter({ hasText: `List “${name}” made.` })).toBeVisible();
}

test('a list made here and filled from a profile, a Following list and its own page reads its members as Home does, a member not followed too, with its own new posts', async ({ page }) => {
  test.setTimeout(90_000);
  const me = newAccount('lm');
  const [alpha, bravo, charlie, delta] = [newAccount('la'), newAccount('lb'), newAccount('lc'), newAccount('ld')];
  const uuid: Record<string, string> = {};
  for (const who of [alpha, bravo, charlie, delta]) uuid[who] = (await api(page, token(who), '/user')).uuid;
  // me follows alpha, bravo and delta; charlie is never followed.
  for (const who of [alpha, bravo, delta]) await call(page, token(me), 'POST', `/user/${uuid[who]}/follow`);
  for (const [who, text] of [[alpha, 'Alpha writes one.'], [bravo, 'Bravo writes one.'], [charlie, 'Charlie writes one.'], [delta, 'Delta writes one.']]) {
    await call(page, token(who), 'POST', '/post', { content: text });
  }
  await page.clock.install();
  await signInWithToken(page, me);
  await expect(feed(page).getByText('Delta writes one.')).toBeVisible();

  // g l goes to Lists.
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(page.getByText('No lists yet.')).toBeVisible();
  await expect(page.getByText('The server is never told')).toBeVisible();
  await makeList(page, 'Friends');
  await expect(page.getByRole('link', { name: 'Friends' })).toBeVisible();
  await expect(page.locator('.list-row')).toContainText('0 people');
  await expectAccessible(page);

  // From a profile: Add to list, then the list's box.
  await page.goto(`/user/@${alpha}`);
  const add = page.getByRole('button', { name: 'Add to list' });
  await add.click();
  await expect(add).toHaveAttribute('aria-expanded', 'true');
  const choices = page.getByRole('group', { name: `Lists for @${alpha}` });
  await choices.getByRole('checkbox', { name: 'Friends' }).check();
  await expect(page.getByRole('status').filter({ hasText: `@${alpha} added to “Friends”.` })).toBeVisible();
  await expect(choices.getByRole('checkbox', { name: 'Friends' })).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(add).toBeFocused();
  await expect(add).toHaveAttribute('aria-expanded', 'false');

  // From the account's Following list.
  await page.goto(`/user/@${me}/following`);
  const row = page.locator('.user-card').filter({ hasText: `@${bravo}` });
  await row.getByRole('button', { name: 'Add to list' }).click();
  await row.getByRole('checkbox', { name: 'Friends' }).check();
  await expect(row.getByRole('status')).toHaveText(`@${bravo} added to “Friends”.`);
  expect(await keptLists(page)).toEqual([{ name: 'Friends', members: [uuid[alpha], uuid[bravo]] }]);

  // From the list's own page, someone not followed; the list reads their posts like anyone's.
  await page.goto('/lists');
  await page.getByRole('link', { name: 'Friends' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Friends' })).toBeVisible();
  await expect(page.locator('.list-members summary')).toContainText('People on this list (2)');
  await page.locator('.list-members summary').click();
  await page.getByLabel('Add someone to this list').fill(`@${charlie}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `@${charlie} added to “Friends”.` })).toBeVisible();
  await page.getByLabel('Add someone to this list').fill('@nobody-by-this-name');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'There is no user @nobody-by-this-name on this server.' })).toBeVisible();
  await expect(page.getByLabel('Add someone to this list')).toHaveValue('@nobody-by-this-name');
  // As after a follow on Home: the new member's posts newer than those shown wait behind "Show N new posts".
  await page.getByRole('button', { name: 'Show 1 new post' }).click();
  for (const text of ['Alpha writes one.', 'Bravo writes one.', 'Charlie writes one.']) await expect(feed(page).getByText(text)).toBeVisible();
  await expect(feed(page).getByRole('article')).toHaveCount(3);
  await expect(feed(page).getByText('Delta writes one.')).toHaveCount(0);
  await expect(page).toHaveTitle('Friends · Perch');
  await expectAccessible(page);

  // A new post of a member waits behind the list's own "Show 1 new post"; Home's count is its own.
  await call(page, token(charlie), 'POST', '/post', { content: 'Charlie writes two.' });
  await page.clock.fastForward('01:05');
  const show = page.getByRole('button', { name: 'Show 1 new post' });
  await expect(show).toBeVisible();
  await expect(page).toHaveTitle('(1) Friends · Perch');
  await show.click();
  await expect(feed(page).getByRole('article').first()).toContainText('Charlie writes two.');
  await expect(page).toHaveTitle('Friends · Perch');

  // Removing a member takes their posts out; what is kept says so.
  await page.getByRole('button', { name: `Remove @${bravo} from the list` }).click();
  await expect(feed(page).getByText('Bravo writes one.')).toHaveCount(0);
  await expect(page.locator('.list-members summary')).toContainText('(2)');
  expect(await keptLists(page)).toEqual([{ name: 'Friends', members: [uuid[alpha], uuid[charlie]] }]);

  // /lists says how many posts are new since the list was read last: leaving
  // it kept its newest post; a later one read elsewhere (a profile) counts.
  await page.getByRole('link', { name: 'All lists' }).click();
  await expect(page.locator('.list-row').filter({ hasText: 'Friends' })).not.toContainText('new post');
  await call(page, token(alpha), 'POST', '/post', { content: 'Alpha writes two.' });
  await page.goto(`/user/@${alpha}`);
  // Read: on the profile, or behind its button when the local copy drew
  // the profile first (it was read earlier in the test).
  await expect(page.getByRole('article').filter({ hasText: 'Alpha writes two.' })
    .or(page.getByRole('button', { name: 'Show 1 new post' }))).toBeVisible();
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.locator('.list-row').filter({ hasText: 'Friends' })).toContainText('1 new post');
});

test('adding the first person on an empty list keeps the disclosure open and its message read out; Remove says whom it took off', async ({ page }) => {
  const [me, who] = [newAccount('le'), newAccount('lf')];
  await signInWithToken(page, me);
  await page.goto('/lists');
  await makeList(page, 'Alpha');
  await page.getByRole('link', { name: 'Alpha' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alpha' })).toBeVisible();
  const members = page.locator('details.list-members');
  // Empty: open, so the field is there at once.
  await expect(members).toHaveJSProperty('open', true);
  const field = page.getByLabel('Add someone to this list');
  await field.fill(`@${who}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.locator('.list-meta')).toContainText('1 person');
  await expect(members.locator('summary')).toContainText('People on this list (1)');
  // What the person just did stays open, in the accessibility tree, and the
  // field keeps the focus for the next name.
  await expect(members).toHaveJSProperty('open', true);
  await expect(page.getByRole('status').filter({ hasText: `@${who} added to “Alpha”.` })).toBeVisible();
  await expect(field).toBeFocused();
  await expectAccessible(page);
  // Remove: the row goes, the focus is not lost with it, and it is said.
  await members.getByRole('button', { name: `Remove @${who} from the list` }).click();
  await expect(page.locator('.list-meta')).toContainText('0 people');
  await expect(page.getByRole('status').filter({ hasText: `@${who} removed from “Alpha”.` })).toBeVisible();
  await expect(members).toHaveJSProperty('open', true);
  await expect(field).toBeFocused();
});

test('lists are renamed, reordered and deleted with Undo, followed by other tabs, exported with Your Perch data and named by the sign-out question', async ({ page, context }) => {
  const me = newAccount('lr');
  const friend = newAccount('lf');
  const friendUuid = (await api(page, token(friend), '/user')).uuid;
  await signInWithToken(page, me);
  await page.goto('/lists');
  await makeList(page, 'Work');
  await makeList(page, 'Family');
  await page.getByLabel('New list').fill('   ');
  await page.getByRole('button', { name: 'Make the list' }).click();
  await expect(page.getByRole('alert')).toHaveText("A list's name has 1 to 60 characters.");

  const other = await context.newPage();
  await other.goto('/lists');
  await expect(other.locator('.list-link')).toHaveText(['Work', 'Family']);

  // Rename, with its own box; Escape leaves it.
  await page.getByRole('button', { name: 'Rename Work' }).click();
  const box = page.getByLabel('Name of the list');
  await expect(box).toBeFocused();
  await box.fill('Job');
  await box.press('Enter');
  await expect(page.getByRole('link', { name: 'Job' })).toBeFocused();
  await expect(other.locator('.list-link')).toHaveText(['Job', 'Family']);

  // Move up: the focus stays with the list.
  await page.getByRole('button', { name: 'Move Family up' }).click();
  await expect(page.locator('.list-link')).toHaveText(['Family', 'Job']);
  await expect(page.getByRole('button', { name: 'Move Family down' })).toBeFocused();
  await expect(other.locator('.list-link')).toHaveText(['Family', 'Job']);
  await expect(page.getByRole('button', { name: 'Move Family up' })).toBeDisabled();

  // Delete, then Undo puts it back where it was. The other tab has the
  // list's page open: it says the list is gone, then shows it again.
  await other.getByRole('link', { name: 'Family' }).click();
  await expect(other.getByRole('heading', { level: 1, name: 'Family' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Family' }).click();
  await expect(page.locator('.list-link')).toHaveText(['Job']);
  await expect(page.getByRole('status').filter({ hasText: 'List “Family” deleted.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeFocused();
  await expect(other.getByRole('heading', { level: 1, name: 'List not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.list-link')).toHaveText(['Family', 'Job']);
  await expect(page.getByRole('link', { name: 'Family' })).toBeFocused();
  await expect(other.getByRole('heading', { level: 1, name: 'Family' })).toBeVisible();
  await other.goto('/lists');
  await expect(other.locator('.list-link')).toHaveText(['Family', 'Job']);

  // A person added in the other tab shows here.
  await other.goto(`/user/@${friend}`);
  await other.getByRole('button', { name: 'Add to list' }).click();
  await other.getByRole('checkbox', { name: 'Job' }).check();
  await expect(page.locator('.list-row').filter({ hasText: 'Job' })).toContainText('1 person');

  // Exported with the rest of the person's data, and read back in another browser.
  await page.goto('/settings');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export your Perch data' }).click()]);
  const file = test.info().outputPath('perch-data.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(exported.lists.map((l: any) => [l.name, l.members])).toEqual([['Family', []], ['Job', [friendUuid]]]);
  const fresh = await page.context().browser()!.newContext({ serviceWorkers: 'block' });
  const tab = await fresh.newPage();
  await signInWithToken(tab, me);
  await tab.goto('/settings');
  await tab.getByLabel('Import Perch data').setInputFiles(file);
  await expect(tab.getByRole('status').filter({ hasText: '2 lists read from the file.' })).toBeVisible();
  expect(await keptLists(tab)).toEqual([{ name: 'Family', members: [] }, { name: 'Job', members: [friendUuid] }]);
  // A file whose lists cannot be read changes nothing.
  await tab.getByLabel('Import Perch data').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ perch_data: 1, mutes: null, bookmarks: [], lists: { a: 1 } })) });
  await expect(tab.getByRole('alert').filter({ hasText: 'This file is not Perch data' })).toBeVisible();
  expect(await keptLists(tab)).toHaveLength(2);
  await fresh.close();

  // Signing out asks about them, and without keeping them they go.
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: `Sign out of @${me}` }).click();
  await expect(page.getByText('2 lists would go with it.')).toBeVisible();
});

test('lists in Arabic, at 320 px in the dark: right to left, nothing off screen, axe clean', async ({ page }) => {
  const ar = JSON.parse(fs.readFileSync('../locales/ar.json', 'utf8'));
  const me = newAccount('lx');
  const friend = newAccount('ly', 'ليلى');
  const friendUuid = (await api(page, token(friend), '/user')).uuid;
  await call(page, token(me), 'POST', `/user/${friendUuid}/follow`);
  await call(page, token(friend), 'POST', '/post', { content: 'مرحبا من القائمة' });
  await page.setViewportSize({ width: 320, height: 720 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.addInitScript(() => localStorage.setItem('perch.language', 'ar'));
  await page.goto('/signin');
  await page.locator('#access-token').fill(token(me));
  await page.locator('section:has(#with-token) button[type=submit]').click();
  await expect(page.locator('textarea#post-text')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const name = 'أصدقاء العمل، باسم طويل جدًا';
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByRole('heading', { level: 1, name: ar.lists_title })).toBeVisible();
  await page.getByLabel(ar.new_list).fill(name);
  await page.getByRole('button', { name: ar.make_list }).click();
  await expect(page.getByRole('link', { name })).toBeVisible();
  await expectAccessible(page);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await page.goto(`/user/@${friend}`);
  await page.getByRole('button', { name: ar.add_to_list }).click();
  await page.getByRole('checkbox', { name }).check();
  // The handle is isolated from the Arabic around it (U+2068…U+2069).
  await expect(page.getByRole('status').filter({ hasText: name })).toHaveText(ar.added_to_list.replace('{handle}', `\u2068@${friend}\u2069`).replace('{list}', name));
  await expectAccessible(page);
  expect(await fits()).toBe(true);
  await page.goto('/lists');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('feed').getByText('مرحبا من القائمة')).toBeVisible();
  await expectAccessible(page);
  expect(await fits()).toBe(true);
});
