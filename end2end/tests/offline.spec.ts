// Installable, with an offline shell: the manifest and its icons, the
// service worker keeping the app files, and the app starting offline with
// a notice, under the app's Content-Security-Policy.
import { test, expect } from './fixtures';
import { api, copies, goToPerson, signInWithToken, token, SERVER_BIN, DB_DIR } from './helpers';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

test.use({ serviceWorkers: 'allow' });

test('a repeat visit starts offline, shows the timeline as it was saved, says so, and what is written there waits to be sent', async ({ page, context }) => {
  await signInWithToken(page, 'mira');
  const first = page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first();
  await expect(first).toBeVisible();
  const top = await first.getAttribute('data-uuid');
  // The service worker has kept the shell once it is active; the local
  // copy (src/store/copy.rs) holds the timeline once changes pause.
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);
  await expect.poll(async () => Object.values(await copies(page)).some((c) => c.home?.started), { timeout: 15_000 }).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('header.site-header .brand')).toHaveText('Perch');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.locator('.offline-notice')).toContainText(/You are offline\. This is what Perch saved (just now|\d+ minutes? ago)/);
  // The timeline is there as it was read, not an error.
  await expect(first).toHaveAttribute('data-uuid', top!);
  // The page's end scrolls clear of the notice: nothing is read under it.
  const clear = async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    return page.evaluate(() => {
      const notice = document.querySelector('.offline-notice')!.getBoundingClientRect();
      const end = [...document.querySelectorAll('main > *')].pop()!.getBoundingClientRect();
      return notice.height > 0 && end.bottom <= notice.top + 1;
    });
  };
  await expect.poll(clear).toBe(true);
  // A page never read cannot load: it says so instead of blanking the page.
  await goToPerson(page, 'olga');
  await expect(page.getByRole('alert').first()).toContainText(/could not reach the server/i);
  await page.getByRole('link', { name: 'Home' }).first().click();
  // Writing offline: the post waits to be sent, across a reload.
  const box = page.getByLabel('Post text');
  const content = `written on a train ${Date.now()}`;
  await box.fill(content);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(box).toHaveValue('');
  const waiting = page.locator('article.post.waiting', { hasText: content });
  await expect(waiting).toContainText('Waiting to send');
  await page.reload();
  await expect(waiting).toContainText('Waiting to send');

  await context.setOffline(false);
  await expect(page.locator('.offline-notice')).toHaveText('');
  // Its room goes with it.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).paddingBottom)).not.toBe('80px');
  await expect(waiting).toHaveCount(0, { timeout: 20_000 });
  const tok = token('mira');
  const me = await api(page, tok, '/user');
  const sent = (await api(page, tok, `/user/${me.uuid}/posts/1`)).posts.filter((p: any) => p.content === content);
  expect(sent, 'sent once').toHaveLength(1);
  await page.request.delete(`/api/v1/post/${sent[0].uuid}`, { headers: { Authorization: `Bearer ${tok}` } });
});

test('a first visit is not held up by the worker: it is registered 5 s after the page has loaded', async ({ page }) => {
  // Its install reads index.html and every file again, which must not
  // queue in front of the first page's own requests (docs/performance.md).
  const registered = () => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()));
  await page.clock.install();
  await page.goto('/signin');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.evaluate(() => new Promise((loaded) => {
    if (document.readyState === 'complete') loaded(null);
    else addEventListener('load', () => loaded(null));
  }));
  await page.clock.runFor(4_000);
  expect(await registered()).toBe(false);
  await page.clock.runFor(1_500);
  await expect.poll(registered).toBe(true);
});

test('the app is installable: a manifest with icons, and a service worker', async ({ page, request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ name: 'Perch', start_url: '/', display: 'standalone' });
  for (const icon of manifest.icons) {
    const res = await request.get(`/${icon.src}`);
    expect(res.ok(), icon.src).toBeTruthy();
    expect(res.headers()['content-type'], icon.src).toBe(icon.type);
  }
  expect(manifest.icons.some((i: any) => i.sizes === '512x512' && i.purpose === 'maskable')).toBe(true);
  await page.goto('/');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  // Chromium's own installability check; a test browser context is
  // incognito, which Chromium names but which no visitor's browser is.
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.filter((e: any) => e.errorId !== 'in-incognito')).toEqual([]);
});

