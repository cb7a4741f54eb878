// The `test` every spec imports: after each test, axe-core audits the page it
// ended on, and `visit` audits every page it opens; any Content-Security-Policy
// violation the browser reports during a test fails it too.
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export async function expectAccessible(page: Page) {
  // Wait for the app to have rendered a page heading, not the loader.
  await expect(page.locator('h1').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(summary, `axe-core violations on ${page.url()}`).toEqual([]);
}

export const test = base.extend<{ visit: (path: string) => Promise<void>; auditAfter: void }>({
  visit: async ({ page }, use) => {
    await use(async (path: string) => {
      await page.goto(path);
      await expectAccessible(page);
    });
  },
  auditAfter: [
    async ({ page }, use, testInfo) => {
      const blocked: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text());
      });
      await use();
      expect(blocked, 'Content-Security-Policy violations').toEqual([]);
      if (testInfo.status === testInfo.expectedStatus && page.url() !== 'about:blank') {
        await expectAccessible(page);
      }
    },
    { auto: true },
  ],
});

export { expect };
