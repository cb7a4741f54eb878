// The local copy (src/store/copy.rs): what the account read is kept in
// IndexedDB, so a reopen draws at once from it, reads again behind it, and
// reading works when the server cannot be reached. One copy per account,
// bounded, dropped at sign-out.
import { test, expect } from './fixtures';
import { api, call, copies, follows, goToPerson, hostConfig, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const timeline = (page: Page) => page.getByRole('feed', { name: 'Timeline' });

const me = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid as string);

/** Waits until the account's copy holds `uuid` (written once changes pause). */
async function keptWith(page: Page, uuid: string) {
  const account = await me(page);
  await expect.poll(async () => JSON.stringify((await copies(page))[account]?.posts?.map((p: any) => p.uuid) ?? []), { timeout: 15_000 })
    .toContain(uuid);
}

test('reopened while the server does not answer, Home, a thread and a profile show from the copy, with when it was saved', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const first = timeline(page).getByRole('article').first();
  await expect(first).toBeVisible();
  const top = (await first.getAttribute('data-uuid'))!;
  const text = (await first.locator('.post-content').first().textContent())!;
  const account = await me(page);
  await expect.poll(async () => (await copies(page))[account]?.home?.started ?? false, { timeout: 15_000 }).toBe(true);
  // Read a thread and a profile too, going there inside the app.
  await first.locator(`a[href$="/post/${top}"]`).first().click();
  // The thread's card (Home, kept hidden, has one too).
  await expect(page.locator(`article.focused[data-uuid="${top}"]`)).toContainText(text);
  await goToPerson(page, 'tomas');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Tomás');
  await expect(page.getByRole('article').first()).toBeVisible();
  const tomasFirst = (await page.getByRole('article').first().getAttribute('data-uuid'))!;
  // Kept as lists of the copy: the thread's replies and the profile's posts.
  await expect.poll(async () => ((await copies(page))[account]?.lists ?? []).map(([key]: any) => key.slice(0, 2)).sort(), { timeout: 15_000 })
    .toEqual(['p:', 'r:']);

  // The server is gone: every API request fails.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await expect(first).toHaveAttribute('data-uuid', top);
  await expect(page.locator('.offline-notice')).toContainText(/The server cannot be reached\. This is what Perch saved (just now|\d+ minutes? ago)/);
  // Going on inside the app, as a person would.
  await first.locator(`a[href$="/post/${top}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/post/${top}$`));
  // The thread's card (Home, kept hidden, has one too).
  await expect(page.locator(`article.focused[data-uuid="${top}"]`)).toContainText(text);
  await page.goto('/user/@tomas');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Tomás');
  await expect(page.getByRole('article').first()).toHaveAttribute('data-uuid', tomasFirst);
  // What was never read says so plainly, with no spinner for ever.
  await page.goto('/user/@olga');
  await expect(page.getByRole('alert').first()).toContainText(/could not reach the server/i);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  // The server is back: the notice goes with the first answer.
  await page.unroute('**/api/**');
  await page.goto('/');
  await expect(first).toBeVisible();
  await expect(page.locator('.offline-notice')).toHaveText('');
});

