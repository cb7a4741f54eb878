// Benchmark, not a test (issue 68, point 4): a newcomer's first Home, from
// Allow on the server's consent page to the first post in Home's feed, on
// Lighthouse's slow phone network (150 ms round trips, 1.6 Mbit/s down,
// 750 kbit/s up) with the CPU slowed down 4x, at a phone's width.
// Each run is a new browser profile: the sign-in page is opened (fast, as
// the visit before), the service worker keeps the app's files while the
// person types (it is waited for), then the network and CPU are slowed,
// Sign in is pressed, the consent form filled, and Allow pressed.
// Prints each run's total and, for the first run and as medians, where the
// time went: every request from Allow on (its start and end, from Allow,
// where the answer came from) and the page's steps (a document's start, the
// app's first drawing, the first post).
// Usage: node bench/newcomer.mjs BASE USERS [RUNS]: USERS is a comma list
// of accounts with the password perch-demo, one per run, each following
// people with posts. BASE1,BASE2 with USERS1;USERS2 alternates builds.
// THROTTLE=proxy: the slow network is a proxy in front of each server
// (every request pays 150 ms and 1.6 Mbit/s, a dedicated worker's and the
// service worker's too, which DevTools' throttling does not reach); the
// browser opens the proxy's address (PORT+10 of the server), which the
// server must accept as a callback (--public-url).
// REPEAT=1: then the same person opens Perch again in that tab (the worker
// holding the app, Home in the local copy), slowed the same way: ms from
// the navigation to Home's first post, and where that time went.
import http from 'node:http';
import { launchChromium, median } from './shared.mjs';

const [bases, users, runs = '5'] = process.argv.slice(2);
const byProxy = process.env.THROTTLE === 'proxy';
const targets = bases.split(',').map((base, i) => ({ base, users: users.split(';')[i].split(','), rows: [] }));
const browser = await launchChromium();
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A proxy to `base` on its port + 10; slow once `slow.on` is set. */
function slowProxy(base, slow) {
  const upstream = new URL(base);
  const port = Number(upstream.port) + 10;
  const agent = new http.Agent({ keepAlive: true });
  http.createServer((req, res) => {
    const start = Date.now();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      if (slow.on) await sleep((body.length * 8) / 750); // 750 kbit/s up
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, async (answer) => {
        const got = [];
        for await (const c of answer) got.push(c);
        const data = Buffer.concat(got);
        if (slow.on) await sleep(Math.max(0, start + 150 - Date.now()));
        res.writeHead(answer.statusCode, answer.headers);
        for (let at = 0; at < data.length; at += 16_000) {
          if (slow.on) await sleep((Math.min(16_000, data.length - at) * 8) / 1600); // 1.6 Mbit/s down
          res.write(data.subarray(at, at + 16_000));
        }
        res.end();
      });
      out.on('error', () => { res.writeHead(502); res.end(); });
      out.end(body);
    });
  }).listen(port, '127.0.0.1');
  return `${upstream.protocol}//${upstream.hostname}:${port}`;
}
const slow = { on: false };
if (byProxy) for (const target of targets) target.base = slowProxy(target.base, slow);

