// Helpers shared by the specs: tokens from the real perch-server command
// line (on the database the test server uses), and signing in through the app.
import { execFileSync } from 'node:child_process';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

export const SERVER_BIN = process.env.PERCH_SERVER_BIN ?? '../target/debug/perch-server';
/** The test server's folder, one per port (`playwright.config.ts`). */
export const DB_DIR = `.tmp/db-${process.env.PERCH_E2E_PORT ?? 8091}`;
export const DB = `${DB_DIR}/e2e.db`;
/** The test server's log of accepted API calls (`serve --request-log`): `<caller uuid> <method> <path>` a line. */
export const REQUEST_LOG = `${DB_DIR}/requests.log`;
export const ALL_SCOPES = [
  'post.get', 'post.send', 'post.edit', 'post.delete', 'post.like',
  'reply.get', 'reply.post', 'reply.edit', 'reply.delete', 'reply.like',
  'user.get', 'user.email', 'user.follow', 'user.following.get', 'user.followers.get',
];

/** A fresh access token for `username`, made by `perch-server token`. */
export function token(username: string, scopes: string[] = ALL_SCOPES): string {
  const out = execFileSync(SERVER_BIN, ['--db', DB, 'token', username, '--scopes', scopes.join(',')], { encoding: 'utf8' });
  return out.trim().split('\n').pop()!.trim();
}

/** Signs in with the Access token form, as a person with a token would. */
export async function signInWithToken(page: Page, username: string, scopes?: string[]) {
  await page.goto('/signin');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  const signOut = page.getByRole('main').getByRole('button', { name: 'Sign out' });
  if (await signOut.isVisible()) await signOut.click();
  await page.getByLabel('Access token', { exact: true }).fill(token(username, scopes));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
}

/** A new account on the test server, named `prefix` and a unique tail;
 *  its username. Specs that make others act use new accounts: a reply by
 *  a demo person would change what other specs find on that person's profile. */
export function newAccount(prefix: string, displayName = `${prefix} person`, password?: string): string {
  const name = `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const withPassword = password ? ['--password', password] : [];
  execFileSync(SERVER_BIN, ['--db', DB, 'user', 'add', name, '--display-name', displayName, ...withPassword], { encoding: 'utf8' });
  return name;
}

/** A request to the API as the owner of `tok`, which must succeed; its JSON. */
export async function call(page: Page, tok: string, method: string, path: string, body?: object) {
  const res = await page.request.fetch(`/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${tok}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    data: body ? JSON.stringify(body) : undefined,
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return res.json();
}

/** `reader` follows `author`, who posts each of `texts`, in order; the posts. */
export async function follows(page: Page, reader: string, author: string, texts: string[]) {
  const uuid = (await api(page, token(author), '/user')).uuid;
  await call(page, token(reader), 'POST', `/user/${uuid}/follow`);
  const posts = [];
  for (const content of texts) posts.push(await call(page, token(author), 'POST', '/post', { content }));
  return posts;
}

/** Calls the API directly with a token, for finding ids to visit. */
export async function api(page: Page, tok: string, path: string) {
  const res = await page.request.get(`/api/v1${path}`, { headers: { Authorization: `Bearer ${tok}` } });
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/** Signs in through the server's consent page as a demo user. */
export async function signInWithOAuth(page: Page, username = 'mira', untick: RegExp[] = [], timeout?: number) {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The server's page, not Perch's: until the redirect lands, "Username"
  // also names Perch's own Find field (a busy machine filled that one).
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Perch' })).toBeVisible({ timeout });
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('perch-demo');
  for (const name of untick) await page.getByRole('checkbox', { name }).uncheck();
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible({ timeout });
}

/** Chooses Edit or Delete in the "⋯" of `card`, one's own post (the
 *  card's own menu, not a nested reply's). */
export async function ownAction(card: Locator, name: 'Edit' | 'Delete') {
  await card.locator(':scope > header details.card-more > summary').click();
  await card.locator(':scope > header .card-menu').getByRole('button', { name, exact: true }).click();
}

/** Goes to @`username`'s profile inside the app, as a person does: the
 *  navigation's Search, `@username` in its box, Enter. */
export async function goToPerson(page: Page, username: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  const box = page.getByRole('searchbox', { name: /Search/ });
  await box.fill(`@${username}`);
  await box.press('Enter');
}

/** Makes the kept session's access token expire in 5 seconds, so the app's
 *  next request refreshes it first. */
export async function expireTokenSoon(page: Page) {
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('perch.session')!);
    s.token_expires_at = new Date(Date.now() + 5_000).toISOString();
    localStorage.setItem('perch.session', JSON.stringify(s));
  });
}