test('reopened with a slow server, the copy shows first; what is new waits behind the button, and what was deleted goes', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const first = timeline(page).getByRole('article').first();
  await expect(first).toBeVisible();
  // The copy holds Home before anything new is made: a reload before the
  // code that writes it has arrived (it comes after the first paint) would
  // find no copy and draw the server's answer, with nothing to wait behind
  // the button. (search.spec's reload test covers the write as the page is left.)
  const account = await me(page);
  await expect.poll(async () => (await copies(page))[account]?.home?.started ?? false, { timeout: 15_000 }).toBe(true);
  // tomas posts twice; mira reads both; then one is deleted and one more is made, elsewhere.
  const post = async (content: string) => {
    const res = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('tomas')}` }, data: { content } });
    expect(res.ok()).toBeTruthy();
    return (await res.json()).uuid as string;
  };
  const kept = await post(`Kept in the copy ${Date.now()}`);
  const doomed = await post(`Deleted elsewhere ${Date.now()}`);
  await page.reload();
  // Home is drawn from the copy written as the page was left: the two new
  // posts wait behind the button.
  await page.getByRole('button', { name: 'Show 2 new posts' }).click();
  await expect(first).toHaveAttribute('data-uuid', doomed);
  await keptWith(page, doomed);
  const del = await page.request.delete(`/api/v1/post/${doomed}`, { headers: { Authorization: `Bearer ${token('tomas')}` } });
  expect(del.ok()).toBeTruthy();
  const fresh = await post(`New while Perch was closed ${Date.now()}`);

  // Every API answer is held until the copy has been seen.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/api/v1/**', async (route) => { await held; await route.continue(); });
  await page.goto('/');
  await expect(timeline(page).locator(`[data-uuid="${doomed}"]`)).toBeVisible();
  await expect(timeline(page).locator(`[data-uuid="${kept}"]`)).toBeVisible();
  release();
  // Read again: the deleted post leaves, the new one waits behind the button.
  await expect(timeline(page).locator(`[data-uuid="${doomed}"]`)).toHaveCount(0);
  const show = page.getByRole('button', { name: 'Show 1 new post' });
  await expect(show).toBeVisible();
  await expect(first).toHaveAttribute('data-uuid', kept);
  await show.click();
  await expect(first).toHaveAttribute('data-uuid', fresh);
});

test('two accounts never see each other\'s copy, and signing out drops it', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  const mira = await me(page);
  await expect.poll(async () => Object.keys(await copies(page)), { timeout: 15_000 }).toContain(mira);
  const miraPosts: string[] = (await copies(page))[mira].posts.map((p: any) => p.uuid);

  // olga signs in beside mira; her Home must never draw mira's copy, even
  // before the server answers.
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('link', { name: 'Add an account' }).click();
  await page.getByLabel('Access token', { exact: true }).fill(token('olga'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.locator('.account-menu summary')).toHaveText('@olga');
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  const olga = await me(page);
  await page.route('**/api/v1/**', async (route) => { await held; await route.continue(); });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // olga's own copy (written as the page was left) may hold posts both
  // read; nothing only mira's copy holds is drawn.
  const olgaKept = new Set(((await copies(page))[olga]?.posts ?? []).map((p: any) => p.uuid));
  for (const uuid of miraPosts.slice(0, 20)) {
    const author = (await copies(page))[mira].posts.find((p: any) => p.uuid === uuid).author.username;
    if (author !== 'olga' && !olgaKept.has(uuid)) await expect(page.locator(`[data-uuid="${uuid}"]`)).toHaveCount(0);
  }
  release();
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await expect.poll(async () => Object.keys(await copies(page)).sort(), { timeout: 15_000 }).toEqual([mira, olga].sort());
  expect((await copies(page))[olga].account).toBe(olga);

  // olga signs out: her copy goes, mira's stays.
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: 'Sign out of @olga' }).click();
  // The sign-out ends in a reload, with mira current (the heading is there before it too).
  await expect(page.locator('.account-menu summary')).toHaveText('@mira');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect.poll(async () => Object.keys(await copies(page)), { timeout: 15_000 }).toEqual([mira]);
});

test('the copy holds no more than its bound, and one from another version is dropped, never misread', async ({ page }) => {
  // A host's config.json sets a small bound.
  await hostConfig(page, { local_copy_posts: 30 });
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  const tok = token('mira');
  const tomas = await api(page, tok, '/user/@tomas');
  const { posts } = await api(page, tok, `/user/${tomas.uuid}/posts/1`);
  for (const p of posts.slice(0, 3)) {
    await page.goto(`/post/${p.uuid}`);
    await expect(page.getByRole('article').first()).toBeVisible();
  }
  await page.goto('/user/@yuki');
  await expect(page.getByRole('article').first()).toBeVisible();
  const account = await me(page);
  // Home first, as much of it as fits; the threads and the profile only
  // where room is left (with 30, Home may take it all).
  await expect.poll(async () => (await copies(page))[account]?.posts?.length ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
  const copy = (await copies(page))[account];
  expect(copy.lists.length).toBeLessThanOrEqual(20);
  expect(copy.posts.length).toBeGreaterThan(0);
  expect(copy.posts.length).toBeLessThanOrEqual(30);

  // A copy written by another version of the copy, then one that is not JSON.
  for (const bad of [JSON.stringify({ ...copy, version: 999 }), `{"version":${copy.version},"posts":[{"uuid":`]) {
    await page.evaluate(([who, text]) => new Promise((done) => {
      const open = indexedDB.open('perch', 2);
      open.onsuccess = () => {
        const t = open.result.transaction('copies', 'readwrite');
        t.objectStore('copies').put(text, who);
        t.oncomplete = () => { open.result.close(); done(null); };
      };
    }), [account, bad]);
    await page.goto('/');
    await expect(timeline(page).getByRole('article').first()).toBeVisible();
    // Dropped at start, then written again by this version.
    await expect.poll(async () => {
      const kept = (await copies(page))[account];
      return kept === undefined || (typeof kept === 'object' && kept.version !== 999);
    }, { timeout: 15_000 }).toBe(true);
  }
});

test('Home cut to a small bound reopens from the copy, and Load more goes on in order without duplicates', async ({ page }) => {
  await hostConfig(page, { local_copy_posts: 30 });
  await signInWithToken(page, 'mira');
  const shown = () => timeline(page).locator('article[data-uuid]').evaluateAll((els) => els.map((e) => e.getAttribute('data-uuid')!));
  const loadMore = async (atLeast: number) => {
    for (let i = 0; i < 10 && (await shown()).length < atLeast; i++) {
      const before = (await shown()).length;
      await page.locator('.load-more button').evaluate((b) => b.scrollIntoView());
      await expect.poll(async () => (await shown()).length).toBeGreaterThan(before);
    }
  };
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await loadMore(50);
  const reference = await shown();
  const account = await me(page);
  await expect.poll(async () => {
    const copy = (await copies(page))[account];
    return !!copy?.home?.started && copy.posts.length <= 30 && copy.posts.length > 0;
  }, { timeout: 15_000 }).toBe(true);

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.reload();
  await expect(timeline(page).getByRole('article').first()).toHaveAttribute('data-uuid', reference[0]);
  await loadMore(reference.length);
  const after = await shown();
  expect(new Set(after).size, 'no duplicates').toBe(after.length);
  expect(after.slice(0, reference.length)).toEqual(reference);
});

test('a follow made elsewhere while Perch was closed shows on the Following page opened from the copy', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  const account = await me(page);
  await expect.poll(async () => ((await copies(page))[account]?.following ?? []).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const tok = token('mira');
  const olga = await api(page, tok, '/user/@olga');
  const toggle = async () => (await (await page.request.post(`/api/v1/user/${olga.uuid}/follow`, { headers: { Authorization: `Bearer ${tok}` } })).json()).action;
  if ((await toggle()) !== 'followed') await toggle();
  try {
    // Straight to the page, Home never shown: the list from the copy is read again.
    await page.goto('/user/@mira/following');
    await expect(page.getByRole('main').getByRole('link', { name: /@olga/ }).first()).toBeVisible();
  } finally {
    if ((await toggle()) !== 'unfollowed') await toggle();
  }
});

test('what the server says sets the Follow and Like buttons the copy drew: a follow and a like made elsewhere show, and a click does what it shows', async ({ page }) => {
  const tok = token('ines');
  const as = (method: 'get' | 'post', path: string) =>
    page.request[method](`/api/v1${path}`, { headers: { Authorization: `Bearer ${tok}` } }).then((r) => r.json());
  // Another browser's starting point: ines neither follows olga nor likes her newest post.
  const olga = await as('get', '/user/@olga');
  if (olga.followed) await as('post', `/user/${olga.uuid}/follow`);
  const post = (await as('get', `/user/${olga.uuid}/posts/1`)).posts[0];
  if (post.liked) await as('post', `/post/${post.uuid}/like`);

  await signInWithToken(page, 'ines');
  await page.goto('/user/@olga');
  const follow = page.getByRole('main').locator('button.toggle.follow').first();
  const like = page.locator(`article[data-uuid="${post.uuid}"] button.toggle.like`);
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await keptWith(page, post.uuid);

  // Another browser follows olga and likes the post.
  expect((await as('post', `/user/${olga.uuid}/follow`)).action).toBe('followed');
  expect((await as('post', `/post/${post.uuid}/like`)).action).toBe('liked');
  // Reopened here: drawn from the copy first, then the server's answer is the truth.
  await page.goto('/user/@olga');
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  // So the click unfollows, as the button says, rather than following.
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await as('get', '/user/@olga')).followed).toBe(false);
  // As it was before, for the tests after this one.
  if (olga.followed) await as('post', `/user/${olga.uuid}/follow`);
  if (!post.liked) await as('post', `/post/${post.uuid}/like`);
});

test('a thread drawn from the copy reads its post from the server when the browser is back online, not the answer read as the page opened', async ({ page }) => {
  const reader = newAccount('lr');
  const author = newAccount('la', 'Lee Ash');
  const [post] = await follows(page, reader, author, ['Before the edit.']);
  await signInWithToken(page, reader);
  await expect(timeline(page).getByRole('article').filter({ hasText: 'Before the edit.' })).toBeVisible();
  await keptWith(page, post.uuid);
  const reads: string[] = [];
  page.on('request', (r) => { if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/v1/post/${post.uuid}`) reads.push(r.url()); });
  // Opened directly: index.html reads the post as the page opens; the
  // page draws it from the copy, and leaves that answer.
  await page.goto(`/post/${post.uuid}`);
  const focused = page.locator('article.post.focused');
  await expect(focused).toContainText('Before the edit.');
  await expect(page.getByText('No replies yet.')).toBeVisible();
  expect(reads).toHaveLength(1);
  await call(page, token(author), 'PATCH', `/post/${post.uuid}`, { content: 'After the edit.' });
  // The replies' read again would bring the post too: held, so that only
  // the post's own read can show the edit.
  await page.route(`**/api/v1/post/${post.uuid}/replies/**`, () => {});
  await page.evaluate(() => dispatchEvent(new Event('online')));
  await expect(focused).toContainText('After the edit.');
  expect(reads).toHaveLength(2);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
