// The outbox's promise under churn (issue 45, point 3): 50 posts written in
// one to three tabs of one account, tabs opened and closed between them, and
// the network dropped at random steps (a request refused before it reaches
// the server, an answer lost after the server made the post, a stretch
// offline). At the end every post is on the server exactly once: none lost,
// none sent twice. The steps come from a seeded generator
// (PERCH_E2E_SOAK_SEED, printed), so a failing run can be replayed.
import { test, expect } from './fixtures';
import { api, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const ACTIONS = 50;

/** A small seeded generator (mulberry32): the same seed, the same steps. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('50 posts with tabs opened and closed and the network dropped at random: each is made once', async ({ page, context }) => {
  test.setTimeout(test.info().timeout * 8);
  const seed = Number(process.env.PERCH_E2E_SOAK_SEED ?? Date.now() % 1_000_000);
  console.log(`outbox soak: PERCH_E2E_SOAK_SEED=${seed}`);
  const random = generator(seed);
  const me = newAccount('soak');
  const uuid = (await api(page, token(me), '/user')).uuid;
  const stamp = Date.now();
  const text = (i: number) => `soak ${stamp} #${i}`;

  // The network, step by step: 0 as it is, 1 refused before the server,
  // 2 the answer lost after the server made the post.
  let drop = 0;
  const dropped = { refused: 0, lost: 0, offline: 0, opened: 0, closed: 0 };
  await context.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    if (drop === 1) {
      dropped.refused++;
      return route.abort('connectionrefused');
    }
    if (drop === 2) {
      dropped.lost++;
      await route.fetch().catch(() => {});
      // The tab that asked may have closed while the server answered (the
      // soak closes tabs): Playwright has then settled its route already.
      return route.abort('connectionreset').catch((e: Error) => {
        if (!/already handled/.test(e.message)) throw e;
      });
    }
    return route.continue();
  });

  await signInWithToken(page, me);
  const tabs: Page[] = [page];
  for (let i = 0; i < ACTIONS; i++) {
    const roll = random();
    if (roll < 0.15 && tabs.length < 3) {
      const tab = await context.newPage();
      await tab.goto('/');
      await expect(tab.getByLabel('Post text')).toBeVisible();
      tabs.push(tab);
      dropped.opened++;
    } else if (roll > 0.85 && tabs.length > 1) {
      // Any tab but the first, which the suite's audit reads at the end.
      const at = 1 + Math.floor(random() * (tabs.length - 1));
      await tabs.splice(at, 1)[0].close();
      dropped.closed++;
    }
    const network = random();
    drop = network < 0.15 ? 1 : network < 0.3 ? 2 : 0;
    const offline = random() < 0.08;
    if (offline) {
      dropped.offline++;
      await context.setOffline(true);
    }
    const tab = tabs[Math.floor(random() * tabs.length)];
    await tab.getByLabel('Post text').fill(text(i));
    await tab.getByRole('button', { name: 'Post', exact: true }).click();
    // Sent, or waiting in the outbox: either way the box is empty again.
    await expect(tab.getByLabel('Post text')).toHaveValue('');
    if (offline) await context.setOffline(false);
  }
  console.log(`outbox soak: ${JSON.stringify(dropped)}`);

  // The network back for good: whatever waits is sent.
  drop = 0;
  await context.unroute('**/api/v1/post');
  await context.setOffline(true);
  await context.setOffline(false);
  const last = tabs[tabs.length - 1];
  await expect(last.locator('header.site-header .waiting-count')).toHaveCount(0, { timeout: 120_000 });

  const made: string[] = [];
  for (let p = 1; p <= 5; p++) {
    const page_ = await api(last, token(me), `/user/${uuid}/posts/${p}`);
    made.push(...page_.posts.map((post: any) => post.content));
    if (page_.posts.length === 0) break;
  }
  for (let i = 0; i < ACTIONS; i++) expect(made.filter((c) => c === text(i)), `${text(i)} (seed ${seed})`).toHaveLength(1);
  expect(made.filter((c) => c.startsWith(`soak ${stamp} #`))).toHaveLength(ACTIONS);
  for (const tab of tabs.slice(1)) await tab.close();
});
