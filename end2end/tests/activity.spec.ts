// Activity (issue 34): what happened to my posts and followers, composed by
// the app from the interface's reads, per account, with an unread count in
// the header, the title and the account menu; read while the tab is
// visible only, one tab for the account, offline from what was kept.
// Each test signs in a new account of its own (`perch-server user add`),
// so what other specs do to the demo people changes nothing here.
import { test, expect, expectAccessible } from './fixtures';
import { ALL_SCOPES, api, call, hostConfig, keptByWorker, newAccount, REQUEST_LOG, signInWithToken, token } from './helpers';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';

/** A token of a new account named `displayName`. */
const someone = (displayName: string) => token(newAccount('x', displayName));

/** Checks every `seconds` instead of every 2 minutes, in every tab of `context`. */
async function checkEvery(context: BrowserContext, seconds: number) {
  await hostConfig(context, { activity_check_seconds: seconds });
}

/** What the account's checks keep (`perch.activity.<uuid>`); null while a
 *  navigation (a sign-in, a switch) replaces the page. */
const keptFor = (page: Page, uuid: string) =>
  page.evaluate((u) => JSON.parse(localStorage.getItem(`perch.activity.${u}`) ?? 'null'), uuid).catch(() => null);

/** Waits for the account's first look (its baseline). */
async function firstLook(page: Page, uuid: string) {
  await expect.poll(async () => (await keptFor(page, uuid))?.since_ms ?? 0).toBeGreaterThan(0);
}

/** Adds `username` from the account menu with the Access token form; the menu. */
async function addAccount(page: Page, username: string) {
  const menu = page.locator('.account-menu');
  await menu.locator('summary').click();
  await page.locator('.account-panel').getByRole('link', { name: 'Add an account' }).click();
  await page.getByLabel('Access token', { exact: true }).fill(token(username));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(menu.locator('summary')).toHaveText(`@${username}`);
  return menu;
}

const activityLink = (page: Page, unread?: number) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', unread ? { name: `Activity, ${unread} unread` } : { name: 'Activity', exact: true });

test('a reply by another account shows after the next check, with a count; opening Activity clears it in both tabs', async ({ page, context }) => {
  await checkEvery(context, 5);
  const me = newAccount('ada');
  const tok = token(me);
  const post = await call(page, tok, 'POST', '/post', { content: 'Who has seen the heron this week?' });
  await signInWithToken(page, me);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  const other = await context.newPage();
  await other.goto('/');
  await expect(activityLink(other)).toBeVisible();

  const reply = await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'Yesterday, by the old pier.', parent: post.uuid });
  for (const tab of [page, other]) await expect(activityLink(tab, 1)).toBeVisible();
  await expect(page).toHaveTitle(/^\(1\) /);
  await expect(other).toHaveTitle(/^\(1\) /);

  await activityLink(page, 1).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: 'Sam Reed replied to your post' });
  await expect(item).toContainText('Yesterday, by the old pier.');
  await expect(item.locator('.quote')).toHaveText('Who has seen the heron this week?');
  await expect(item).toContainText('New');
  // Read here, so read in the other tab too.
  for (const tab of [page, other]) await expect(activityLink(tab)).toBeVisible();
  await expect(other).not.toHaveTitle(/^\(/);
  await expectAccessible(page);
  // The reply opens its thread at the reply.
  await item.getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${reply.uuid}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Post by /);
});

