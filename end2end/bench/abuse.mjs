// Benchmark, not a test: issue 23's attacks on perch-server, then a mixed
// load, against a running server (scripts/bench-abuse.sh starts the release
// one with demo data). Each attack is bounded in count and time. Prints, per
// attack, the answers by status (5xx must be 0) and the server's resident
// memory after it, then the mixed load's requests per second, p50 and p99
// latency and 5xx count, then the server's peak resident memory.
// Usage: node bench/abuse.mjs BASE SERVER_PID TOKEN_MIRA TOKEN_SAM [SECONDS]
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { createHash, randomBytes } from 'node:crypto';

const [base, pid, mira, sam, seconds = '60'] = process.argv.slice(2);
const api = `${base}/api/v1`;
const rssMb = (field = 'VmRSS') => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};
const statuses = () => ({ counts: {}, add(s) { this.counts[s] = (this.counts[s] ?? 0) + 1; } });
// "error": no answer at all (say, a connection reset while a refused
// upload was still being sent); counted apart from 5xx.
const fivexx = (c) => Object.entries(c).filter(([s]) => Number(s) >= 500).reduce((n, [, v]) => n + v, 0);
function report(name, c) {
  console.log(`${name.padEnd(44)} ${JSON.stringify(c).padEnd(34)} 5xx ${String(fivexx(c)).padEnd(4)} RSS ${rssMb()} MB`);
}

async function call(method, path, token, body, extra = {}) {
  try {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      ...extra,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  } catch {
    return { status: 'error', json: null };
  }
}

/** Runs `count` jobs, `width` at a time. */
async function pool(count, width, job) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await job(next++);
  }));
}

const me = (await call('GET', '/user', mira)).json;
const samUser = (await call('GET', '/user', sam)).json;
const config = await (await fetch(`${base}/config.json`)).json();
console.log(`server ${base}, pid ${pid}, RSS at start ${rssMb()} MB\n`);
console.log(`${'attack'.padEnd(44)} ${'answers by status'.padEnd(34)} 5xx  memory after`);

