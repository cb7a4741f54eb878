// Benchmark, not a test (issue 68, point 6): a return to Home after a long
// read, in real Chromium with the CPU slowed down 4x. Signed in as an
// account following one author with enough posts, Home is read down to 30,
// 300 and 1,500 posts (scrolling as a person does, Load more pressed by
// itself); at each depth, Lists then Home by the keys `g l` and `g h` (no
// scroll), each return timed as the main thread's busy time (CDP's
// TaskDuration) from the key to the second frame after the feed is back
// with the same post at the top. Also, at each depth: the document's
// nodes while Home shows, the JavaScript heap and the wasm's linear memory,
// the return's script, style and layout parts, and a fling back up (600 px
// a frame for 150 frames, 4x) counted in long animation frames (> 50 ms).
// Prints every run, then the median and spread (min-max) over runs.
// Usage: node bench/return.mjs BASE1[,BASE2] TOKEN1[,TOKEN2] [RUNS] [DEPTHS]
// (several servers: runs alternate between them). TRACE=prefix writes a
// Chrome trace of the third return at each depth to prefix-PORT-DEPTH.json,
// and of the fling to prefix-PORT-DEPTH-fling.json (PROFILE=1: with the
// CPU profile's samples instead of the invalidations). MOVES=1 prints the
// cards that entered and left at each move of the feed's window.
// Run by scripts/bench-return.sh (make bench-return), which starts the servers.
import { launchChromium, median, signIn, targetsOf } from './shared.mjs';

const [bases, tokens, runs = '3', depths = '30,300,1500'] = process.argv.slice(2);
const targets = targetsOf(bases, tokens);
const browser = await launchChromium();
const cards = 'main [role=feed] > article.post[data-uuid]';

/** The place in the feed of the last card in the document. */
const lastRead = (page) => page.evaluate((sel) => Number([...document.querySelectorAll(sel)].pop()?.getAttribute('aria-posinset') ?? 0), cards);
const frames = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

async function readDown(page, n) {
  // Counted by the cards' places: a long read lets go of the cards far
  // from the screen (components/feed_window.rs).
  for (;;) {
    const count = await lastRead(page);
    if (count >= n) break;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(([sel, c]) => Number([...document.querySelectorAll(sel)].pop()?.getAttribute('aria-posinset') ?? 0) > c, [cards, count], { timeout: 60_000 });
  }
  // Back up to the post at 60 % of the read, away from Load more (which
  // would load a page on each return and time that too), a screen at a
  // time as a person would, until its card is in the document.
  const at = Math.floor(n * 0.6) + 1;
  const find = () => page.evaluate(([sel, at]) => !!document.querySelector(`${sel}[aria-posinset="${at}"]`), [cards, at]);
  while (!(await find())) {
    await page.evaluate(() => window.scrollBy(0, -window.innerHeight));
    await frames(page);
  }
  await page.evaluate(([sel, at]) => {
    const card = document.querySelector(`${sel}[aria-posinset="${at}"]`);
    window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY - 150);
  }, [cards, at]);
  await page.waitForTimeout(500);
}

const topCard = (page) => page.evaluate((sel) => [...document.querySelectorAll(sel)].find((c) => c.getBoundingClientRect().bottom > 0)?.getAttribute('data-uuid'), cards);
/** The main thread's busy time so far, and its script, style and layout parts, in ms. */
const busy = async (cdp) => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const ms = (name) => metrics.find((m) => m.name === name).value * 1000;
  return { task: ms('TaskDuration'), script: ms('ScriptDuration'), style: ms('RecalcStyleDuration'), layout: ms('LayoutDuration') };
};
const since = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

/** Scrolls up by 600 px a frame for `n` frames (a fling back through the
 *  read, across cards let go and brought back); the frames' durations as
 *  the browser's long-animation-frame entries count them (over 50 ms). */
const fling = (page, n) => page.evaluate((n) => new Promise((done) => {
  const long = [];
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'long-animation-frame' });
  let left = n;
  const step = () => {
    window.scrollBy(0, -600);
    if (--left > 0 && window.scrollY > 0) requestAnimationFrame(step);
    else setTimeout(() => { observer.takeRecords().forEach((e) => long.push(e.duration)); observer.disconnect(); done(long); }, 500);
  };
  requestAnimationFrame(step);
}), n);