/** One newcomer's path; its events, in ms from Allow. */
async function once(base, username) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const tab = await context.newPage();
  const steps = [];
  await tab.exposeBinding('__step', ({ frame }, name, at) => steps.push({ name, at, path: new URL(frame.url()).pathname }));
  await tab.addInitScript(() => {
    const w = /** @type {any} */ (window);
    const step = (name) => w.__step(name, performance.timeOrigin + performance.now());
    step('document');
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__step(`task of ${Math.round(e.duration)} ms`, performance.timeOrigin + e.startTime);
    }).observe({ type: 'longtask', buffered: true });
    const seen = new Set();
    new MutationObserver(() => {
      if (!seen.has('app') && document.body && !document.getElementById('boot') && document.querySelector('header')) { seen.add('app'); step('app drawn'); }
      if (!seen.has('post') && document.querySelector('main [role=feed] > article.post')) { seen.add('post'); step('first post'); }
    }).observe(document, { childList: true, subtree: true });
  });
  await tab.goto(`${base}/signin`);
  await tab.evaluate(() => navigator.serviceWorker.ready);
  // The worker keeps every file of the version on install; it is active then.
  await tab.waitForFunction(() => navigator.serviceWorker.controller || navigator.serviceWorker.ready.then((r) => !!r.active));
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  if (byProxy) slow.on = true;
  else await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
  await tab.getByRole('heading', { level: 1, name: 'Sign in to Perch' }).waitFor({ timeout: 60_000 }).catch(async (e) => {
    await tab.screenshot({ path: 'newcomer-failed.png' });
    throw new Error(`no consent page at ${tab.url()} (newcomer-failed.png): ${e.message}`);
  });
  await tab.getByLabel('Username', { exact: true }).fill(username);
  await tab.getByLabel('Password', { exact: true }).fill('perch-demo');
  const requests = new Map();
  let clock = null; // CDP's monotonic seconds to epoch ms
  cdp.on('Network.requestWillBeSent', (e) => {
    clock ??= e.wallTime * 1000 - e.timestamp * 1000;
    requests.set(e.requestId, { method: e.request.method, url: e.request.url, start: e.timestamp, from: 'network' });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r && e.response.fromServiceWorker) r.from = 'worker';
    else if (r && (e.response.fromDiskCache || e.response.fromPrefetchCache)) r.from = 'cache';
    if (r) r.status = e.response.status;
  });
  cdp.on('Network.loadingFinished', (e) => { const r = requests.get(e.requestId); if (r) { r.end = e.timestamp; r.bytes = e.encodedDataLength; } });
  steps.length = 0;
  const allow = Date.now();
  await tab.getByRole('button', { name: 'Sign in and allow' }).click();
  await tab.locator('main [role=feed] > article.post').first().waitFor({ timeout: 60_000 });
  await tab.waitForTimeout(500);
  // The page's own marks (a build with PERCH_FEATURES=marks has perch:* marks).
  for (const m of await tab.evaluate(() => performance.getEntriesByType('mark').map((e) => [e.name, performance.timeOrigin + e.startTime]))) {
    steps.push({ name: `mark ${m[0]}`, at: m[1], path: '' });
  }
  const first = timeline(steps, requests, clock, allow);
  let repeat = null;
  if (process.env.REPEAT) {
    // Home's copy is written after its first draw; then a new start.
    await tab.waitForTimeout(2_000);
    steps.length = 0;
    requests.clear();
    const opened = Date.now();
    await tab.goto(`${base}/`, { waitUntil: 'commit' });
    await tab.locator('main [role=feed] > article.post').first().waitFor({ timeout: 60_000 });
    await tab.waitForTimeout(500);
    repeat = timeline(steps, requests, clock, opened);
  }
  await context.close();
  slow.on = false;
  return { ...first, repeat };
}

/** What happened from `t0` (epoch ms): the page's steps and each request. */
function timeline(steps, requests, clock, t0) {
  const at = (t) => Math.round(t * 1000 + clock - t0);
  const events = [
    ...steps.map((s) => ({ at: Math.round(s.at - t0), what: `${s.name} ${s.path}` })),
    ...[...requests.values()].map((r) => {
      const u = new URL(r.url);
      const name = `${r.method} ${u.pathname.replace(/-[0-9a-f]{16}/g, '-…').replace(/[0-9a-f-]{36}/g, '{uuid}')}${u.search && !u.pathname.startsWith('/api/') ? '?…' : ''}`;
      return { at: at(r.start), end: r.end ? at(r.end) : NaN, what: `${name} ${r.status ?? ''} ${r.from}${r.bytes ? ` ${r.bytes} B` : ''}` };
    }),
  ].sort((a, b) => a.at - b.at);
  const total = steps.findLast((s) => s.name === 'first post').at - t0;
  return { total, events, network: [...requests.values()].filter((r) => r.from === 'network').reduce((n, r) => n + (r.bytes ?? 0), 0) };
}

for (let run = 0; run < Number(runs); run++) for (const target of targets) {
  const row = await once(target.base, target.users[run]);
  target.rows.push(row);
  console.log(`${target.base} run ${run + 1}: Allow to the first post ${row.total.toFixed(0)} ms, ${(row.network / 1000).toFixed(1)} kB from the network`);
  const show = (events) => { for (const e of events) console.log(`  ${String(e.at).padStart(5)}${Number.isNaN(e.end ?? NaN) ? '      ' : ` ${String(e.end).padStart(5)}`}  ${e.what}`); };
  if (run === 0) show(row.events);
  if (row.repeat) {
    console.log(`${target.base} run ${run + 1}: opened again, to the first post ${row.repeat.total.toFixed(0)} ms, ${(row.repeat.network / 1000).toFixed(1)} kB from the network`);
    if (run === 0) show(row.repeat.events);
  }
}
await browser.close();

const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`\n${runs} runs each, slow phone network, 4x CPU, ms from Allow, median (min–max):`);
for (const { base, rows } of targets) {
  console.log(`${base}: first post ${spread(rows.map((r) => r.total))}; from the network ${spread(rows.map((r) => r.network / 1000))} kB`);
  if (rows[0].repeat) console.log(`${base}: opened again, ms from the navigation: first post ${spread(rows.map((r) => r.repeat.total))}; from the network ${spread(rows.map((r) => r.repeat.network / 1000))} kB`);
}
process.exit(0); // the proxies, if any, would keep it running
