// Benchmark, not a test: how long the home timeline takes to draw from the
// store, in real Chromium with the CPU slowed down 4x. Signed in, the page
// loads once; then it goes to a profile and back to Home by clicking the
// header's links, and each return to Home is timed from the click to the
// frame after its posts are in the document (all from the store: no
// request is on that path). Prints each run's median of 12 returns, then
// the median and spread (min-max) over runs.
// Usage: node bench/render.mjs BASE1[,BASE2] TOKEN1[,TOKEN2] [RUNS]
// (several servers: runs alternate between them). Run by
// scripts/bench-render.sh (make bench-render), which starts the server.
import { launchChromium, median, signedInPage, targetsOf } from './shared.mjs';

const [bases, tokens, runs = '5'] = process.argv.slice(2);
const targets = targetsOf(bases, tokens);
const browser = await launchChromium();

async function once({ base, token }) {
  const { context, page } = await signedInPage(browser, base, token);
  await page.locator('article.post').nth(19).waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const times = [];
  for (let i = 0; i < 12; i++) {
    await page.locator('header a[href^="/user/@"]').first().click();
    await page.getByRole('feed', { name: 'Posts' }).locator('article.post').first().waitFor();
    await page.waitForTimeout(300);
    times.push(await page.evaluate(() => new Promise((resolve) => {
      const start = performance.now();
      /** @type {HTMLAnchorElement} */ (document.querySelector('header a[href="/"]:not(.brand)')).click();
      const check = () => {
        if (document.querySelectorAll('main.home article.post').length >= 20) {
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start)));
        } else {
          requestAnimationFrame(check);
        }
      };
      check();
    })));
  }
  await context.close();
  return median(times);
}

for (let run = 1; run <= Number(runs); run++) {
  for (const target of targets) {
    const ms = await once(target);
    target.rows.push(ms);
    console.log(`${target.base} run ${run}: home drawn from the store in ${ms.toFixed(0)} ms (median of 12)`);
  }
}
await browser.close();
console.log(`\nhome from the store, 4x slower CPU, ${runs} runs each, median (min–max):`);
for (const { base, rows } of targets) {
  console.log(`| ${base} | ${median(rows).toFixed(0)} (${Math.min(...rows).toFixed(0)}–${Math.max(...rows).toFixed(0)}) |`);
}
