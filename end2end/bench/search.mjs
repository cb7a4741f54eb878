// Benchmark, not a test: search over what this browser holds (issue 46,
// src/store/search/), in real Chromium at 4x CPU against the release app and
// server. The account's local copy is given 5,000 posts (made up from a
// vocabulary of 2,000 words, some German and Arabic, 50 authors), then
// /search is opened and each query typed a key at a time. Prints each run,
// then the median and spread (min-max) of:
//   build           ms from the search page's first words until the index is built
//   longest build   the longest task meanwhile (ms)
//   keystroke       ms from a key's input event until its results (the first
//                   screen of them) are in the page (every key of every
//                   query; median and worst)
//   longest typing  the longest task while typing (ms)
//   index           what the index takes (its own estimate, KB), posts held
// Usage: node bench/search.mjs BASE TOKEN [RUNS] [POSTS]
// Run by scripts/bench-search.sh (make bench-search).
import { launchChromium, median, recordLongTasks, signIn, slowTab } from './shared.mjs';

const [base, token, runs = '3', count = '5000'] = process.argv.slice(2);
const POSTS = Number(count);
const QUERIES = ['river', 'the light', 'katze', 'قطة', 'morning walk river', '@au'];

// A deterministic stream of numbers, so every run searches the same posts.
let seed = 42;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const english = 'the a of and to in is it on for with at by from light river morning walk cat dog garden city rain sun night coffee train book music friend work home road window tree bird sea snow bread market bridge lantern story letter paper colour evening summer winter autumn spring hill field song voice'.split(' ');
const extra = 'Katze Straße Brücke Morgen Fluss قطة نهر صباح حديقة مدينة café crème über naïve'.split(' ');
const words = [...english, ...extra];
for (let i = 0; words.length < 2000; i++) words.push(`w${i.toString(36)}x${(i * 7919 % 997).toString(36)}`);
// Zipf-like: the first words far more often than the last.
const word = () => words[Math.floor(words.length * random() ** 3)];
const authors = Array.from({ length: 50 }, (_, i) => ({
  uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  username: `au${i}`,
  display_name: `Author ${i}`,
}));

function madePosts(me) {
  const now = Date.now();
  return Array.from({ length: POSTS }, (_, i) => {
    const n = 10 + Math.floor(random() * 40);
    const content = Array.from({ length: n }, word).join(' ');
    return {
      uuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      parent: null,
      author: authors[i % authors.length],
      content,
      from: null,
      locked: false,
      reply_count: 0,
      like_count: 0,
      created_at: new Date(now - i * 60_000).toISOString(),
    };
  });
}

