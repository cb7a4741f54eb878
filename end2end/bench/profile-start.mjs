// Benchmark aid, not a test: a CPU profile of a page's start at 4x CPU,
// signed in, reopened with the local copy (or without waiting for it with
// COLD=1). Prints the Long Tasks API's tasks, then for each stretch of the
// profile over 50 ms without idle samples (tasks run back to back count as
// one) the functions matching MATCH (default: the app's own, Intl, GC,
// style and layout) by time including callees, then the longest
// stretch's functions by self time and by time including callees (ALL=1:
// the whole profile). Best on a build that keeps names:
// PERCH_WASM_OPT=0 PERCH_FEATURES=marks trunk build --release --dist DIR.
// Usage: node bench/profile-start.mjs BASE TOKEN [PATH] [TOP]
// (docs/performance.md, "Issue 37").
import { launchChromium, profileTree, recordLongTasks, shortName, signedInPage, slowTab } from './shared.mjs';

const [base, token, path = '/', top = '40'] = process.argv.slice(2);
const browser = await launchChromium();
const { context, page } = await signedInPage(browser, base, token);
if (!process.env.COLD) await page.waitForTimeout(1500);
await page.close();
const { tab, cdp } = await slowTab(context);
await recordLongTasks(tab);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await tab.goto(`${base}${path}`);
await tab.locator(path === '/signin' ? 'form' : 'article.post').first().waitFor({ timeout: 60_000 });
await tab.waitForTimeout(2500);
const { profile } = await cdp.send('Profiler.stop');
const tasks = await tab.evaluate(() => window.__tasks);
await browser.close();

console.log('long tasks (start, ms):', tasks.map(([s, d]) => `${s.toFixed(0)}:${d.toFixed(0)}`).join(' '));
// The longest run of samples that are not idle is the longest task.
const { nodes, parent, nameOf } = profileTree(profile);
const name = (n) => nameOf(n.id);
const idle = (i) => ['(idle)', '(program)'].includes(nodes.get(profile.samples[i]).callFrame.functionName);
const dts = profile.samples.map((_, i) => (profile.timeDeltas[i + 1] ?? 0) / 1000);
const runs = [];
for (let i = 0; i < profile.samples.length;) {
  if (idle(i)) { i++; continue; }
  let j = i, sum = 0, gap = 0;
  while (j < profile.samples.length && (!idle(j) || gap < 1)) { if (idle(j)) gap += dts[j]; else gap = 0; sum += dts[j]; j++; }
  runs.push([i, j, sum]);
  i = j;
}
const best = runs.reduce((a, b) => (b[2] > a[2] ? b : a), [0, 0, 0]);
// Each task over 50 ms: what of the app's own code it ran most (time including callees).
const short = (n) => shortName(n, 110);
for (const [i, j, sum] of runs.filter((r) => r[2] > 50)) {
  const inTask = new Map();
  for (let k = i; k < j; k++) {
    let id = profile.samples[k];
    const seen = new Set();
    while (id) {
      const nm = name(nodes.get(id));
      if (!seen.has(nm) && /perch(?!_bg)|5perch|Intl|compile|instantiate|\(garbage|\(program|Parse|Layout|Style/.test(nm)) { inTask.set(nm, (inTask.get(nm) ?? 0) + dts[k]); }
      seen.add(nm);
      id = parent.get(id);
    }
  }
  console.log(`\ntask of ${sum.toFixed(0)} ms:`);
  [...inTask.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14).forEach(([k, v]) => console.log(`${v.toFixed(1).padStart(8)}  ${short(k)}`));
}
const self = new Map();
const total = new Map();
let counted = 0;
const [from, to] = process.env.ALL === '1' ? [0, profile.samples.length] : best;
for (let i = from; i < to; i++) {
  const dt = dts[i];
  counted += dt;
  let id = profile.samples[i];
  const n0 = nodes.get(id);
  self.set(name(n0), (self.get(name(n0)) ?? 0) + dt);
  const seen = new Set();
  while (id) {
    const nm = name(nodes.get(id));
    if (!seen.has(nm)) { total.set(nm, (total.get(nm) ?? 0) + dt); seen.add(nm); }
    id = parent.get(id);
  }
}
console.log(`longest task in the profile: ${counted.toFixed(0)} ms sampled`);
const show = (m, title) => {
  console.log(`\n${title}`);
  [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top)).forEach(([k, v]) => console.log(`${v.toFixed(1).padStart(8)}  ${k}`));
};
show(self, 'self ms');
show(total, 'total ms');
