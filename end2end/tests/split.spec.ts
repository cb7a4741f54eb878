// The wasm split by page (docs/split.md): every page opens on a direct
// load, asking for its own module before the app starts; a page reached by
// a link works; a page whose module cannot be loaded says so in its place
// with Retry, and the app goes on.
import { test, expect, expectAccessible } from './fixtures';
import { signInWithToken, token, api, copies } from './helpers';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';

/** The split modules (file names) the browser asked for, and how. */
const modulesAsked = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => /\/split_[a-z_]+\.wasm$/.test(e.name))
      .map((e) => ({ file: e.name.split('/').pop()!, by: e.initiatorType })),
  );

/** split.toml, the one declaration of the split (docs/split.md). */
type Row = { name: string; layer: string; routes?: string[]; words: string };
const table = parse(readFileSync('../split.toml', 'utf8')) as unknown as { module: Row[]; main: { routes: string[] } };

test('every route of split.toml opens on a direct load, its module asked for by index.html', async ({ page }) => {
  const [post] = (await api(page, token('sam'), '/user/@sam/posts/1')).posts;
  await signInWithToken(page, 'mira');
  // A real value for each parameter of the router's paths.
  const example = (route: string) =>
    route.replace(':uuid', post.uuid).replace(/^\/user\/:id/, '/user/@sam').replace(':id', 'no-such-list');
  const routes = table.module.flatMap((m) => (m.routes ?? []).map((r) => [r, m.name] as const));
  expect(routes.length, 'split.toml names routes').toBeGreaterThan(10);
  for (const [route, module] of routes) {
    const path = example(route);
    await page.goto(path);
    // The router draws a page there (not the fallback), with its heading.
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading, path).not.toHaveText(/^(Page not found|)$/);
    const file = `split_${module}.wasm`;
    await expect
      .poll(async () => (await modulesAsked(page)).find((a) => a.file === file), `${path}: ${file}`)
      // Asked by index.html's preload link (before the main module
      // started), not first by the app once it ran.
      .toMatchObject({ by: 'link' });
    // The start's preload map is the table's: the page's pattern names its module.
    const named = await page.evaluate(
      (p) => (window as any).perchChunks.entries.find((e: [string, string]) => new RegExp(e[0]).test(p))?.[1],
      new URL(path, 'http://x').pathname,
    );
    expect(named, path).toBe(module);
  }
  // An address no row names is the router's fallback, and asks for no page module.
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expectAccessible(page);
});

test('a signed-out visit to sign in loads nothing of the whole app, which comes with a link elsewhere or the sign-in', async ({ page }) => {
  const files = async () => (await modulesAsked(page)).map((a) => a.file);
  await page.goto('/signin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.getByRole('combobox', { name: /language/i })).toBeVisible();
  expect(await files()).not.toContain('split_app_shell.wasm');
  // A link elsewhere: the whole app comes and draws that page, signed out.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByText('Perch shows your timeline once you have signed in.')).toBeVisible();
  expect(await files()).toContain('split_app_shell.wasm');

  // Signed in with a token from a fresh signed-out start: the page it goes on to is the whole app's.
  const fresh = await page.context().newPage();
  await fresh.goto('/signin?next=%2Factivity');
  await fresh.getByLabel('Access token', { exact: true }).fill(token('mira'));
  await fresh.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(fresh.getByRole('heading', { level: 1 })).toHaveText('Activity');
  await expect(fresh.getByRole('banner').getByRole('link', { name: /^Activity/ })).toBeVisible();
  await expect(fresh.locator('.account-menu summary')).toHaveText('@mira');
});

test('a page reached by a link loads its module, and the pages it links to come early', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/');
  const feed = page.getByRole('feed', { name: 'Timeline' });
  await expect(feed.getByRole('article').first()).toBeVisible();
  // Once Home is drawn and has settled, the module of the pages it links
  // to (threads, profiles) is asked for, at low priority.
  // (Once the page has settled: its load, then 3 s, then an idle moment.)
  await expect.poll(async () => (await modulesAsked(page)).map((a) => a.file), { timeout: 20_000 }).toContain('split_pages.wasm');
  const first = feed.getByRole('article').first();
  await first.getByRole('link', { name: /ago|now|\d/ }).first().click();
  await expect(page).toHaveURL(/\/post\//);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Post by /);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
});

test('a page whose module cannot be loaded says so with Retry, and Retry opens it', async ({ page }) => {
  await signInWithToken(page, 'mira');
  let blocked = true;
  await page.route('**/split_pages.wasm', (route) => (blocked ? route.abort() : route.continue()));
  // Through a link, from a page that works.
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Profile' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await expect(alert).toBeVisible();
  await expectAccessible(page);
  // The rest of the app still works.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Home' })).toBeVisible();
  blocked = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Mira/);
  await expect(alert).toHaveCount(0);

  // A direct load of a page whose module is blocked.
  blocked = true;
  const list = await page.context().newPage();
  await list.route('**/split_pages.wasm', (route) => (blocked ? route.abort() : route.continue()));
  await list.goto('/user/@sam/followers');
  await expect(list.getByRole('alert').filter({ hasText: 'could not be loaded' })).toBeVisible();
  await expect(list.getByRole('banner')).toBeVisible();
  blocked = false;
  await list.getByRole('button', { name: 'Retry' }).click();
  await expect(list.getByRole('heading', { level: 1 })).toHaveText('Followers of @sam');
});