const browser = await launchChromium();
const rows = [];
for (let run = 1; run <= Number(runs); run++) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  await context.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), local_copy_posts: POSTS + 1000 } });
  });
  const setup = await context.newPage();
  await signIn(setup, base, token);
  const me = await setup.evaluate(() => JSON.parse(localStorage.getItem('perch.session')).user);
  // Away from the app (which would write its own copy over it), on its origin.
  await setup.goto(`${base}/robots.txt`);
  // The copy as the app keeps it (src/store/copy/mod.rs, version 2), with the posts.
  const copy = { version: 2, account: me.uuid, saved: Date.now(), posts: madePosts(me), users: authors, lists: [], following: null, home: null };
  await setup.evaluate(([uuid, text]) => new Promise((done, fail) => {
    const open = indexedDB.open('perch', 2);
    open.onupgradeneeded = () => {
      for (const n of ['copies', 'outbox']) if (!open.result.objectStoreNames.contains(n)) open.result.createObjectStore(n);
    };
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('copies', 'readwrite');
      tx.objectStore('copies').put(text, uuid);
      tx.oncomplete = () => { open.result.close(); done(); };
    };
  }), [me.uuid, JSON.stringify(copy)]);
  await setup.close();

  const { tab } = await slowTab(context);
  await recordLongTasks(tab);
  // What started each long frame (Long Animation Frames: the callbacks that
  // ran in it), to tell search's work from the app's other work.
  await tab.addInitScript(() => {
    window.__frames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const layout = e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0;
        window.__frames.push([e.startTime, e.duration, `blocking ${e.blockingDuration.toFixed(0)} ms, style and layout ${layout.toFixed(0)} ms, render start at +${(e.renderStart - e.startTime).toFixed(0)} ms; ` + e.scripts.map((s) => `${s.invoker} ${s.duration.toFixed(0)}ms`).join('; ')]);
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
  // When the search page first says what it is reading: the index's building starts.
  await tab.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('#search-status')) {
        window.__buildFrom = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await tab.goto(`${base}/search`);
  const status = tab.locator('#search-status');
  try {
    await status.and(tab.locator('[data-searched=""]')).waitFor({ timeout: 120_000 });
  } catch (e) {
    console.log(await tab.locator('main').innerHTML().catch(() => 'no main'));
    throw e;
  }
  const built = await tab.evaluate(() => ({
    at: performance.now() - window.__buildFrom,
    longest: Math.max(0, ...window.__tasks.filter(([s]) => s >= window.__buildFrom).map(([, d]) => d)),
    bytes: Number(document.querySelector('#search-status').getAttribute('data-index-bytes')),
    text: document.querySelector('#search-status').textContent,
  }));
  const held = Number((built.text.match(/[\d,]+/) ?? ['0'])[0].replace(/,/g, ''));
  if (held < POSTS) throw new Error(`the index holds ${held} posts, not ${POSTS}: ${built.text}`);
  const typedFrom = await tab.evaluate(() => { window.__tasks = []; return performance.now(); });
  const keys = [];
  for (const query of QUERIES) {
    await tab.locator('#search-box').fill('');
    for (let i = 1; i <= query.length; i++) {
      const typed = query.slice(0, i);
      keys.push(await tab.evaluate((typed) => new Promise((done) => {
        window.__typed = typed;
        const box = /** @type {HTMLInputElement} */ (document.querySelector('#search-box'));
        const status = document.querySelector('#search-status');
        // The key's results are in the page when the status says whose they
        // are (the first screen of them drawn in the same update; the rest
        // come a few a task after, counted by the longest task below).
        const observer = new MutationObserver(() => {
          if (status.getAttribute('data-searched') === typed) {
            observer.disconnect();
            done(performance.now() - start);
          }
        });
        observer.observe(status, { attributes: true });
        const start = performance.now();
        box.value = typed;
        box.dispatchEvent(new Event('input', { bubbles: true }));
      }), typed));
    }
  }
  if (process.env.SHOW_KEYS) console.log(QUERIES.flatMap((q) => [...Array(q.length)].map((_, i) => q.slice(0, i + 1))).map((k, i) => `${k}: ${keys[i].toFixed(1)}`).join(', '));
  const typing = await tab.evaluate((from) => Math.max(0, ...window.__tasks.filter(([s]) => s >= from).map(([, d]) => d)), typedFrom);
  const frames = await tab.evaluate((from) => window.__frames.filter(([s, d]) => s >= from && d > 50), typedFrom);
  for (const [at, d, what] of frames) console.log(`  a long frame while typing, at ${at.toFixed(0)} ms: ${d.toFixed(0)} ms: ${what}`);
  const row = {
    build: built.at,
    longestBuild: built.longest,
    keyMedian: median(keys),
    keyWorst: Math.max(...keys),
    typing,
    indexKB: built.bytes / 1000,
    held,
  };
  console.log(`run ${run}: build ${row.build.toFixed(0)} ms (longest task ${row.longestBuild.toFixed(0)} ms), keystroke median ${row.keyMedian.toFixed(1)} ms, worst ${row.keyWorst.toFixed(1)} ms over ${keys.length} keys, longest task typing ${row.typing.toFixed(0)} ms, index ${row.indexKB.toFixed(0)} KB for ${held} posts`);
  rows.push(row);
  await context.close();
}
await browser.close();
const show = (name, key, unit, digits = 0) => {
  const xs = rows.map((r) => r[key]);
  console.log(`${name.padEnd(28)} median ${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`);
};
console.log(`\n${rows.length} runs, ${POSTS} posts, 4x CPU:`);
show('build', 'build', 'ms');
show('longest task while building', 'longestBuild', 'ms');
show('keystroke, median key', 'keyMedian', 'ms', 1);
show('keystroke, worst key', 'keyWorst', 'ms', 1);
show('longest task while typing', 'typing', 'ms');
show('index', 'indexKB', 'KB');
