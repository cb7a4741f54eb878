// Benchmark, not a test: opening a thread of 200 posts in 4 levels with
// the CPU slowed down 4x (routes/thread_tree.rs), against the release
// server. Prints each run, then the median and spread (min-max) of:
//   requests          API requests sent before the thread and its first reply show
//   first reply ms    from navigation until the first reply's card is drawn
//   expand longest    the longest task while a branch of 15 replies expands (ms;
//                     the Long Tasks API reports only tasks over 50 ms: 0 is none)
//   expand all MB     the page's JS heap after every branch is expanded
//                     (performance.memory; the wasm's own memory is not in it)
// Usage: node bench/thread.mjs BASE TOKEN ROOT [RUNS]
// Run by scripts/bench-thread.sh (make bench-thread), which makes the thread.
import { launchChromium, median, recordLongTasks, signIn } from './shared.mjs';

const [base, token, root, runs = '3'] = process.argv.slice(2);
const browser = await launchChromium();
const rows = [];

for (let run = 1; run <= Number(runs); run++) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await signIn(page, base, token);
  const tab = await context.newPage();
  await page.close();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await recordLongTasks(tab);
  const asked = [];
  tab.on('request', (r) => { if (r.url().includes('/api/v1/')) asked.push([Date.now(), new URL(r.url()).pathname]); });
  const start = Date.now();
  await tab.goto(`${base}/post/${root}`);
  const feed = tab.getByRole('feed', { name: 'Replies' });
  await feed.locator(':scope > article').first().waitFor({ timeout: 120_000 });
  const shown = Date.now();
  const firstReply = await tab.evaluate(() => performance.now());
  const before = asked.filter(([at]) => at <= shown).length;

  // The branch of 15: its toggle says "15 replies".
  await tab.waitForTimeout(1000);
  const toggle = tab.locator('.branch-toggle', { hasText: '15 replies' }).first();
  const clickedAt = await tab.evaluate(() => performance.now());
  await toggle.click();
  await tab.locator('.branch').first().locator(':scope > article').nth(14).waitFor({ timeout: 120_000 });
  await tab.waitForTimeout(500);
  const longest = await tab.evaluate((t0) => Math.max(0, ...window.__tasks.filter(([s]) => s >= t0).map(([, d]) => d)), clickedAt);

  // Everything expanded.
  for (;;) {
    const closed = tab.locator('.branch-toggle[aria-expanded="false"]');
    if ((await closed.count()) === 0) break;
    await closed.first().click();
    await tab.waitForTimeout(50);
  }
  await tab.waitForTimeout(1000);
  const heap = await tab.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  rows.push([before, Math.round(firstReply), Math.round(longest), heap / 1e6]);
  console.log(`run ${run}: ${before} requests before the first reply, first reply ${Math.round(firstReply)} ms, expanding 15: longest task ${Math.round(longest)} ms, all expanded: JS heap ${(heap / 1e6).toFixed(1)} MB (${asked.length} requests in all)`);
  await context.close();
}
const spread = (i, f = (x) => x) => `${f(median(rows.map((r) => r[i])))} (${f(Math.min(...rows.map((r) => r[i])))}-${f(Math.max(...rows.map((r) => r[i])))})`;
console.log(`\n4x CPU, ${runs} runs: median (min-max)`);
console.log(`requests before the thread and its first replies show  ${spread(0)}   target: <= 3`);
console.log(`first reply drawn                                      ${spread(1)} ms`);
console.log(`longest task expanding a branch of 15                  ${spread(2)} ms (0: none over 50 ms)   target: <= 50 ms`);
console.log(`JS heap, everything expanded                           ${spread(3, (x) => x.toFixed(1))} MB`);
await browser.close();
