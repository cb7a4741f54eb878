// Benchmark, not a test: the home timeline with one account following 50
// users of 40 posts each, and a list of 30 of them, in Chromium against the real server. Prints the
// time from navigation to the first post on screen, cold and reopened from
// the local copy (RUNS of each, median and range), the requests and round
// trips before it, and the JS heap after 500 posts. Run by
// scripts/bench-timeline.sh, which starts the server and makes the accounts.
import { chromium } from '@playwright/test';
import { copies, signIn } from './shared.mjs';
import { readFileSync } from 'node:fs';

const [base, tokensFile] = process.argv.slice(2);
const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')); // { bench: "...", users: ["...", ...] }
const POSTS_EACH = Number(process.env.POSTS_EACH ?? 40);
const api = `${base}/api/v1`;

async function call(method, path, token, body) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

// Seed: each user posts (in parallel across users), the bench account follows them all.
const seedStart = Date.now();
const users = await Promise.all(tokens.users.map((t) => call('GET', '/user', t)));
await Promise.all(tokens.users.map(async (t, i) => {
  for (let n = 0; n < POSTS_EACH; n++) {
    await call('POST', '/post', t, { content: `Post ${n + 1} of ${POSTS_EACH} by ${users[i].username}: a line of text long enough to wrap on a phone screen.` });
  }
}));
for (const u of users) {
  const r = await call('POST', `/user/${u.uuid}/follow`, tokens.bench);
  if (r.action !== 'followed') await call('POST', `/user/${u.uuid}/follow`, tokens.bench);
}
console.log(`seeded ${users.length} users × ${POSTS_EACH} posts, followed by "bench", in ${Date.now() - seedStart} ms`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
const page = await context.newPage();

// Sign in once with the token form: the session (and the owner) is cached.
await signIn(page, base, tokens.bench);
await page.goto('about:blank');

await page.addInitScript(() => {
  addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; });
  new MutationObserver((_, observer) => {
    if (document.querySelector('main [role=feed] article.post')) {
      window.__firstPost = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
});

const requests = [];
page.on('requestfinished', (r) => {
  const t = r.timing();
  requests.push({ url: r.url(), start: t.startTime, end: t.startTime + t.responseEnd });
});

// The local copy (src/store/copy.rs): dropped before a cold open, kept
// for a reopen. robots.txt is a page of the origin without the app.
const dropCopy = () => page.evaluate(() => new Promise((done) => {
  const q = indexedDB.deleteDatabase('perch');
  q.onsuccess = q.onerror = q.onblocked = () => done(null);
}));
const copyHoldsHome = async () => (await copies(page)).some((c) => c.home?.started);
async function openHome(path = '/') {
  await page.goto(`${base}${path}`);
  await page.waitForFunction(() => window.__firstPost !== undefined, null, { timeout: 60_000 });
  return page.evaluate(() => window.__firstPost);
}
const RUNS = Number(process.env.RUNS ?? 3);
const cold = [], reopened = [];
for (let run = 0; run < RUNS; run++) {
  await page.goto(`${base}/robots.txt`);
  await dropCopy();
  cold.push(await openHome());
  for (let i = 0; i < 100 && !(await copyHoldsHome()); i++) await page.waitForTimeout(200);
  await page.goto(`${base}/robots.txt`);
  reopened.push(await openHome());
}
// A list of LIST_MEMBERS of the followed users (issue 47), kept as Perch
// keeps lists; opened as Home was cold (no local copy; a list's timeline is
// not kept in it anyway). Its first post, requests and waves, beside Home's.
const LIST_MEMBERS = Math.min(users.length, Number(process.env.LIST_MEMBERS ?? 30));
await page.goto(`${base}/robots.txt`);
await page.evaluate((members) => {
  const session = JSON.parse(localStorage.getItem('perch.session'));
  localStorage.setItem(`perch.lists.${session.user.uuid}`, JSON.stringify([{ id: 'bench', name: 'Bench', members }]));
}, users.slice(0, LIST_MEMBERS).map((u) => u.uuid));
const listRuns = [];
let listBefore = [];
for (let run = 0; run < RUNS; run++) {
  await page.goto(`${base}/robots.txt`);
  await dropCopy();
  requests.length = 0;
  const first = await openHome('/lists/bench');
  listRuns.push(first);
  const at = (await page.evaluate(() => performance.timeOrigin)) + first;
  listBefore = requests.filter((r) => r.start < at && r.url.includes('/api/v1/'));
}

// The rest measures the last cold open's page, opened once more without a copy.
await page.goto(`${base}/robots.txt`);
await dropCopy();
requests.length = 0;
const firstPost = await openHome();
const origin = await page.evaluate(() => performance.timeOrigin);
const firstAt = origin + firstPost;
const before = requests.filter((r) => r.start < firstAt);
const apiBefore = before.filter((r) => r.url.includes('/api/v1/'));

// Waves: stretches of API requests separated by a moment with none in
// flight, that is, times the app had to wait for an answer before it could
// ask anything more. Requests queued behind busy connections do not count.
function waves(list) {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  let n = 0;
  let until = -Infinity;
  for (const r of sorted) {
    if (r.start > until) n += 1;
    until = Math.max(until, r.end);
  }
  return n;
}
function mostInFlight(list) {
  const edges = list.flatMap((r) => [[r.start, 1], [r.end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0, most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d));
  return most;
}

// Load more until 500 posts show (each press puts 20 more on screen).
const loadStart = Date.now();
const feed = page.locator('main [role=feed] article.post');
for (let i = 0; i < 200 && (await feed.count()) < 500; i++) {
  const more = page.getByRole('button', { name: 'Load more' });
  if (!(await more.isVisible())) break;
  await more.click();
  await page.waitForFunction(() => !document.querySelector('main [aria-busy=true]'), null, { timeout: 30_000 });
}
const shown = await feed.count();
const loadMs = Date.now() - loadStart;

const cdp = await context.newCDPSession(page);
await cdp.send('HeapProfiler.collectGarbage');
const heap = await cdp.send('Runtime.getHeapUsage');
await cdp.send('Performance.enable');
const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const wasmBytes = await page.evaluate(() => window.__wasm?.memory?.buffer?.byteLength ?? 0);
const version = browser.version();
await browser.close();

if (process.env.TRACE) {
  const t0 = Math.min(...apiBefore.map((r) => r.start));
  for (const r of [...apiBefore].sort((a, b) => a.start - b.start)) {
    console.log(`${(r.start - t0).toFixed(1).padStart(7)} ${(r.end - t0).toFixed(1).padStart(7)} ${new URL(r.url).pathname}`);
  }
}
const mb = (n) => (n / 1024 / 1024).toFixed(1);
const row = (label, value, note = '') => console.log(`${label.padEnd(40)} ${String(value).padEnd(12)} ${note}`);
console.log(`\nHome timeline, ${users.length} followed users × ${POSTS_EACH} posts, Chromium ${version}`);
const spread = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms`.padEnd(12) + ` (median of ${list.length}; ${sorted[0].toFixed(0)}–${sorted[sorted.length - 1].toFixed(0)} ms)`;
};
row('time to first post on screen', `${firstPost.toFixed(0)} ms`, '(from navigation, page and app load included)');
console.log(`${'first post, cold (no local copy)'.padEnd(40)} ${spread(cold)}`);
console.log(`${'first post, reopened from the copy'.padEnd(40)} ${spread(reopened)}`);
row('requests before first post', before.length, `(${apiBefore.length} to the API)`);
console.log(`${`first post of a list of ${LIST_MEMBERS}, cold`.padEnd(40)} ${spread(listRuns)}`);
row('  its API requests before first post', listBefore.length, `(waves: ${waves(listBefore)})`);
row('waves before first post', waves(apiBefore), '(target 2: following list, then all first pages)');
row('API requests in flight at once, at most', mostInFlight(apiBefore), '(Perch hands the browser at most 64; it runs 6 per host itself)');
row('posts shown after Load more', shown, `(${(loadMs / 1000).toFixed(1)} s, ${requests.length} requests in all)`);
row('JS heap used after 500 posts', `${mb(heap.usedSize)} MB`, '(target under 50 MB)');
row('WebAssembly memory', `${mb(wasmBytes)} MB`);
row('DOM nodes', metrics.Nodes ?? '?');
