// Benchmark, not a test: the main thread's long tasks while a page loads
// signed in, with a cold HTTP cache and the CPU slowed down 4x (as
// Lighthouse's mobile preset does), in real Chromium against a running
// server. Prints each run, then the median and spread (min-max) of:
//   blocking ms   the sum of each long task's time over 50 ms (what
//                 Lighthouse calls total blocking time, here measured, not
//                 simulated, up to 3 s after the first post is drawn)
//   longest ms    the longest task
//   post ms       when the first post was drawn, from navigation start
//   script ms     all the time the page spent running script (Chromium's
//                 ScriptDuration), however it was cut into tasks: the
//                 least noisy of the four
//   style ms      all the time spent on style and layout (Chromium's
//                 RecalcStyleDuration + LayoutDuration)
// Usage: node bench/long-tasks.mjs BASE TOKEN [PATH] [RUNS]
// Several servers (say the app before and after a change) may be given as
// BASE1,BASE2 with TOKEN1,TOKEN2: runs then alternate between them.
// Run by scripts/bench-render.sh (make bench-render), which starts the server.
import { launchChromium, median, recordFirstPost, recordLongTasks, signedInPage, slowTab, targetsOf } from './shared.mjs';

const [bases, tokens, path = '/', runs = '6'] = process.argv.slice(2);
const targets = targetsOf(bases, tokens);
const browser = await launchChromium();

async function once({ base, token }) {
  const { context, page } = await signedInPage(browser, base, token);
  // A new tab of the signed-in context: its counters start at nothing.
  await page.close();
  const { tab, cdp } = await slowTab(context);
  await cdp.send('Performance.enable');
  await recordLongTasks(tab);
  await recordFirstPost(tab);
  await tab.goto(`${base}${path}`);
  await tab.locator('article.post').first().waitFor({ timeout: 60_000 });
  await tab.waitForTimeout(3000);
  const { tasks, post } = await tab.evaluate(() => ({ tasks: window.__tasks, post: window.__post }));
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => 1000 * metrics.find((m) => m.name === name).value;
  const script = metric('ScriptDuration');
  const style = metric('RecalcStyleDuration') + metric('LayoutDuration');
  await context.close();
  const counted = tasks.filter(([start]) => start <= post + 3000);
  return {
    blocking: counted.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
    longest: Math.max(0, ...counted.map(([, d]) => d)),
    post,
    script,
    style,
  };
}

for (let run = 1; run <= Number(runs); run++) {
  for (const target of targets) {
    const row = await once(target);
    target.rows.push(row);
    console.log(`${target.base} run ${run}: blocking ${row.blocking.toFixed(0)} ms, longest ${row.longest.toFixed(0)} ms, first post ${row.post.toFixed(0)} ms, script ${row.script.toFixed(0)} ms, style ${row.style.toFixed(0)} ms`);
  }
}
await browser.close();

const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`\n${path}, ${runs} runs each, median (min–max):`);
console.log('| server | blocking ms | longest ms | first post ms | script ms | style and layout ms |\n|---|---|---|---|---|---|');
for (const { base, rows } of targets) {
  console.log(`| ${base} | ${spread(rows.map((r) => r.blocking))} | ${spread(rows.map((r) => r.longest))} | ${spread(rows.map((r) => r.post))} | ${spread(rows.map((r) => r.script))} | ${spread(rows.map((r) => r.style))} |`);
}