/** index.html's map of the version's files (perch-xtask: docs/split.md). */
const chunkMap = (page: Page) =>
  page.evaluate(() => {
    const c = (window as unknown as { perchChunks: { modules: Record<string, string[]>; main: { wasm: string } } }).perchChunks;
    return { modules: c.modules, main: c.main.wasm };
  });

test('the planned files: a page asks for the files the map names for it, each once, and no more than six', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/');
  await expect(page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first()).toBeVisible();
  // Activity's checks load after Home's paint (docs/activity.md).
  await expect.poll(async () => (await modulesAsked(page)).map((a) => a.file)).toContain('split_background.wasm');
  const { modules, main } = await chunkMap(page);
  const asked = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('.wasm')),
  );
  const home = new Set([main, ...modules.page_home, ...modules.background]);
  // The pages Home links to come early, at low priority, once it settled.
  const linked = new Set(modules.pages);
  for (const file of asked) expect(home.has(file) || linked.has(file), `${file} is not Home's: ${asked}`).toBe(true);
  const homeAsked = asked.filter((f) => home.has(f));
  expect(new Set(homeAsked).size, `asked twice: ${homeAsked}`).toBe(homeAsked.length);
  expect(home.size).toBeLessThanOrEqual(6);
  // split.toml's rule leaves no chunk a file of its own: the code Home and
  // a thread share is in the shell's file, which both lists name.
  for (const files of Object.values(modules)) expect(files.filter((f) => /chunk_/.test(f))).toEqual([]);
  expect(modules.page_home.filter((f) => modules.pages.includes(f))).toEqual([expect.stringMatching(/split_app_shell\.wasm$/)]);
});

test("Activity's checks wait for the page's own reads: asked for once they are answered, not before", async ({ page }) => {
  await signInWithToken(page, 'mira');
  // The Home that signing in opened asks for its checks once its own reads
  // are answered, which may be after this line: a blank page first, so
  // what is counted is the next visit's alone.
  await page.goto('about:blank');
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  // Every first page of someone's posts is held: Home's reads stay under way.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/v1\/user\/[^/]+\/posts\/1$/, async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  await page.goto('/');
  // Home is drawn, and has asked for the code of the pages it links to
  // (idle work once its page is painted)...
  await expect.poll(() => asked.some((p) => p.endsWith('/split_pages.wasm'))).toBe(true);
  // ...but not for the checks, which would share the network with its reads.
  expect(asked.filter((p) => p.endsWith('/split_background.wasm'))).toEqual([]);
  release();
  await expect(page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first()).toBeVisible();
  await expect.poll(() => asked.some((p) => p.endsWith('/split_background.wasm'))).toBe(true);
});