test('a check when nothing changed costs two conditional requests, answered 304 without a body', async ({ page, context }) => {
  await checkEvery(context, 5);
  const me = newAccount('ivy');
  const tok = token(me);
  await call(page, tok, 'POST', '/post', { content: 'Nothing will happen to this one.' });
  await signInWithToken(page, me);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  const looked = (await keptFor(page, uuid))!.read_ms;
  const asked: { url: string; status: number; tag: string | null }[] = [];
  page.on('response', async (r) => {
    if (r.url().includes('/api/v1/')) asked.push({ url: r.url(), status: r.status(), tag: await r.request().headerValue('if-none-match') });
  });
  await expect.poll(async () => (await keptFor(page, uuid))?.read_ms ?? 0, { timeout: 20_000 }).toBeGreaterThan(looked);
  expect(asked.map((a) => [new URL(a.url).pathname, a.status])).toEqual([
    [`/api/v1/user/${uuid}/posts/1`, 304],
    [`/api/v1/user/${uuid}/followers`, 304],
  ]);
  expect(asked.every((a) => a.tag?.startsWith('W/"'))).toBeTruthy();
});

test('against a server without ETags, a check still finds what changed', async ({ page, context }) => {
  const sentTags: string[] = [];
  await context.route('**/api/v1/**', async (route) => {
    const tag = await route.request().headerValue('if-none-match');
    if (tag) sentTags.push(tag);
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['etag'];
    await route.fulfill({ response, headers });
  });
  const me = newAccount('jo');
  const tok = token(me);
  const post = await call(page, tok, 'POST', '/post', { content: 'Tagless.' });
  await signInWithToken(page, me);
  await firstLook(page, (await api(page, tok, '/user')).uuid);
  await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'Found all the same.', parent: post.uuid });
  await page.goto('/activity');
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Sam Reed replied to your post' })).toContainText('Found all the same.');
  expect(sentTags).toEqual([]);
});

test('new followers show as one item, and Follow back follows', async ({ page }) => {
  const me = newAccount('bea');
  const tok = token(me);
  await signInWithToken(page, me);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  await call(page, someone('Tomás Herrera'), 'POST', `/user/${uuid}/follow`);
  await call(page, someone('Yuki Tanaka'), 'POST', `/user/${uuid}/follow`);
  await page.goto('/activity');
  await page.getByRole('button', { name: 'Check now' }).click();
  const item = page.getByRole('listitem').filter({ hasText: /followed you/ });
  await expect(item.locator('.what')).toHaveText(/^(Tomás Herrera|Yuki Tanaka) and 1 other followed you$/);
  const back = item.getByRole('listitem').filter({ hasText: 'Tomás Herrera' }).getByRole('button', { name: 'Follow back' });
  await back.click();
  await expect(item.getByRole('listitem').filter({ hasText: 'Tomás Herrera' }).getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await api(page, tok, `/user/${uuid}/following`)).following.map((u: any) => u.display_name)).toContain('Tomás Herrera');
  await expectAccessible(page);
});

test('a new account sees no old activity on its first look', async ({ page }) => {
  const me = newAccount('cai');
  const tok = token(me);
  const post = await call(page, tok, 'POST', '/post', { content: 'An old post, already answered.' });
  await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'An old answer.', parent: post.uuid });
  const ines = someone('Inês Carvalho');
  await call(page, ines, 'POST', `/post/${post.uuid}/like`);
  await call(page, ines, 'POST', `/user/${(await api(page, tok, '/user')).uuid}/follow`);
  await signInWithToken(page, me);
  await firstLook(page, (await api(page, tok, '/user')).uuid);
  await expect(activityLink(page)).toBeVisible();
  await page.goto('/activity');
  await expect(page.getByText('Perch has taken a first look at your posts and followers.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Activity, newest first' }).getByRole('listitem')).toHaveCount(0);
});

test('nothing is read while the tab is hidden, and a hidden tab reads when it comes back', async ({ page, context }) => {
  await checkEvery(context, 5);
  await page.clock.install();
  const me = newAccount('dev');
  const tok = token(me);
  const post = await call(page, tok, 'POST', '/post', { content: 'Read me only when I look.' });
  await signInWithToken(page, me);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  const reads: string[] = [];
  page.on('request', (r) => { if (r.url().includes(`/user/${uuid}/`)) reads.push(r.url()); });
  const show = (state: 'hidden' | 'visible') => page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
  await show('hidden');
  await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'A reply while nobody looks.', parent: post.uuid });
  // Ten intervals pass while hidden: not one request.
  await page.clock.runFor(50_000);
  expect(reads).toEqual([]);
  await expect(activityLink(page)).toBeVisible();
  // Back on screen: read at once.
  await show('visible');
  await expect.poll(() => reads.length).toBeGreaterThan(0);
  await expect(activityLink(page, 1)).toBeVisible();
});