// 0. A wrong password for a real username and for an unknown one, one at a
// time, alternating, each from its own forwarded-for-less client: the two
// medians must match within noise, or the time tells which names exist.
// 8 of each, under the limit of 10 failures per address and name.
{
  const verifier = randomBytes(32).toString('base64url');
  const query = {
    application_id: config.application_id ?? config.applicationId ?? '', redirect_uri: `${base}/oauth/callback`,
    scopes: 'user.get', state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  const times = { real: [], unknown: [] };
  for (let i = 0; i < 16; i++) {
    const which = i % 2 ? 'unknown' : 'real';
    const username = which === 'real' ? 'mira' : 'nobody_by_this_name';
    const form = new URLSearchParams({ ...query, username, password: `wrong-${i}`, scope: 'user.get', action: 'allow' });
    const start = performance.now();
    const res = await fetch(`${base}/oauth/authorise`, { method: 'POST', body: form, redirect: 'manual' });
    await res.arrayBuffer();
    times[which].push(performance.now() - start);
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
  const span = (xs) => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;
  console.log(`wrong password, 8 each: real username median ${med(times.real)} ms (${span(times.real)}), ` +
    `unknown username median ${med(times.unknown)} ms (${span(times.unknown)})\n`);
}

// 1. Sign-in with unique 1 MB usernames.
{
  const c = statuses();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = {
    application_id: config.application_id ?? config.applicationId ?? '', redirect_uri: `${base}/oauth/callback`,
    scopes: 'user.get', state: 's', code_challenge: challenge, code_challenge_method: 'S256',
  };
  await pool(300, 8, async (i) => {
    const form = new URLSearchParams({ ...query, username: `${i}`.padEnd(1024 * 1024, 'x'), password: 'x', scope: 'user.get', action: 'allow' });
    try {
      const res = await fetch(`${base}/oauth/authorise`, { method: 'POST', body: form, redirect: 'manual' });
      await res.arrayBuffer();
      c.add(res.status);
    } catch { c.add('error'); }
  });
  report('300 sign-ins with unique 1 MB usernames', c.counts);
}

// 2. Replies while the parent is edited.
{
  const c = statuses();
  const post = (await call('POST', '/post', mira, { content: 'a post answered while edited' })).json.uuid;
  await pool(200, 32, async (i) => {
    const r = i % 2 ? await call('POST', '/post', sam, { content: `reply ${i}`, parent: post })
      : await call('PATCH', `/post/${post}`, mira, { content: `edit ${i}` });
    c.add(r.status);
  });
  report('200 edits and replies, 32 at a time', c.counts);
}

// 3. One page read with 3,000 different query strings.
{
  const c = statuses();
  await pool(3000, 16, async (i) => c.add((await call('GET', `/user/${me.uuid}/posts/1?n=${i}`, mira)).status));
  report('3,000 reads with different query strings', c.counts);
}

// 4. An edit racing a delete of the same post.
{
  const c = statuses();
  for (let i = 0; i < 50; i++) {
    const post = (await call('POST', '/post', mira, { content: `race ${i}` })).json.uuid;
    const [edit, del] = await Promise.all([
      call('PATCH', `/post/${post}`, mira, { content: 'too late?' }), call('DELETE', `/post/${post}`, mira)]);
    c.add(edit.status); c.add(del.status);
  }
  report('50 edits racing a delete', c.counts);
}

// 5. Odd content and pages.
{
  const c = statuses();
  for (const content of ['\u200B\uFEFF', 'a\u0000b']) c.add((await call('POST', '/post', mira, { content })).status);
  for (const page of ['+5', '%205']) c.add((await call('GET', `/user/${me.uuid}/posts/${page}`, mira)).status);
  report('invisible-only, NUL, "+5" and " 5" pages', c.counts);
}

// 6. 500 connections trickling header bytes, then idle.
{
  const { hostname, port } = new URL(base);
  const sockets = [];
  for (let i = 0; i < 500; i++) {
    const s = net.connect(Number(port), hostname);
    s.on('error', () => {});
    s.once('connect', () => s.write('GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n'));
    sockets.push(s);
  }
  const trickle = setInterval(() => sockets.forEach((s) => !s.destroyed && s.write('X-A: b\r\n', () => {})), 1000);
  await new Promise((r) => setTimeout(r, 15_000));
  clearInterval(trickle);
  const open = sockets.filter((s) => !s.destroyed && !s.readableEnded).length;
  sockets.forEach((s) => s.destroy());
  report('500 connections trickling headers for 15 s', { 'still open': open });
}

// 7. Mixed load: 16 clients for SECONDS.
{
  const c = statuses();
  const latencies = [];
  const tokens = [mira, sam];
  const posts = (await call('GET', `/user/${samUser.uuid}/posts/1`, mira)).json.posts.map((p) => p.uuid);
  const end = Date.now() + Number(seconds) * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: 16 }, async (_, k) => {
    const token = tokens[k % 2];
    while (Date.now() < end) {
      const roll = Math.random();
      const post = posts[n++ % posts.length];
      const start = performance.now();
      const r = roll < 0.3 ? await call('GET', `/post/${post}`, token)
        : roll < 0.55 ? await call('GET', `/post/${post}/replies/1`, token)
        : roll < 0.8 ? await call('GET', `/user/${samUser.uuid}/posts/1`, token)
        : roll < 0.9 ? await call('POST', '/post', token, { content: `load ${n}` })
        : roll < 0.97 ? await call('POST', `/post/${post}/like`, token)
        : await call('POST', `/user/${k % 2 ? me.uuid : samUser.uuid}/follow`, token);
      latencies.push(performance.now() - start);
      c.add(r.status);
    }
  }));
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  console.log(`\nmixed load, 16 clients, ${seconds} s: ${(latencies.length / Number(seconds)).toFixed(0)} requests/s, ` +
    `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, 5xx ${fivexx(c.counts)}, answers ${JSON.stringify(c.counts)}`);
}
console.log(`peak RSS ${rssMb('VmHWM')} MB`);
