// What the benchmarks share: signing in as a person would (the token form
// of /signin), the local copies the page's origin keeps, and, for those that compare builds (long-tasks.mjs,
// render.mjs), the servers to alternate between, the browser and the
// median.
import { chromium } from '@playwright/test';

/** Signs `page` in at `base` with `token` and waits for the home page. */
export async function signIn(page, base, token) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Access token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
}

/** Every local copy kept for `page`'s origin (src/store/copy.rs), read as JSON. */
export function copies(page) {
  return page.evaluate(() => new Promise((done) => {
    const open = indexedDB.open('perch', 2);
    open.onupgradeneeded = () => {
      for (const n of ['copies', 'outbox']) if (!open.result.objectStoreNames.contains(n)) open.result.createObjectStore(n);
    };
    open.onsuccess = () => {
      const get = open.result.transaction('copies', 'readonly').objectStore('copies').getAll();
      get.onsuccess = () => { open.result.close(); done(get.result.map((text) => JSON.parse(text))); };
    };
  }));
}

/** Records `tab`'s long tasks from its next navigation on, as
 *  `window.__tasks`: [start, duration] in ms. */
export function recordLongTasks(tab) {
  return tab.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Records when `tab`'s first post card is in the DOM, from its next
 *  navigation on, as `window.__post` (ms from navigation start). */
export function recordFirstPost(tab) {
  return tab.addInitScript(() => {
    const w = /** @type {any} */ (window);
    new MutationObserver((_, observer) => {
      if (document.querySelector('article.post')) {
        w.__post = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** A new tab of `context` with the CPU slowed down 4x and, when `clear`,
 *  the HTTP cache emptied: what a slow phone's visit is measured in.
 *  Its page and its DevTools session. */
export async function slowTab(context, clear = true) {
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  if (clear) await cdp.send('Network.clearBrowserCache');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { tab, cdp };
}

/** The servers of "BASE1,BASE2" and "TOKEN1,TOKEN2", each with no rows yet. */
export function targetsOf(bases, tokens) {
  return bases.split(',').map((base, i) => ({ base, token: tokens.split(',')[i], rows: [] }));
}

/** Headless Chromium, Debian's unless CHROMIUM_PATH says otherwise. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** A new signed-in context at a phone's width, service workers blocked. */
export async function signedInPage(browser, base, token) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await signIn(page, base, token);
  return { context, page };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** From Home to the signed-in person's profile by the header's link, its
 *  posts shown and settled. */
export async function toProfile(page) {
  await page.locator('header a[href^="/user/@"]').first().click();
  await page.getByRole('feed', { name: 'Posts' }).locator('article.post').first().waitFor();
  await page.waitForTimeout(300);
}

/** Back to Home by the header's link, timed from the click: to its first
 *  screen (4 posts) in the document and to the frame after its first 20
 *  posts. The page's marks are cleared first: those after are the return's. */
export function backHome(page) {
  return page.evaluate(() => new Promise((resolve) => {
    performance.clearMarks();
    const start = performance.now();
    let first = 0;
    /** @type {HTMLAnchorElement} */ (document.querySelector('header a[href="/"]:not(.brand)')).click();
    const check = () => {
      const drawn = document.querySelectorAll('main.home article.post').length;
      if (!first && drawn >= 4) first = performance.now() - start;
      if (drawn >= 20) {
        requestAnimationFrame(() => setTimeout(() => resolve({ first, all: performance.now() - start })));
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  }));
}

/** A CPU profile's nodes by id, each node's parent, and a function's name
 *  with its file and line (for the bench/profile-*.mjs aids). */
export function profileTree(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (id) => {
    const { callFrame } = nodes.get(id);
    return `${callFrame.functionName || '(anon)'} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber}`;
  };
  return { nodes, parent, nameOf };
}

/** A Rust function's mangled name, shorter and legible. */
export const shortName = (name, width = 140) => name.replace(/17h[0-9a-f]{16}E/g, '').replace(/\$u7b\$\$u7b\$closure\$u7d\$\$u7d\$/g, '{closure}')
  .replace(/_ZN\d+/g, '').replace(/\$LT\$|\$GT\$|\$u20\$|\$C\$/g, ' ').slice(0, width);
