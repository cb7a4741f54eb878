// Perch's screenshots for docs/look.md (scripts/look.sh, `make look`):
// Home and a thread with its "⋯" open, signed in as mira on the demo data,
// at 390, 800 and 1280 px, light and dark, in en and ar.
// Usage: node bench/look.mjs BASE TOKEN OUT_DIR
import { launchChromium, signIn } from './shared.mjs';
import { mkdirSync } from 'node:fs';

const [base, token, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const browser = await launchChromium();
for (const language of ['en', 'ar']) {
  for (const scheme of ['light', 'dark']) {
    for (const width of [390, 800, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, serviceWorkers: 'block' });
      const page = await context.newPage();
      await signIn(page, base, token);
      await page.evaluate((code) => localStorage.setItem('perch.language', code), language);
      await page.reload();
      await page.locator('main [role=feed] article.post[data-uuid]').first().waitFor();
      // The second column comes once the page's reads are answered.
      if (width >= 1280) await page.locator('aside.side-column').waitFor();
      const name = (what) => `${out}/${what}-${width}-${scheme}-${language}.png`;
      await page.screenshot({ path: name('home') });
      const uuid = await page.locator('main [role=feed] article.post[data-uuid]').first().getAttribute('data-uuid');
      await page.goto(`${base}/post/${uuid}`);
      const focused = page.locator('article.focused');
      await focused.waitFor();
      await focused.locator('details.card-more > summary').click();
      await focused.locator('.card-menu').waitFor();
      await page.screenshot({ path: name('thread') });
      await context.close();
      console.log(`${language} ${scheme} ${width}: home, thread`);
    }
  }
}
await browser.close();