test('without the followers scope, replies still show and the page offers to ask for that scope', async ({ page }) => {
  const me = newAccount('eli');
  const scopes = ALL_SCOPES.filter((s) => s !== 'user.followers.get');
  const tok = token(me, scopes);
  const post = await call(page, tok, 'POST', '/post', { content: 'Scoped down.' });
  await signInWithToken(page, me, scopes);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'Still seen.', parent: post.uuid });
  await page.goto('/activity');
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Sam Reed replied to your post' })).toContainText('Still seen.');
  await expect(page.getByText('New followers are not shown: this sign-in may not read your followers.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in again to allow user.followers.get' })).toBeVisible();
  await expectAccessible(page);
});

test('switching accounts shows the other account\'s activity, and the account menu shows each account\'s unread count', async ({ page, context }) => {
  await checkEvery(context, 5);
  const first = newAccount('fay');
  const firstTok = token(first);
  const post = await call(page, firstTok, 'POST', '/post', { content: 'Post of the first account.' });
  await signInWithToken(page, first);
  await firstLook(page, (await api(page, firstTok, '/user')).uuid);
  await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'For the first account.', parent: post.uuid });
  await expect(activityLink(page, 1)).toBeVisible();

  const second = newAccount('gus');
  const menu = await addAccount(page, second);
  await firstLook(page, (await api(page, token(second), '/user')).uuid);
  await expect(activityLink(page)).toBeVisible();
  await page.goto('/activity');
  await expect(page.getByText('Perch has taken a first look')).toBeVisible();
  await expect(page.getByText('For the first account.')).toHaveCount(0);

  await menu.locator('summary').click();
  const row = page.locator('.account-panel').getByRole('list', { name: 'Accounts' }).getByRole('listitem').filter({ hasText: `@${first}` });
  await expect(row).toContainText('1 new');
  await row.getByRole('button', { name: `Switch to @${first}` }).click();
  await expect(menu.locator('summary')).toHaveText(`@${first}`);
  await activityLink(page, 1).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Sam Reed replied to your post' })).toContainText('For the first account.');
});

