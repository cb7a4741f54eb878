// Benchmark, not a test: what one activity check costs (src/store/activity/),
// in real Chromium against the release server, with the check interval
// shortened to INTERVAL seconds through config.json. Prints each run, then
// the median and spread (min-max) of:
//   unchanged         requests and bytes of a periodic check when nothing changed
//   5 of 60 replied   requests and bytes of a full check (Check now) after 5
//                     of the account's 60 posts got a reply each
//   reply to count    ms from a reply sent to the server until the header's
//                     count shows it (periodic checks only)
// Bytes: request and response headers and bodies as sent (Playwright's
// request.sizes()), compressed bodies as they travelled.
// NO_ETAG=1 measures the same without conditional reads, for comparison.
// Usage: node bench/activity.mjs BASE TOKEN REPLIER_TOKEN [RUNS] [INTERVAL]
// Run by scripts/bench-activity.sh (make bench-activity), which makes the
// account, its 60 posts and the server.
import { launchChromium, median, signIn } from './shared.mjs';

const [base, token, replier, runs = '5', interval = '10'] = process.argv.slice(2);
const browser = await launchChromium();

async function call(tok, method, path, body) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${tok}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const me = await call(token, 'GET', '/user');
const posts = [];
for (let page = 1; page <= 4; page++) posts.push(...(await call(token, 'GET', `/user/${me.uuid}/posts/${page}`)).posts);
if (posts.length < 60) throw new Error(`the account has ${posts.length} posts, not 60`);

const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
await context.route('**/config.json', async (route) => {
  const response = await route.fetch();
  await route.fulfill({ response, json: { ...(await response.json()), activity_check_seconds: Number(interval) } });
});
// NO_ETAG=1: as against a server without ETags (the tag is not sent back).
if (process.env.NO_ETAG === '1') {
  await context.route('**/api/v1/**', (route) => {
    const headers = { ...route.request().headers() };
    delete headers['if-none-match'];
    return route.continue({ headers });
  });
}
const page = await context.newPage();
/** The API exchanges of `page` from now on: [path, status, bytes]. */
let exchanges = [];
page.on('requestfinished', async (request) => {
  if (!request.url().includes('/api/v1/')) return;
  const sizes = await request.sizes();
  const response = await request.response();
  const bytes = sizes.requestHeadersSize + sizes.requestBodySize + sizes.responseHeadersSize + sizes.responseBodySize;
  exchanges.push([new URL(request.url()).pathname, response?.status() ?? 0, bytes]);
});
await signIn(page, base, token);
const kept = () => page.evaluate((u) => JSON.parse(localStorage.getItem(`perch.activity.${u}`) ?? 'null'), me.uuid);
const nextCheck = async (after) => {
  for (;;) {
    const k = await kept();
    if (k && k.read_ms > after) return k;
    await page.waitForTimeout(50);
  }
};
let k = await nextCheck(0);

const unchanged = [];
const replied = [];
const toCount = [];
for (let run = 1; run <= Number(runs); run++) {
  // A periodic check with nothing new.
  exchanges = [];
  k = await nextCheck(k.read_ms);
  await page.waitForTimeout(200);
  const quiet = exchanges.filter(([path]) => !path.endsWith('/user'));
  unchanged.push([quiet.length, quiet.reduce((s, [, , b]) => s + b, 0)]);

  // 5 of the 60 posts get a reply; Check now reads them all.
  const picks = [3, 17, 29, 41, 55].map((i) => posts[(i + run) % 60]);
  for (const p of picks) await call(replier, 'POST', '/post', { content: `bench reply ${run}`, parent: p.uuid });
  await page.goto(`${base}/activity`);
  await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
  await page.waitForTimeout(200);
  exchanges = [];
  const before = (await kept()).read_ms;
  await page.getByRole('button', { name: 'Check now' }).click();
  k = await nextCheck(before);
  await page.waitForTimeout(200);
  const full = exchanges.filter(([path]) => !path.endsWith('/user'));
  replied.push([full.length, full.reduce((s, [, , b]) => s + b, 0)]);

  // A reply to the newest post, until the header counts it (on Home).
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
  const sent = Date.now();
  await call(replier, 'POST', '/post', { content: `counted ${run}`, parent: posts[0].uuid });
  await page.locator('.activity-link .unread-count').waitFor({ timeout: Number(interval) * 3000 });
  toCount.push(Date.now() - sent);
  k = await kept();
  console.log(`run ${run}: unchanged ${unchanged.at(-1).join(' requests, ')} bytes; 5 of 60 replied ${replied.at(-1).join(' requests, ')} bytes; reply to count ${toCount.at(-1)} ms`);
}

const spread = (xs) => `${median(xs)} (${Math.min(...xs)}-${Math.max(...xs)})`;
console.log(`\ninterval ${interval} s, ${runs} runs: median (min-max)`);
console.log(`unchanged check        requests ${spread(unchanged.map((x) => x[0]))}, bytes ${spread(unchanged.map((x) => x[1]))}   target: <= 2 requests, <= 2048 bytes`);
console.log(`5 of 60 posts replied  requests ${spread(replied.map((x) => x[0]))}, bytes ${spread(replied.map((x) => x[1]))}`);
console.log(`reply to count         ms ${spread(toCount)}   target: within one interval (${Number(interval) * 1000} ms)`);
await browser.close();
