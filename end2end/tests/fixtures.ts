// The `test` every spec imports: after each test, axe-core audits the page it
// ended on, and `visit` audits every page it opens; any Content-Security-Policy
// violation the browser reports during a test fails it too, and so does any
// crash: an uncaught error in the page (`pageerror`: a wasm panic ends as
// `RuntimeError: unreachable`) or a panic's message on the console. A panic
// kills the app until a reload, so no test may pass over one.
import { test as base, expect, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export async function expectAccessible(page: Page) {
  // Wait for the app to have rendered a page heading, not the loader (a
  // kept page hidden has its own, in the document).
  await expect(page.locator('h1').filter({ visible: true }).first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(summary, `axe-core violations on ${page.url()}`).toEqual([]);
}

/** For a test that breaks the page on purpose (it blocks the wasm, say):
 *  page errors matching `pattern` do not fail it. Any other still does. */
export function allowPageErrors(pattern: RegExp) {
  base.info().annotations.push({ type: 'allowed-page-error', description: pattern.source });
}

/** What a panic of the app's wasm writes to the console; and a later word
 *  read before its part came (src/i18n/mod.rs, "Words by page"): a blank
 *  where a word should be. */
const PANIC = /panicked at|RuntimeError|unreachable executed|already been disposed|a later word read before its part came/i;

/** How many times slower the CPU of every page is (PERCH_E2E_CPU, through
 *  the DevTools protocol), 1 for as it is. */
export const CPU_SLOWDOWN = Math.max(1, Number(process.env.PERCH_E2E_CPU ?? 1));

/** The DevTools sessions that slow a page's CPU, by page. */
const throttles = new WeakMap<Page, CDPSession>();

/** Slows the CPU of `page` `rate` times (Chromium's DevTools protocol). */
export async function throttleCpu(page: Page, rate: number) {
  let cdp = throttles.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    throttles.set(page, cdp);
    // A second DevTools session on the page has network conditions of its
    // own: without this, a page reloaded while the context is offline
    // reads navigator.onLine as true (seen at PERCH_E2E_CPU=4).
    const context = page.context() as BrowserContext & { perchOffline?: boolean };
    if (context.perchOffline) await emulateOffline(cdp, true);
    if (!(context as any).perchSetOffline) {
      const setOffline = context.setOffline.bind(context);
      (context as any).perchSetOffline = true;
      context.setOffline = async (offline: boolean) => {
        await setOffline(offline);
        context.perchOffline = offline;
        for (const p of context.pages()) {
          const session = throttles.get(p);
          if (session) await emulateOffline(session, offline);
        }
      };
    }
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

async function emulateOffline(cdp: CDPSession, offline: boolean) {
  await cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }).catch(() => {});
}

export const test = base.extend<{ visit: (path: string) => Promise<void>; auditAfter: void; slowCpu: void }>({
  slowCpu: [
    async ({ page, context }, use) => {
      if (CPU_SLOWDOWN > 1) {
        await throttleCpu(page, CPU_SLOWDOWN);
        context.on('page', (other) => void throttleCpu(other, CPU_SLOWDOWN).catch(() => {}));
      }
      await use();
    },
    { auto: true },
  ],
  visit: async ({ page }, use) => {
    await use(async (path: string) => {
      await page.goto(path);
      await expectAccessible(page);
    });
  },
  auditAfter: [
    async ({ page }, use, testInfo) => {
      const blocked: string[] = [];
      const crashes: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text());
        if (msg.type() === 'error' && PANIC.test(msg.text())) crashes.push(msg.text());
      });
      page.on('pageerror', (error) => crashes.push(`${error.name}: ${error.message}`));
      await use();
      expect(blocked, 'Content-Security-Policy violations').toEqual([]);
      const allowed = testInfo.annotations
        .filter((a) => a.type === 'allowed-page-error')
        .map((a) => new RegExp(a.description!, 'i'));
      const unexpected = crashes.filter((c) => !allowed.some((pattern) => pattern.test(c)));
      expect(unexpected, 'uncaught errors or wasm panics in the page').toEqual([]);
      if (testInfo.status === testInfo.expectedStatus && page.url() !== 'about:blank') {
        await expectAccessible(page);
      }
    },
    { auto: true },
  ],
});

export { expect };
