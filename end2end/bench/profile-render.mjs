// Benchmark aid, not a test: Home drawn again from the store at 4x CPU, as
// bench/render.mjs does it (to a profile and back, 12 times). Prints the
// browser's own counters per return (script, style, layout, all tasks),
// then from a CPU profile of the returns the functions by self time and
// by time including callees, per card drawn (20 a return); NO_PROFILE=1
// prints the counters alone. Best on a build that keeps names:
// PERCH_WASM_OPT=0 trunk build --release --dist DIR.
// Usage: node bench/profile-render.mjs BASE TOKEN [TOP] (MATCH=regex to
// choose the functions timed with their callees; default the app's and
// Leptos' own, the browser's work and GC) (docs/performance.md, "Issue 37").
import { backHome, launchChromium, profileTree, shortName, signedInPage, toProfile } from './shared.mjs';

const [base, token, top = '50'] = process.argv.slice(2);
const returns = 12;
const browser = await launchChromium();
const { context, page } = await signedInPage(browser, base, token);
await page.locator('article.post').nth(19).waitFor();
const cdp = await context.newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Performance.enable');
const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const spent = { ScriptDuration: 0, RecalcStyleDuration: 0, LayoutDuration: 0, TaskDuration: 0 };
const profiling = !process.env.NO_PROFILE;
let profiled = 0;
const totals = new Map();
const selfs = new Map();
const match = new RegExp(process.env.MATCH ?? 'perch|leptos|tachys|reactive_graph|garbage|program|Layout|Style|Parse');
for (let i = 0; i < returns; i++) {
  await toProfile(page);
  if (profiling) await cdp.send('Profiler.start');
  const before = await metrics();
  const { all } = await backHome(page);
  const after = await metrics();
  for (const k of Object.keys(spent)) spent[k] += (after[k] - before[k]) * 1000;
  profiled += all;
  if (!profiling) continue;
  const { profile } = await cdp.send('Profiler.stop');
  const { parent, nameOf } = profileTree(profile);
  profile.samples.forEach((id, k) => {
    const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000;
    const own = nameOf(id);
    selfs.set(own, (selfs.get(own) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at; at = parent.get(at)) {
      const nm = nameOf(at);
      if (!seen.has(nm) && match.test(nm)) totals.set(nm, (totals.get(nm) ?? 0) + dt);
      seen.add(nm);
    }
  });
}
await browser.close();
const cards = returns * 20;
console.log(`per return, ms: ${Object.entries(spent).map(([k, v]) => `${k.replace('Duration', '')} ${(v / returns).toFixed(0)}`).join(', ')}`);
console.log(`${returns} returns, ${(profiled / returns).toFixed(0)} ms each (click to 20 cards painted)`);
if (!profiling) process.exit(0);
console.log(`ms per card (of ${cards}), self time (any function):`);
[...selfs.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top))
  .forEach(([k, v]) => console.log(`${(v / cards).toFixed(2).padStart(7)}  ${shortName(k)}`));
console.log(`\nms per card, time including callees (${match}):`);
[...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top))
  .forEach(([k, v]) => console.log(`${(v / cards).toFixed(2).padStart(7)}  ${shortName(k)}`));