/** Every text kept in the app's IndexedDB store `name` ("copies": the
 *  local copies, src/store/copy.rs; "outbox": the waiting actions,
 *  src/store/outbox.rs), by account uuid, read as JSON (as text when it
 *  does not read). */
export async function kept(page: Page, name: 'copies' | 'outbox'): Promise<Record<string, any>> {
  return page.evaluate((name) => new Promise((done, fail) => {
    const open = indexedDB.open('perch', 2);
    open.onupgradeneeded = () => {
      for (const n of ['copies', 'outbox']) if (!open.result.objectStoreNames.contains(n)) open.result.createObjectStore(n);
    };
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const store = open.result.transaction(name, 'readonly').objectStore(name);
      const keys = store.getAllKeys(), values = store.getAll();
      values.onsuccess = () => {
        const out: Record<string, any> = {};
        keys.result.forEach((k, i) => { try { out[String(k)] = JSON.parse(values.result[i]); } catch { out[String(k)] = values.result[i]; } });
        open.result.close();
        done(out);
      };
    };
  }), name);
}

/** Every local copy kept in this browser, by account uuid. */
export async function copies(page: Page): Promise<Record<string, any>> {
  return kept(page, 'copies');
}

/** Counts, from now on, the attribute writes on the elements matching
 *  `selector` now (and inside them with `subtree`). A view drawn again
 *  writes its attributes anew; read the count with `attributeWrites`. */
export async function watchAttributeWrites(page: Page, selector: string, subtree = false) {
  await page.evaluate(([selector, subtree]) => {
    const w = window as any;
    w.__attributeWrites = [];
    const seen = new MutationObserver((records) => { w.__attributeWrites.push(...records.map((r) => r.attributeName)); });
    for (const el of document.querySelectorAll(selector as string)) seen.observe(el, { attributes: true, subtree: subtree as boolean });
  }, [selector, subtree] as const);
}

/** How many attribute writes the watch saw, but those to the attributes
 *  `except` names. */
export const attributeWrites = (page: Page, except: string[] = []): Promise<number> =>
  page.evaluate((except) => (window as any).__attributeWrites.filter((name: string) => !except.includes(name)).length, except);

/** Waits until the service worker controls the page, so every module of the
 *  app is kept (docs/split.md): offline as a returning reader is. Only in
 *  tests that allow service workers. */
export async function keptByWorker(page: Page) {
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBeTruthy();
}

/** `me` follows a new author, who has written `n` posts. */
export async function followAuthorOf(page: Page, me: string, n: number) {
  const author = newAccount('ka');
  const tok = token(author);
  for (let i = 0; i < n; i += 25) {
    const batch = Array.from({ length: Math.min(25, n - i) }, (_, j) => i + j + 1);
    await Promise.all(batch.map((k) => call(page, tok, 'POST', '/post', { content: `Kept post ${k} of ${n}` })));
  }
  const uuid = (await api(page, tok, '/user')).uuid;
  await call(page, token(me), 'POST', `/user/${uuid}/follow`);
  return author;
}

/** The host's `config.json` with `fields` set, as a host would write them,
 *  for every page of `target` (a page, or a whole context). */
export async function hostConfig(target: Page | BrowserContext, fields: Record<string, unknown>) {
  await target.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), ...fields } });
  });
}
