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
import { launchChromium, median } from './shared.mjs';

const [bases, users, runs = '5'] = process.argv.slice(2);
const targets = bases.split(',').map((base, i) => ({ base, users: users.split(';')[i].split(','), rows: [] }));
const browser = await launchChromium();

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
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
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
  await context.close();
  const at = (t) => Math.round(t * 1000 + clock - allow);
  const events = [
    ...steps.map((s) => ({ at: Math.round(s.at - allow), what: `${s.name} ${s.path}` })),
    ...[...requests.values()].map((r) => {
      const u = new URL(r.url);
      const name = `${r.method} ${u.pathname.replace(/-[0-9a-f]{16}/g, '-…').replace(/[0-9a-f-]{36}/g, '{uuid}')}${u.search && !u.pathname.startsWith('/api/') ? '?…' : ''}`;
      return { at: at(r.start), end: r.end ? at(r.end) : NaN, what: `${name} ${r.status ?? ''} ${r.from}${r.bytes ? ` ${r.bytes} B` : ''}` };
    }),
  ].sort((a, b) => a.at - b.at);
  const total = steps.find((s) => s.name === 'first post').at - allow;
  return { total, events, network: [...requests.values()].filter((r) => r.from === 'network').reduce((n, r) => n + (r.bytes ?? 0), 0) };
}

for (let run = 0; run < Number(runs); run++) for (const target of targets) {
  const row = await once(target.base, target.users[run]);
  target.rows.push(row);
  console.log(`${target.base} run ${run + 1}: Allow to the first post ${row.total.toFixed(0)} ms, ${(row.network / 1000).toFixed(1)} kB from the network`);
  if (run === 0) for (const e of row.events) console.log(`  ${String(e.at).padStart(5)}${Number.isNaN(e.end ?? NaN) ? '      ' : ` ${String(e.end).padStart(5)}`}  ${e.what}`);
}
await browser.close();

const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`\n${runs} runs each, slow phone network, 4x CPU, ms from Allow, median (min–max):`);
for (const { base, rows } of targets) {
  console.log(`${base}: first post ${spread(rows.map((r) => r.total))}; from the network ${spread(rows.map((r) => r.network / 1000))} kB`);
}