async function once({ base, token }) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  // The wasm's exports, for its linear memory.
  await context.addInitScript(() => addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; }));
  const page = await context.newPage();
  await signIn(page, base, token);
  await page.locator(cards).first().waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const row = [];
  for (const depth of depths.split(',').map(Number)) {
    await readDown(page, depth);
    const top = await topCard(page);
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? NaN);
    const wasm = await page.evaluate(() => window.__wasm?.memory?.buffer?.byteLength ?? NaN);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const times = [];
    const kept = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('g');
      await page.keyboard.press('l');
      await page.getByRole('heading', { level: 1, name: 'Lists' }).waitFor();
      await page.waitForTimeout(300);
      const before = await busy(cdp);
      // The page itself watches, one cheap look a frame, for the post that
      // was at the top to be in the document again (a build that draws
      // Home again draws it down to there), then two frames; and says
      // whether it is back at the top of the screen (the place kept).
      const back = page.evaluate(([sel, uuid]) => new Promise((done) => {
        const look = () => {
          // Shown, not only in the document: a build may keep hidden Home
          // in it (content-visibility: hidden).
          const card = document.querySelector(`${sel}[data-uuid="${uuid}"]`);
          if (card?.checkVisibility()) requestAnimationFrame(() => requestAnimationFrame(() => {
            const rect = card.getBoundingClientRect();
            done(rect.bottom > 0 && rect.top < 200);
          }));
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }), [cards.replace('[data-uuid]', ''), top]);
      const tracing = process.env.TRACE && i === 2;
      if (tracing) await browser.startTracing(page, { path: `${process.env.TRACE}-${new URL(base).port}-${depth}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'blink', 'v8'] });
      await page.keyboard.press('g');
      await page.keyboard.press('h');
      kept.push(await back);
      if (tracing) await browser.stopTracing();
      times.push(since(before, await busy(cdp)));
    }
    // Then a fling back up through what was read, at the same 4x.
    const flung = await busy(cdp);
    const cats = process.env.PROFILE ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'disabled-by-default-v8.cpu_profiler'] : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'blink', 'v8'];
    if (process.env.TRACE) await browser.startTracing(page, { path: `${process.env.TRACE}-${new URL(base).port}-${depth}-fling.json`, categories: cats });
    // MOVES=1: the cards that entered and left the document at each move
    // of the feed's window, and the cards in it after.
    if (process.env.MOVES) await page.evaluate(() => {
      window.__moves = [];
      new MutationObserver((records) => {
        const count = (key) => records.reduce((n, r) => n + [...r[key]].filter((x) => x.nodeName === 'ARTICLE').length, 0);
        const [entered, left] = [count('addedNodes'), count('removedNodes')];
        if (entered || left) window.__moves.push({ entered, left, kept: document.querySelectorAll('main [role=feed] > article').length });
      }).observe(document.body, { childList: true, subtree: true });
    });
    const long = await fling(page, 150);
    if (process.env.MOVES) console.log(`after ${depth} posts, the fling's window moves:`, JSON.stringify(await page.evaluate(() => window.__moves)));
    if (process.env.TRACE) await browser.stopTracing();
    const fl = since(flung, await busy(cdp));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const part = (k) => median(times.map((t) => t[k]));
    row.push({ depth, ms: part('task'), script: part('script'), style: part('style'), layout: part('layout'), nodes, heap, wasm, kept: kept.every(Boolean), worst: Math.max(0, ...long), over50: long.length, fling: fl });
    // The fling moved the reader: back to the place for the next depth.
    await page.evaluate(([sel, uuid]) => document.querySelector(`${sel}[data-uuid="${uuid}"]`)?.scrollIntoView(), [cards, top]);
    // The place, for the next depth: read on from where the reader was.
    if (!kept.every(Boolean)) await page.evaluate(() => window.scrollTo(0, 0));
  }
  await context.close();
  return row;
}

for (let run = 1; run <= Number(runs); run++) {
  for (const target of targets) {
    const row = await once(target);
    (target.rows ??= []).push(row);
    for (const r of row) {
      console.log(`${target.base} run ${run}: after ${r.depth} posts, a return ${r.ms.toFixed(0)} ms of main thread (script ${r.script.toFixed(0)}, style ${r.style.toFixed(0)}, layout ${r.layout.toFixed(0)}), place ${r.kept ? 'kept' : 'lost'}, ${r.nodes} nodes, JS heap ${(r.heap / 1e6).toFixed(1)} MB, wasm ${(r.wasm / 1e6).toFixed(1)} MB; a fling up: ${r.over50} frames over 50 ms, the longest ${r.worst.toFixed(0)} ms, main thread ${r.fling.task.toFixed(0)} ms (script ${r.fling.script.toFixed(0)}, style ${r.fling.style.toFixed(0)}, layout ${r.fling.layout.toFixed(0)})`);
    }
  }
}
await browser.close();
const spread = (xs, digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
console.log(`\na return to Home (g l, g h), 4x slower CPU, ${runs} runs each (each the median of 3 returns), median (min–max):`);
console.log('| server | posts read | main thread, ms | script | style | layout | place | nodes | JS heap, MB | wasm memory, MB | fling: frames > 50 ms | longest frame, ms | fling: main thread, ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { base, rows } of targets) {
  for (const [i, { depth }] of rows[0].entries()) {
    const at = rows.map((r) => r[i]);
    console.log(`| ${base} | ${depth} | ${spread(at.map((r) => r.ms))} | ${spread(at.map((r) => r.script))} | ${spread(at.map((r) => r.style))} | ${spread(at.map((r) => r.layout))} | ${at.every((r) => r.kept) ? 'kept' : 'lost'} | ${spread(at.map((r) => r.nodes))} | ${spread(at.map((r) => r.heap / 1e6), 1)} | ${spread(at.map((r) => r.wasm / 1e6), 1)} | ${spread(at.map((r) => r.over50))} | ${spread(at.map((r) => r.worst))} | ${spread(at.map((r) => r.fling.task))} |`);
  }
}