test('the other account signed in here is checked too, with its own token: its count in the account menu grows; the server\'s log shows each read of its activity went as itself', async ({ page, context }) => {
  await checkEvery(context, 5);
  const other = newAccount('ivo');
  const otherTok = token(other);
  const otherUuid = (await api(page, otherTok, '/user')).uuid;
  const post = await call(page, otherTok, 'POST', '/post', { content: 'A question from the other account.' });
  await signInWithToken(page, other);
  await firstLook(page, otherUuid);

  const current = newAccount('jan');
  const currentUuid = (await api(page, token(current), '/user')).uuid;
  const menu = await addAccount(page, current);
  await firstLook(page, currentUuid);

  // A reply to the other account's post, while the current one reads:
  // the other's count shows in the account menu without switching.
  await call(page, someone('Rosa Vidal'), 'POST', '/post', { content: 'An answer for the other account.', parent: post.uuid });
  await menu.locator('summary').click();
  const row = page.locator('.account-panel').getByRole('list', { name: 'Accounts' }).getByRole('listitem').filter({ hasText: `@${other}` });
  await expect(row).toContainText('1 new', { timeout: 30_000 });
  await expect(activityLink(page)).toBeVisible();

  // The server's log of accepted calls (`serve --request-log`): every read of
  // the other account's posts and followers went with its own token, and
  // the current account's token read none of it.
  const lines = readFileSync(REQUEST_LOG, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' '));
  const ofOther = lines.filter(([, , path]) => path.includes(otherUuid));
  expect(ofOther.length).toBeGreaterThan(0);
  expect(ofOther.filter(([caller]) => caller !== otherUuid), 'reads of the other account as someone else').toEqual([]);
  expect(lines.filter(([caller, , path]) => caller === currentUuid && path.includes(post.uuid))).toEqual([]);
  // After the current account's last accepted call, the other's token was still used: the checks go on.
  const firstOfCurrent = lines.findIndex(([caller]) => caller === currentUuid);
  expect(lines.slice(firstOfCurrent).some(([caller, , path]) => caller === otherUuid && path.includes(`/user/${otherUuid}/`))).toBeTruthy();
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('offline, Activity shows what was last read, and when', async ({ page, context }) => {
    const me = newAccount('hal');
    const tok = token(me);
    const post = await call(page, tok, 'POST', '/post', { content: 'Kept for the train.' });
    await signInWithToken(page, me);
    await keptByWorker(page);
    await firstLook(page, (await api(page, tok, '/user')).uuid);
    await call(page, someone('Sam Reed'), 'POST', '/post', { content: 'Read on the train.', parent: post.uuid });
    await page.goto('/activity');
    await page.getByRole('button', { name: 'Check now' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Sam Reed replied to your post' });
    await expect(item).toContainText('Read on the train.');

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    await expect(item).toContainText('Read on the train.');
    await expect(page.locator('.check-line')).toContainText('Last checked');
    await expect(page.locator('.check-line time')).toBeVisible();
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not check' })).toBeVisible();
    await expect(item).toContainText('Read on the train.');
    await context.setOffline(false);
  });
});

test('a muted person\'s reply is neither shown nor counted, and muting someone counts again at once', async ({ page, context }) => {
  // Issue 45, 4.1: a count counts only what the page shows.
  await checkEvery(context, 5);
  const me = newAccount('mia');
  const tok = token(me);
  const post = await call(page, tok, 'POST', '/post', { content: 'Which bird sings first at dawn?' });
  const muted = newAccount('mx', 'Max Muted');
  const kept = newAccount('kx', 'Kim Kept');
  await signInWithToken(page, me);
  const uuid = (await api(page, tok, '/user')).uuid;
  await firstLook(page, uuid);
  await page.goto(`/user/@${muted}`);
  await page.getByRole('button', { name: `Mute @${muted}` }).click();
  await expect(page.getByRole('button', { name: `Unmute @${muted}` })).toHaveAttribute('aria-pressed', 'true');

  await call(page, token(muted), 'POST', '/post', { content: 'The blackbird.', parent: post.uuid });
  await call(page, token(kept), 'POST', '/post', { content: 'The robin, always.', parent: post.uuid });
  // Both replies are kept; one is shown, and one counted.
  await expect.poll(async () => (await keptFor(page, uuid))?.items?.length ?? 0).toBe(2);
  await expect(activityLink(page, 1)).toBeVisible();
  await expect(page).toHaveTitle(/^\(1\) /);
  expect(await page.evaluate((u) => localStorage.getItem(`perch.unread.${u}`), uuid)).toBe('1');

  // Muting Kim too: nothing unread is shown, so nothing is counted, without a check.
  await page.goto(`/user/@${kept}`);
  await page.getByRole('button', { name: `Mute @${kept}` }).click();
  await expect(activityLink(page)).toBeVisible();
  await expect(page).not.toHaveTitle(/^\(/);

  await page.getByRole('button', { name: `Unmute @${kept}` }).click();
  await expect(activityLink(page, 1)).toBeVisible();
  await activityLink(page, 1).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Kim Kept replied to your post' })).toContainText('The robin, always.');
  await expect(page.getByText('The blackbird.')).toHaveCount(0);
});