test('the local copy is written by the code a signed-in page loads after its paint: nothing before it comes, the visit once it has', async ({ page, context }) => {
  let blocked = true;
  await page.route('**/split_background.wasm', (route) => (blocked ? route.abort() : route.continue()));
  await signInWithToken(page, 'mira');
  const account = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid as string);
  await expect(page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first()).toBeVisible();
  // Asked for after the paint, and refused: Home read, nothing written.
  await expect.poll(async () => (await modulesAsked(page)).map((a) => a.file)).toContain('split_background.wasm');
  expect(Object.keys(await copies(page))).not.toContain(account);
  // The tab is hidden meanwhile (it may not come back): a build that wrote
  // from the main module saved at once here; this one has no code for it
  // yet, and writes as the code comes.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
  expect(Object.keys(await copies(page))).not.toContain(account);
  blocked = false;
  const loaded = page.waitForResponse((r) => r.url().endsWith('/split_background.wasm') && r.ok());
  await context.setOffline(true);
  await context.setOffline(false);
  await loaded;
  await expect.poll(async () => (await copies(page))[account]?.home?.started ?? false, { timeout: 15_000 }).toBe(true);
});

test('a page whose joined chunks cannot be loaded says so with Retry, and Retry opens it', async ({ page }) => {
  await signInWithToken(page, 'mira');
  // A bookmark, so the page opened below has something to show.
  const first = page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first();
  await first.getByRole('button', { name: 'Bookmark' }).click();
  await expect(first.getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/signin');
  const { modules } = await chunkMap(page);
  // The shared layer's file, which holds the chunks the later pages share
  // (split.toml's rule) and the checks.
  const joined = modules.page_bookmarks.find((f) => /split_background\.wasm$/.test(f))!;
  expect(joined).toBeTruthy();
  let blocked = true;
  await page.route(`**${joined}`, (route) => (blocked ? route.abort() : route.continue()));
  await page.goto('/bookmarks');
  const alert = page.getByRole('main').getByRole('alert').filter({ hasText: 'could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  blocked = false;
  // Said once, by the page: the checks that needed the same file stay quiet.
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(1);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bookmarks');
  await expect(page.getByRole('feed', { name: 'Bookmarks' }).getByRole('article')).toHaveCount(1);
  await expect(alert).toHaveCount(0);
});

test("Activity's checks that cannot be loaded say nothing, and load when the browser is back online", async ({ page, context }) => {
  await signInWithToken(page, 'mira');
  let blocked = true;
  await page.route('**/split_background.wasm', (route) => (blocked ? route.abort() : route.continue()));
  await page.goto('/');
  const feed = page.getByRole('feed', { name: 'Timeline' });
  await expect(feed.getByRole('article').first()).toBeVisible();
  // The checks were asked for after the paint, and failed.
  await expect.poll(async () => (await modulesAsked(page)).map((a) => a.file)).toContain('split_background.wasm');
  await expect(page.getByRole('alert')).toHaveCount(0);
  blocked = false;
  const loaded = page.waitForResponse((r) => r.url().endsWith('/split_background.wasm') && r.ok());
  await context.setOffline(true);
  await context.setOffline(false);
  await loaded;
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test("a page's first reads start with the HTML, before the wasm, and the page uses their answers", async ({ page }) => {
  const [post] = (await api(page, token('sam'), '/user/@sam/posts/1')).posts;
  await signInWithToken(page, 'mira');
  await page.goto('/signin');
  // Every read of the API, by path.
  const reads: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'GET' && path.startsWith('/api/v1/')) reads.push(path.slice('/api/v1'.length));
  });
  // The main module (the app's code) is held back until the thread's reads
  // have gone: index.html asked for them.
  const readsGone = Promise.all([
    page.waitForRequest((r) => new URL(r.url()).pathname === `/api/v1/post/${post.uuid}`),
    page.waitForRequest((r) => new URL(r.url()).pathname === `/api/v1/post/${post.uuid}/replies/1`),
  ]);
  await page.route('**/perch_bg.wasm', async (route) => {
    await readsGone;
    await route.continue();
  });
  await page.goto(`/post/${post.uuid}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Post by /);
  await expect(page.getByRole('article').filter({ hasText: post.content.slice(0, 20) }).first()).toBeVisible();
  // Each asked once: the page took the answers of the reads started early.
  expect(reads.filter((p) => p === `/post/${post.uuid}`)).toHaveLength(1);
  expect(reads.filter((p) => p === `/post/${post.uuid}/replies/1`)).toHaveLength(1);
});

test("a page opened by a link starts its reads while its module downloads, and uses their answers", async ({ page }) => {
  await signInWithToken(page, 'mira');
  const reads: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'GET' && path.startsWith('/api/v1/')) reads.push(path.slice('/api/v1'.length));
  });
  let repliesGone: (v?: unknown) => void = () => {};
  const gone = new Promise((ok) => (repliesGone = ok));
  page.on('request', (r) => {
    if (/\/api\/v1\/post\/[^/]+\/replies\/1$/.test(new URL(r.url()).pathname)) repliesGone();
  });
  // The pages' module comes only once the thread's replies were asked for.
  await page.route('**/split_pages.wasm', async (route) => {
    await gone;
    await route.continue();
  });
  await page.goto('/');
  const first = page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first();
  await expect(first).toBeVisible();
  const link = first.getByRole('link', { name: /ago|now|\d/ }).first();
  const uuid = (await link.getAttribute('href'))!.split('/').pop()!;
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Post by /);
  // Home had the post; its replies were read once, by the route, for the page.
  expect(reads.filter((p) => p === `/post/${uuid}/replies/1`)).toHaveLength(1);
});

// The outbox's sending is a split module of its own (components/sending.rs):
// a like made online goes straight to the server, and only what waits
// (made offline, or kept from an earlier visit) needs the code that sends.
const likeOf = (page: Page) => page.getByRole('article').first().getByRole('button', { name: /Like/ });
const likeCount = async (page: Page, uuid: string) => (await api(page, token('yuki'), `/post/${uuid}`)).like_count;
async function postBy(page: Page, user: string, content: string): Promise<string> {
  const res = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token(user)}` }, data: { content } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).uuid;
}

test('the code that sends the outbox is loaded only once something waits, and what waited is sent by it', async ({ page, context }) => {
  const uuid = await postBy(page, 'tomas', `liked later ${Date.now()}`);
  const sendingAsked: string[] = [];
  page.on('request', (r) => { if (/\/split_sending\.wasm$/.test(r.url())) sendingAsked.push(r.url()); });
  await signInWithToken(page, 'yuki');
  await page.goto(`/post/${uuid}`);
  const like = likeOf(page);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  // Online, a like is sent at once, without the outbox.
  await like.click();
  await expect.poll(() => likeCount(page, uuid)).toBe(1);
  await like.click();
  await expect.poll(() => likeCount(page, uuid)).toBe(0);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  expect(sendingAsked).toEqual([]);
  // Offline, it waits; back online, the sending module comes and sends it.
  await context.setOffline(true);
  await like.click();
  await expect(page.locator('header.site-header .waiting-count')).toHaveText('1 waiting');
  expect(sendingAsked).toEqual([]);
  await context.setOffline(false);
  await expect(page.locator('header.site-header .waiting-count')).toHaveCount(0);
  await expect.poll(() => likeCount(page, uuid)).toBe(1);
  expect(sendingAsked).toHaveLength(1);
  // The page's own re-read on reconnecting can start before the like is sent
  // and be answered after it: the button keeps the like (toggles.spec, a read
  // asked before a like), and a fresh load agrees.
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${token('tomas')}` } });
});

test('when the code that sends cannot be loaded, what waits stays, says nothing new, and goes once it can', async ({ page, context }) => {
  const uuid = await postBy(page, 'tomas', `liked when sending loads ${Date.now()}`);
  let blocked = true;
  await page.route('**/split_sending.wasm', (route) => (blocked ? route.abort() : route.continue()));
  await signInWithToken(page, 'yuki');
  await page.goto(`/post/${uuid}`);
  const like = likeOf(page);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await context.setOffline(true);
  await like.click();
  const waiting = page.locator('header.site-header .waiting-count');
  await expect(waiting).toHaveText('1 waiting');
  const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/split_sending.wasm'));
  await context.setOffline(false);
  await failed;
  // Nothing sent, nothing lost, no error in the page's place.
  await expect(waiting).toHaveText('1 waiting');
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await likeCount(page, uuid)).toBe(0);
  // Tried again after a pause: it goes, once.
  blocked = false;
  await expect(waiting).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => likeCount(page, uuid)).toBe(1);
  await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${token('tomas')}` } });
});