test('with the worker installed, API calls do not wait for it and pages are asked for while it starts', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBeTruthy();
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).navigationPreload.getState()).enabled)).toBe(true);

  await page.reload();
  await expect(page.getByRole('feed').first().getByRole('article').first()).toBeVisible();
  // Resource timing says which rule each request matched: static routing
  // ('network', the worker not asked) or the worker's fetch event.
  const entries = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => ({
    path: new URL(e.name).pathname,
    matched: (e as unknown as { workerMatchedSourceType?: string }).workerMatchedSourceType ?? '',
    workerStart: (e as PerformanceResourceTiming).workerStart,
  })));
  const api = entries.filter((e) => e.path.startsWith('/api/'));
  expect(api.length).toBeGreaterThan(0);
  expect(api.filter((e) => e.matched !== 'network'), 'API requests that woke the worker').toEqual([]);
  // The main module and the page's split modules.
  const wasm = entries.filter((e) => e.path.endsWith('.wasm'));
  expect(wasm.filter((e) => e.path.endsWith('/perch_bg.wasm')).length).toBeGreaterThanOrEqual(1);
  expect(wasm.filter((e) => /\/split_/.test(e.path)).length).toBeGreaterThanOrEqual(1);
  expect(wasm.filter((e) => e.matched === 'network'), 'the wasm comes through the worker').toEqual([]);
  expect(wasm.every((e) => e.workerStart > 0)).toBe(true);
});

test('a new release is kept in the background and offered; a tab on the old one still opens its pages; the reload starts the new one with no network', async ({ page }) => {
  test.setTimeout(90_000);
  // A server of this test's own, serving a copy of the build that the test
  // replaces with a second release while the page is open.
  const port = 8700 + Math.floor(Math.random() * 500);
  const site = `.tmp/site-${port}`;
  const db = `${DB_DIR}/release-${port}.db`;
  rmSync(site, { recursive: true, force: true });
  cpSync('../dist', site, { recursive: true });
  // Without precompressed twins, a changed file is served as it is.
  for (const f of readdirSync(site, { recursive: true }) as string[]) if (/\.(br|gz)$/.test(f)) rmSync(`${site}/${f}`);
  const start = () => spawn(SERVER_BIN, ['--db', db, 'serve', '--demo', '--addr', `127.0.0.1:${port}`, '--static', site], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const up = () => expect.poll(async () => (await page.request.get(`${base}/api/v1/ping`).catch(() => null))?.ok() ?? false, { timeout: 20_000 }).toBe(true);
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };
  let server = start();
  try {
    await up();
    const tok = execFileSync(SERVER_BIN, ['--db', db, 'token', 'mira'], { encoding: 'utf8' }).trim().split('\n').pop()!;
    await page.goto(`${base}/signin`);
    await page.getByLabel('Access token', { exact: true }).fill(tok);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBeTruthy();

    // Release 2: the same files in a new hashed folder, an index.html that
    // says so, and the old folder gone from the server, as a release does.
    let index = readFileSync(`${site}/index.html`, 'utf8');
    const [pkg] = [...new Set(index.match(/pkg-[0-9a-f]{12,16}/g))];
    const files = readdirSync(`${site}/${pkg}`);
    expect(files.filter((f) => f.startsWith('split_')).length).toBeGreaterThanOrEqual(3);
    expect(index).toContain('<meta charset=utf-8>');
    cpSync(`${site}/${pkg}`, `${site}/pkg-b2b2b2b2b2b2b2b2`, { recursive: true });
    rmSync(`${site}/${pkg}`, { recursive: true });
    index = index.split(pkg).join('pkg-b2b2b2b2b2b2b2b2');
    writeFileSync(`${site}/index.html`, index.replace('<meta charset=utf-8>', '<meta charset=utf-8><meta name="perch-release" content="2">'));
    // Deployed: the server starts again with it (its script policy names
    // the new index.html's inline scripts).
    await stop();
    server = start();
    await up();

    // The next start is the running version, at once; the new one is kept
    // behind it, and offered once all of it is here.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(page.locator('meta[name="perch-release"]')).toHaveCount(0);
    const notice = page.locator('.update-notice');
    await expect(notice).toContainText('A new version of Perch is ready.', { timeout: 20_000 });
    const kept = await page.evaluate(async () => (await (await caches.open('perch-shell-v1')).keys()).map((r) => new URL(r.url).pathname));
    expect(kept.filter((p) => p.includes('pkg-b2b2b2b2b2b2b2b2')), 'every module of the new version').toHaveLength(files.length);
    expect(kept.filter((p) => p.includes(pkg)), 'and of the version still running').toHaveLength(files.length);

    // This tab runs release 1, whose files the server no longer has: a page
    // it has not opened yet still opens, from what the worker kept.
    // (By keyboard: the update notice floats over the header.)
    await page.getByRole('banner').getByRole('link', { name: 'Profile' }).press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Mira/);
    await page.getByRole('main').getByRole('link', { name: /followers/i }).first().press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followers of @mira');
    expect(await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
    await expect(page.locator('meta[name="perch-release"]')).toHaveCount(0);

    // With the server gone, Reload still starts release 2: its files came before.
    await stop();
    await notice.getByRole('button', { name: 'Reload' }).click();
    await expect(page.locator('meta[name="perch-release"]')).toHaveCount(1);
    await expect(page.locator('header.site-header .brand')).toBeVisible();
    await expect(page.locator('#boot')).toHaveCount(0);
  } finally {
    server.kill('SIGTERM');
    rmSync(site, { recursive: true, force: true });
  }
});
