// Benchmark, not a test: Lighthouse (mobile preset: simulated slow 4G, 4x
// CPU slowdown) on four pages of the release app against the release
// server with the demo data, signed in, in three kinds of visit:
// - cold: no HTTP cache, no service worker, no local copy (a first visit
//   with the session already there);
// - copy: no HTTP cache and no service worker, but the local copy of the
//   page kept (src/store/copy.rs): the visit after a cache clear;
// - warm: a repeat visit: service worker, local copy and HTTP cache there.
// Prints every run, then the median and the spread (min–max) per page.
// Run by scripts/lighthouse.sh, which builds and starts the server.
//
// How it signs in and still lets Lighthouse load the page: Chromium runs
// with a debugging port; Playwright signs in on the default (persistent)
// profile, so the session is in that profile's localStorage; Lighthouse
// then connects to the same port with storage reset off. The HTTP cache,
// the service worker and its Cache Storage (and for a cold run IndexedDB)
// are emptied through the DevTools protocol; copy and warm runs follow a
// plain visit of the same page that waited until the local copy held it.
import { chromium } from '@playwright/test';
import { copies, signIn } from './shared.mjs';
import lighthouse from 'lighthouse';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, token, reportDir] = process.argv.slice(2);
const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.DEBUG_PORT ?? 9333);
const api = `${base}/api/v1`;

async function get(path) {
  const res = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return res.json();
}

// A thread with replies and a profile, from the demo data.
const me = await get('/user');
const threadPost = await (async () => {
  for (const name of ['mira', 'ines', 'tomas', me.username]) {
    const page = await get(`/user/@${name}/posts/1`);
    const posts = Array.isArray(page) ? page : page.posts ?? page.items ?? [];
    const withReplies = posts.find((p) => p.reply_count > 1);
    if (withReplies) return withReplies;
  }
  throw new Error('no demo post with replies');
})();
const pages = [
  ['home', '/'],
  ['thread', `/post/${threadPost.uuid}`],
  ['profile', `/user/@${threadPost.author.username}`],
  ['sign-in', '/signin'],
];

const profileDir = mkdtempSync(join(tmpdir(), 'perch-lighthouse-'));
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    `--remote-debugging-port=${PORT}`, '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
  ],
});
const page = context.pages()[0] ?? (await context.newPage());
await signIn(page, base, token);
const cdp = await context.newCDPSession(page);

const metrics = {
  performance: (r) => r.categories.performance.score,
  accessibility: (r) => r.categories.accessibility.score,
  'best-practices': (r) => r.categories['best-practices'].score,
  seo: (r) => r.categories.seo.score,
  'FCP s': (r) => r.audits['first-contentful-paint'].numericValue / 1000,
  'LCP s': (r) => r.audits['largest-contentful-paint'].numericValue / 1000,
  'TBT ms': (r) => r.audits['total-blocking-time'].numericValue,
  CLS: (r) => r.audits['cumulative-layout-shift'].numericValue,
  'KB': (r) => r.audits['total-byte-weight'].numericValue / 1000,
};
const digits = { 'TBT ms': 0, KB: 1, 'FCP s': 2, 'LCP s': 2, CLS: 3 };
const fmt = (name, v) => (v == null ? '–' : v.toFixed(digits[name] ?? 2));

/** Whether the local copy holds the page at `path` (Home's merge, or a
 *  thread's or profile's list). */
const copyHolds = async (path) => {
  // Lists are kept under "r:<uuid>" (a thread) and "p:<uuid>" (a profile).
  const kind = path === '/' ? 'home' : path.startsWith('/post/') ? 'r:' : path.startsWith('/user/') ? 'p:' : null;
  return kind === null || (await copies(page)).some((c) => kind === 'home' ? c.home?.started : c.lists.some(([key]) => key.startsWith(kind)));
};

// PAGES=home,thread and VISITS=copy,warm measure only those.
const only = (variable, all) => (process.env[variable] ? process.env[variable].split(',') : all);
const results = []; // { page, cache, values: {metric: [..]} }
for (const [name, path] of pages.filter(([name]) => only('PAGES', [name]).includes(name))) {
  for (const cache of only('VISITS', ['cold', 'copy', 'warm'])) {
    const values = Object.fromEntries(Object.keys(metrics).map((m) => [m, []]));
    for (let run = 1; run <= RUNS; run++) {
      await page.goto('about:blank');
      if (cache !== 'cold') {
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
        for (let i = 0; i < 100 && !(await copyHolds(path)); i++) await page.waitForTimeout(200);
        await page.goto('about:blank');
      }
      if (cache !== 'warm') {
        // No HTTP cache and no service worker with its kept shell
        // (assets/sw.js); the session in localStorage stays, and the
        // local copy too unless cold.
        await cdp.send('Network.clearBrowserCache');
        await cdp.send('Storage.clearDataForOrigin', {
          origin: new URL(base).origin,
          // FIRST_VISIT=1: a cold visit is a first visit, not signed in
          // (Web Storage emptied too): the sign-in page a newcomer sees.
          storageTypes: cache === 'cold'
            ? `service_workers,cache_storage,indexeddb${process.env.FIRST_VISIT === '1' ? ',local_storage' : ''}`
            : 'service_workers,cache_storage',
        });
      }
      const result = await lighthouse(`${base}${path}`, {
        port: PORT,
        output: 'json',
        logLevel: 'error',
        disableStorageReset: true,
        // THROTTLING=devtools: the network and CPU slowed for real while the
        // page loads, instead of Lighthouse's simulation from a fast load
        // (which does not see a request moved earlier: docs/performance.md).
        ...(process.env.THROTTLING === 'devtools' ? { throttlingMethod: 'devtools' } : {}),
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const lhr = result.lhr;
      if (reportDir) writeFileSync(join(reportDir, `${name}-${cache}-${run}.json`), result.report);
      for (const [m, read] of Object.entries(metrics)) values[m].push(read(lhr));
      console.log(`${name.padEnd(8)} ${cache} run ${run}: ` +
        Object.keys(metrics).map((m) => `${m} ${fmt(m, values[m].at(-1))}`).join(', '));
    }
    results.push({ name, cache, values });
  }
}
await context.close();
rmSync(profileDir, { recursive: true, force: true });

// The summary: median, and min–max over the runs.
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log(`\nLighthouse ${lighthouse.version ?? ''} mobile preset, ${RUNS} runs each: median (min–max)\n`);
const header = ['page', 'cache', ...Object.keys(metrics)];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const { name, cache, values } of results) {
  const cells = Object.keys(metrics).map((m) => {
    const xs = values[m];
    const lo = Math.min(...xs), hi = Math.max(...xs);
    return lo === hi ? fmt(m, lo) : `${fmt(m, median(xs))} (${fmt(m, lo)}–${fmt(m, hi)})`;
  });
  console.log(`| ${name} | ${cache} | ${cells.join(' | ')} |`);
}
