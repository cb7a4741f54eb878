// Benchmark, not a test: an outbox of N (200) waiting posts, drawn and then
// sent, in real Chromium with the CPU slowed down 4x, against a running
// server. The outbox is written into IndexedDB as the app keeps it
// (src/store/outbox.rs), then Home is opened offline (drawn), then the
// network comes back (sent). Prints each run, then the median and spread
// (min-max) of:
//   draw longest ms   the longest task from navigation until the cards are drawn
//   send longest ms   the longest task while the outbox is sent
//   send s            until the outbox is empty
//   over 50           how many tasks were over 50 ms, drawing and sending
// Usage: node bench/outbox.mjs BASE TOKEN [N] [RUNS]
// Run by scripts/bench-outbox.sh (make bench-outbox), which starts the server.
import { launchChromium, median, recordLongTasks, signedInPage } from './shared.mjs';

const [base, token, n = '200', runs = '3'] = process.argv.slice(2);
const browser = await launchChromium();

async function once(run) {
  const { context, page } = await signedInPage(browser, base, token);
  const me = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')).user.uuid);
  // N posts waiting, as the app keeps them: [version, account, actions].
  await page.evaluate(([me, n, run]) => new Promise((done) => {
    const now = Date.now();
    const actions = Array.from({ length: n }, (_, i) => {
      const key = crypto.randomUUID();
      return [key, [0, 'waiting-' + key, `waiting post ${run}.${i}: a few words, as people write them`, false, false, null, ''], now, null, 0, 0, null];
    });
    localStorage.setItem('perch.outbox.' + me, `${n} ${now}`);
    const open = indexedDB.open('perch', 2);
    open.onupgradeneeded = () => {
      for (const s of ['copies', 'outbox']) if (!open.result.objectStoreNames.contains(s)) open.result.createObjectStore(s);
    };
    open.onsuccess = () => {
      const t = open.result.transaction('outbox', 'readwrite');
      t.objectStore('outbox').put(JSON.stringify([1, me, actions]), me);
      t.oncomplete = () => { open.result.close(); done(null); };
    };
  }), [me, Number(n), run]);
  await page.close();
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await recordLongTasks(tab);
  // Drawn offline: nothing is sent yet.
  await context.route('**/api/v1/**', (route) => route.abort('internetdisconnected'));
  await tab.goto(`${base}/`);
  // Home draws the first 20 and links to the rest (components/waiting.rs).
  await (Number(n) > 20 ? tab.locator('.more-waiting') : tab.locator('article.post.waiting').nth(Number(n) - 1)).waitFor({ timeout: 120_000 });
  const drawn = await tab.evaluate(() => performance.now());
  await context.unroute('**/api/v1/**');
  const start = Date.now();
  await tab.evaluate(() => window.dispatchEvent(new Event('online')));
  await tab.locator('article.post.waiting').first().waitFor({ state: 'detached', timeout: 600_000 });
  const sendS = (Date.now() - start) / 1000;
  const tasks = await tab.evaluate(() => window.__tasks);
  await context.close();
  const drawing = tasks.filter(([s]) => s <= drawn), sending = tasks.filter(([s]) => s > drawn);
  return {
    draw: Math.max(0, ...drawing.map(([, d]) => d)),
    send: Math.max(0, ...sending.map(([, d]) => d)),
    sendS,
    over: tasks.length,
  };
}

const rows = [];
for (let run = 0; run < Number(runs); run++) {
  const row = await once(run);
  rows.push(row);
  console.log(`run ${run + 1}: draw longest ${row.draw.toFixed(0)} ms, send longest ${row.send.toFixed(0)} ms, sent in ${row.sendS.toFixed(1)} s, ${row.over} tasks over 50 ms`);
}
const show = (k, digits = 0) => {
  const xs = rows.map((r) => r[k]);
  return `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
};
console.log(`\n${n} waiting posts, 4x CPU, median (min-max) of ${runs} runs:`);
console.log(`  draw longest ms  ${show('draw')}`);
console.log(`  send longest ms  ${show('send')}`);
console.log(`  send s           ${show('sendS', 1)}`);
console.log(`  over 50          ${show('over')}`);
await browser.close();
