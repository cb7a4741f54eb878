// Several accounts on one browser: adding one keeps the other, switching
// takes one click and applies to every tab, each account keeps its own
// drafts, and signing out of one leaves the others signed in.
import { test, expect, throttleCpu, CPU_SLOWDOWN } from './fixtures';
import type { Page } from '@playwright/test';
import { kept, signInWithOAuth, signInWithToken, token } from './helpers';

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
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Perch' })).toBeVisible();
  await page.getByLabel('Username', { exact: true }).fill('sam');
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

test('after a sign-out nothing more is written for the account, even by a save already on its way (CPU 6x slower)', async ({ page }) => {
  test.setTimeout(120_000);
  await signInWithToken(page, 'mira');
  const mira = await session(page);
  await expect(page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first()).toBeVisible();
  await throttleCpu(page, Math.max(6, CPU_SLOWDOWN));
  // The page after the sign-out is slow to come, as on a slow network, and
  // longer than the sign-out waits for its work (src/browser/leaving.rs,
  // AT_MOST_MS): whatever the signed-out page still runs meanwhile runs.
  let slowNextPage = false;
  const navigations: string[] = [];
  await page.route('**/*', async (route) => {
    if (slowNextPage && route.request().isNavigationRequest()) {
      navigations.push(route.request().url());
      await new Promise((done) => setTimeout(done, 3_500));
    }
    // A navigation the page gave up meanwhile cannot go on: counted above.
    await route.continue().catch(() => {});
  });
  // Reading: the position is saved shortly after each scroll; the sign-out
  // comes in the same moment, with that save pending.
  const panel = await openMenu(page);
  // The panel's parts come as it opens: the button is clicked below in the
  // page's own script, which does not wait for it.
  await expect(panel.getByRole('button', { name: 'Sign out of @mira' })).toBeVisible();
  await page.mouse.wheel(0, 600);
  slowNextPage = true;
  await page.evaluate(() => {
    window.scrollBy(0, 400);
    const out = [...document.querySelectorAll<HTMLButtonElement>('.account-panel button')].find((b) => b.textContent?.includes('Sign out of @mira'));
    out!.click();
  });
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  // Long enough for any timer, debounce or save in flight to have run.
  await page.waitForTimeout(3_000);
  const left = await page.evaluate((uuid) => [
    ...Object.keys(localStorage).filter((k) => k.includes(uuid) || (localStorage.getItem(k) ?? '').includes(uuid)),
    ...Object.keys(sessionStorage).filter((k) => k.includes(uuid) || (sessionStorage.getItem(k) ?? '').includes(uuid)),
  ], mira.user.uuid);
  expect(left, 'Web Storage kept for the signed-out account').toEqual([]);
  // One reload: a second one would start the slow page over.
  expect(navigations, 'the pages asked for after the sign-out').toHaveLength(1);
  expect(Object.keys(await kept(page, 'copies')), 'local copies').not.toContain(mira.user.uuid);
  expect(Object.keys(await kept(page, 'outbox')), 'outboxes').not.toContain(mira.user.uuid);
});

test('a like waiting for one account is never sent as an account added meanwhile, even when the network comes back during the sign-in', async ({ page }) => {
  const stamp = Date.now();
  const arjun = { Authorization: `Bearer ${token('arjun')}` };
  const made = await page.request.post('/api/v1/post', { headers: arjun, data: { content: `a post sam likes ${stamp}` } });
  const uuid = (await made.json()).uuid as string;
  const likedBy = async (user: string) =>
    (await (await page.request.get(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${token(user)}` } })).json()).liked;

  await signInWithToken(page, 'sam');
  await page.goto(`/post/${uuid}`);
  // The like gets no answer: it waits in sam's outbox.
  await page.route(`**/api/v1/post/${uuid}/like`, (route) => route.abort('connectionrefused'));
  const like = page.getByRole('article').first().getByRole('button', { name: /Like/ });
  await like.click();
  await expect(page.getByRole('article').first().locator('.waiting-mark')).toHaveText('waiting');
  const sam = (await session(page)).user.uuid as string;
  expect(JSON.stringify((await kept(page, 'outbox'))[sam]), 'kept once marked').toContain(uuid);

  // Adding mira: the network comes back while her sign-in finishes, and any
  // read the outbox makes for sam's like is answered only after it has.
  let exchanged!: () => void;
  const switched = new Promise<void>((done) => (exchanged = done));
  await page.route('**/api/oauth/code', async (route) => {
    await page.unroute(`**/api/v1/post/${uuid}/like`);
    const answer = await route.fetch();
    await route.fulfill({ response: answer });
    exchanged();
  });
  await page.route(`**/api/v1/post/${uuid}`, async (route) => {
    if (route.request().method() === 'GET' && new URL(page.url()).pathname === '/oauth/callback') await switched;
    await route.continue();
  });
  // The page after the callback is slow to come: what the callback page
  // still runs meanwhile runs. (Handed on with `fallback`, not `continue`:
  // the last route added is asked first, and continuing sent sam's like
  // retried meanwhile past the route that cuts it off; the like was sent,
  // sam's outbox emptied, and the check below found none kept.)
  await page.route('**/*', async (route) => {
    if (route.request().isNavigationRequest() && new URL(page.url()).pathname === '/oauth/callback') {
      await new Promise((done) => setTimeout(done, 1_500));
    }
    await route.fallback();
  });
  await (await openMenu(page)).getByRole('link', { name: 'Add an account' }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Perch' })).toBeVisible();
  await page.getByLabel('Username', { exact: true }).fill('mira');
  await page.getByLabel('Password').fill('perch-demo');
  // Its backoff over, the like would go at the next page's start.
  await page.evaluate((account) => new Promise<void>((done, fail) => {
    const open = indexedDB.open('perch', 2);
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const store = open.result.transaction('outbox', 'readwrite').objectStore('outbox');
      const read = store.get(account);
      read.onsuccess = () => {
        if (typeof read.result !== 'string') return fail(new Error(`no outbox kept for ${account}`));
        const kept = JSON.parse(read.result);
        for (const waiting of kept[2]) waiting[5] = 0;
        store.put(JSON.stringify(kept), account).onsuccess = () => done();
      };
    };
  }), sam);
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await current(page, 'mira');

  // Never as mira. Back to sam, the like goes, as sam.
  await page.unroute(`**/api/v1/post/${uuid}/like`);
  expect(await likedBy('mira')).toBe(false);
  await (await openMenu(page)).getByRole('button', { name: 'Switch to @sam' }).click();
  await current(page, 'sam');
  await expect.poll(() => likedBy('sam'), { timeout: 20_000 }).toBe(true);
  expect(await likedBy('mira')).toBe(false);
});
