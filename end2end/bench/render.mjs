// Benchmark, not a test: how long the home timeline takes to draw from the
// store, in real Chromium with the CPU slowed down 4x. Signed in, the page
// loads once; then it goes to a profile and back to Home by clicking the
// header's links, and each return to Home is timed from the click to its
// first screen (4 posts) in the document, and to the frame after its first
// 20 posts are (all from the store: no request is on that path). Prints
// each run's medians of 12 returns, then the median and spread (min-max)
// over runs, and in a build with marks (PERCH_FEATURES=marks) the cost of a
// card as the page measures its steps (browser/pace.rs).
// Usage: node bench/render.mjs BASE1[,BASE2] TOKEN1[,TOKEN2] [RUNS]
// (several servers: runs alternate between them). Run by
// scripts/bench-render.sh (make bench-render), which starts the server.
import { backHome, launchChromium, median, signedInPage, targetsOf, toProfile } from './shared.mjs';

const [bases, tokens, runs = '5'] = process.argv.slice(2);
const targets = targetsOf(bases, tokens);
const browser = await launchChromium();

async function once({ base, token }) {
  const { context, page } = await signedInPage(browser, base, token);
  await page.locator('article.post').nth(19).waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const times = [];
  const firsts = [];
  const perCard = [];
  for (let i = 0; i < 12; i++) {
    await toProfile(page);
    const { first, all } = await backHome(page);
    // A build with marks says what each step of the feed drew and cost
    // (browser/pace.rs): the cost of a card, as the page measures it.
    const drew = await page.evaluate(() => performance.getEntriesByType('mark')
      .filter((m) => m.name.startsWith('perch:drew:'))
      .map((m) => m.name.split(':').slice(2).map(Number)));
    const items = drew.reduce((n, [i]) => n + i, 0);
    if (items) perCard.push(drew.reduce((n, [, ms]) => n + ms, 0) / items);
    firsts.push(first);
    times.push(all);
  }
  await context.close();
  return [median(firsts), median(times), perCard.length ? median(perCard) : NaN];
}

for (let run = 1; run <= Number(runs); run++) {
  for (const target of targets) {
    const [first, ms, card] = await once(target);
    target.rows.push(ms);
    (target.firsts ??= []).push(first);
    (target.cards ??= []).push(card);
    const perCard = Number.isNaN(card) ? '' : `, a card ${card.toFixed(1)} ms`;
    console.log(`${target.base} run ${run}: home's first screen (4 posts) drawn from the store in ${first.toFixed(0)} ms, 20 posts in ${ms.toFixed(0)} ms${perCard} (medians of 12)`);
  }
}
await browser.close();
console.log(`\nhome from the store, 4x slower CPU, ${runs} runs each, median (min–max), ms:`);
console.log('| server | first screen (4 posts) | 20 posts | a card (marks builds) |\n|---|---|---|---|');
// Runs with no measured step (a build without marks) are left out.
const spread = (all, digits = 0) => {
  const xs = all.filter((x) => !Number.isNaN(x));
  return xs.length ? `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : '–';
};
for (const { base, rows, firsts, cards } of targets) console.log(`| ${base} | ${spread(firsts)} | ${spread(rows)} | ${spread(cards, 1)} |`);
