// Benchmark, not a test: where the start's time goes, step by step, with
// the CPU slowed down 4x, signed in, on a build with the `marks` feature
// (browser/marks.rs puts `perch:*` marks on the performance timeline).
// Two kinds of visit:
//   cold   the HTTP cache cleared, no local copy (a new context each run)
//   reopen the same context opened again: the local copy draws Home
// Prints each run, then the median and spread (min-max) of, in ms:
//   fetch    navigation start to the wasm running (`perch:app`)
//   started  `perch:app` to `perch:started`: the catalog, config.json, the
//            copy and the outbox read (mostly waiting for them)
//   shell    `perch:started` to `perch:shell`: the session, the API
//            client, the store and the timeline made
//   copy     `perch:shell` to `perch:copy-seeded`: the copy parsed
//            (serde_json, the whole copy) and the store seeded from it
//   outbox   `perch:copy-seeded` to `perch:outbox-started`
//   rest     `perch:outbox-started` to `perch:shell-ready`: the clock,
//            the service worker's registration, the shortcuts
//   draw     `perch:shell-ready` to the first post in the DOM: the first
//            render (header, composer, the cards), in one task today
//   longest  the longest task up to 3 s after the first post
//   at       when it started, from `perch:app` (negative: before the wasm
//            ran, as its compile)
//   long     how many tasks were over 50 ms, up to 3 s after the first post
//   blocking the sum of their time over 50 ms (total blocking time)
// Usage: node bench/start.mjs BASE TOKEN [RUNS]; several servers (builds)
// as BASE1,BASE2 with TOKEN1,TOKEN2: runs then alternate between them.
// Run by hand against a server of a `PERCH_FEATURES=marks trunk build --release` build
// (docs/performance.md, "The start, step by step").
import { copies, launchChromium, median, recordFirstPost, recordLongTasks, signedInPage, slowTab, targetsOf } from './shared.mjs';

const [bases, tokens, runs = '5'] = process.argv.slice(2);
const targets = targetsOf(bases, tokens);
const browser = await launchChromium();
const STEPS = ['fetch', 'started', 'shell', 'copy', 'outbox', 'rest', 'draw', 'longest', 'at', 'long', 'blocking'];
const MARKS = ['perch:app', 'perch:started', 'perch:shell', 'perch:copy-seeded', 'perch:outbox-started', 'perch:shell-ready'];

async function once(base, context, clear) {
  const { tab } = await slowTab(context, clear);
  await recordLongTasks(tab);
  await recordFirstPost(tab);
  await tab.goto(`${base}/`);
  await tab.locator('article.post').first().waitFor({ timeout: 60_000 });
  await tab.waitForTimeout(3000);
  const { tasks, post, marks } = await tab.evaluate((names) => ({
    tasks: window.__tasks,
    post: window.__post,
    marks: names.map((n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN),
  }), MARKS);
  await tab.close();
  const [app, started, shell, seeded, outbox, ready] = marks;
  const counted = tasks.filter(([start]) => start <= post + 3000);
  return {
    fetch: app,
    started: started - app,
    shell: shell - started,
    copy: seeded - shell,
    outbox: outbox - seeded,
    rest: ready - outbox,
    draw: post - ready,
    longest: Math.max(0, ...counted.map(([, d]) => d)),
    at: (counted.reduce((a, b) => (b[1] > a[1] ? b : a), [NaN, 0])[0]) - app,
    long: counted.length,
    blocking: counted.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
  };
}

for (const target of targets) target.rows = { cold: [], reopen: [] };
for (let run = 1; run <= Number(runs); run++) for (const { base, token, rows } of targets) {
  const { context, page } = await signedInPage(browser, base, token);
  // Home read once, and its copy written (when changes pause).
  await page.locator('article.post').first().waitFor();
  for (let i = 0; i < 100 && (await copies(page)).length === 0; i++) await page.waitForTimeout(200);
  await page.close();
  for (const [kind, clear] of [['reopen', false], ['cold', true]]) {
    if (kind === 'cold') {
      // A cold visit has no copy: its IndexedDB is emptied first.
      const blank = await context.newPage();
      await blank.goto(`${base}/robots.txt`);
      await blank.evaluate(() => new Promise((done) => { const r = indexedDB.deleteDatabase('perch'); r.onsuccess = r.onerror = r.onblocked = done; }));
      await blank.close();
    }
    const row = await once(base, context, clear);
    rows[kind].push(row);
    console.log(`${base} ${kind} run ${run}: ${STEPS.map((s) => `${s} ${row[s].toFixed(0)}`).join(', ')}`);
  }
  await context.close();
}
await browser.close();

const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`\n${runs} runs each, 4x CPU, ms, median (min–max):`);
console.log(`| server | visit | ${STEPS.join(' | ')} |\n|---|---|${STEPS.map(() => '---').join('|')}|`);
for (const { base, rows } of targets) {
  for (const kind of ['reopen', 'cold']) {
    console.log(`| ${base} | ${kind} | ${STEPS.map((s) => spread(rows[kind].map((r) => r[s]))).join(' | ')} |`);
  }
}
