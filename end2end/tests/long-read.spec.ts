// A long read stays light (issue 68, point 3; components/feed_window.rs):
// past 100 cards a feed keeps only those around the screen in the
// document; the others are let go with their room kept, so nothing moves
// under the reader, and they come back as the reader returns to them, with
// their places in the feed, under j/k, and at the reading position. The
// store is bounded too (store/bound.rs): past it, what no timeline or
// recent thread or profile shows goes, and comes back when opened again.
import { test, expect } from './fixtures';
import { call, followAuthorOf, follows, goToPerson, hostConfig, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const cards = (page: Page) => page.locator('main [role=feed] > article.post[data-uuid]');
const frames = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
const focusedAt = (page: Page) => page.evaluate(() => document.activeElement?.closest('article.post')?.getAttribute('aria-posinset'));

/** Scrolls down by screens until the card at place `n` is in the document. */
async function readTo(page: Page, n: number) {
  const last = () => cards(page).last().getAttribute('aria-posinset').then(Number);
  while ((await last()) < n) {
    const now = await last();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(last, { timeout: 15_000 }).toBeGreaterThan(now);
  }
}

/** The first card at the top of the screen: its place and its top. */
const top = (page: Page) => page.evaluate(() => {
  const card = [...document.querySelectorAll('main [role=feed] > article.post[data-uuid]')].find((c) => c.getBoundingClientRect().bottom > 0);
  return { at: card?.getAttribute('aria-posinset'), uuid: card?.getAttribute('data-uuid'), top: Math.round(card?.getBoundingClientRect().top ?? NaN) };
});

test('a long read lets go of the cards far from the screen, keeps their room, and brings them back in their places', async ({ page }) => {
  test.setTimeout(180_000);
  const me = newAccount('lr');
  await followAuthorOf(page, me, 150);
  await signInWithToken(page, me);
  await expect(cards(page).first()).toBeVisible();
  const newest = await cards(page).first().getAttribute('data-uuid');
  await readTo(page, 150);
  await frames(page);

  // Far above the screen, cards were let go: fewer in the document than read.
  const inDocument = await cards(page).count();
  expect(inDocument).toBeLessThanOrEqual(81);
  await expect(page.locator('main article.post[aria-posinset="1"]')).toHaveCount(0);
  // Their room is kept: the page is as tall as 150 cards.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeGreaterThan(150 * 60);

  // Nothing moves under the reader while cards are let go and brought back:
  // scrolled back up a screen at a time, the card at the top moves by the
  // scroll and no more.
  for (let i = 0; i < 30; i++) {
    const before = await top(page);
    await page.evaluate(() => window.scrollBy(0, -400));
    await frames(page);
    const moved = await page.evaluate((uuid) => {
      const card = document.querySelector(`main [role=feed] > article.post[data-uuid="${uuid}"]`);
      return card ? Math.round(card.getBoundingClientRect().top) : null;
    }, before.uuid);
    if (moved !== null) expect(Math.abs(moved - (before.top + 400)), `card ${before.at} after a scroll of 400 px`).toBeLessThanOrEqual(1);
    if ((await page.evaluate(() => window.scrollY)) === 0) break;
  }

  // At the top again: the first card came back, with its place in the feed.
  await page.evaluate(() => window.scrollTo(0, 0));
  const first = page.locator('main article.post[aria-posinset="1"]');
  await expect(first).toHaveCount(1);
  await expect(first).toHaveAttribute('data-uuid', newest!);
  await frames(page);
  // ...and the cards far below went.
  await expect(page.locator('main article.post[aria-posinset="150"]')).toHaveCount(0);

  // j/k walk across the cards that were let go, one at a time.
  await page.keyboard.press('j');
  await expect.poll(() => focusedAt(page)).toBe('1');
  for (let i = 0; i < 59; i++) await page.keyboard.press('j');
  await expect.poll(() => focusedAt(page)).toBe('60');
  for (let i = 0; i < 9; i++) await page.keyboard.press('k');
  await expect.poll(() => focusedAt(page)).toBe('51');
  await expectNoneLost(page);

  // After a return to Home (another page, then `g h`), a read on still lets
  // go: the cards far above leave as the reader goes down to the end.
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.locator('main article.post[aria-posinset="51"]')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('main article.post[aria-posinset="150"]')).toHaveCount(1);
  await expect(page.locator('main article.post[aria-posinset="1"]')).toHaveCount(0);
  expect(await cards(page).count()).toBeLessThanOrEqual(81);
  await expectNoneLost(page);
});

/** Watches the feed's cards entering and leaving the document: a card that
 *  leaves and enters in one change was moved (taken out and put back),
 *  which the browser pays as a new card. `moved()` lists them, `came()`
 *  counts the cards that entered. */
async function watchCards(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { moved: string[]; came: number };
    w.moved = [];
    w.came = 0;
    const feed = document.querySelector('main [role=feed]')!;
    new MutationObserver((records) => {
      const uuids = (nodes: NodeList) => [...nodes].filter((n): n is Element => n instanceof Element && n.matches('article.post')).map((n) => n.getAttribute('data-uuid'));
      const left = new Set(records.flatMap((r) => uuids(r.removedNodes)));
      const entered = records.flatMap((r) => uuids(r.addedNodes));
      w.came += entered.length;
      w.moved.push(...entered.filter((u) => left.has(u)).map(String));
    }).observe(feed, { childList: true });
  });
  return {
    moved: () => page.evaluate(() => (window as unknown as { moved: string[] }).moved),
    came: () => page.evaluate(() => (window as unknown as { came: number }).came),
  };
}

test('cards brought back above the screen enter alone: the cards kept stay in the document, untouched', async ({ page }) => {
  test.setTimeout(180_000);
  const me = newAccount('lm');
  await followAuthorOf(page, me, 150);
  await signInWithToken(page, me);
  await readTo(page, 150);
  await frames(page);
  const watch = await watchCards(page);
  // Back up a screen at a time: the window moves up many times, bringing
  // back the cards above and letting go of those below.
  for (let i = 0; i < 40 && (await page.evaluate(() => window.scrollY)) > 0; i++) {
    await page.evaluate(() => window.scrollBy(0, -600));
    await frames(page);
  }
  await expect(page.locator('main article.post[aria-posinset="1"]')).toHaveCount(1);
  // Cards came back (about 150 - 81), and not one card kept was taken out
  // and put back (the framework's list did so to every card below the
  // first brought back: the whole window, at each move).
  expect(await watch.came()).toBeGreaterThanOrEqual(60);
  expect(await watch.came()).toBeLessThanOrEqual(100);
  expect(await watch.moved()).toEqual([]);
  await expectNoneLost(page);
});

test('the reading position holds across cards let go: a reload comes back to the same post', async ({ page }) => {
  test.setTimeout(180_000);
  const me = newAccount('lp');
  await followAuthorOf(page, me, 140);
  await signInWithToken(page, me);
  await readTo(page, 140);
  await page.evaluate(() => {
    const card = document.querySelector('main [role=feed] > article.post[aria-posinset="130"]')!;
    window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY - 100);
  });
  await frames(page);
  const before = await top(page);
  expect(Number(before.at)).toBeGreaterThan(120);
  // The position is kept shortly after the scroll.
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('perch.home.')).map((k) => localStorage.getItem(k)).join()), { timeout: 10_000 })
    .toContain(before.uuid!);
  await page.reload();
  await expect.poll(async () => (await top(page)).uuid, { timeout: 20_000 }).toBe(before.uuid);
  expect(Math.abs((await top(page)).top - before.top)).toBeLessThanOrEqual(2);
});

/** The cards in the document are in order, one after the other, with no
 *  place missing between the first and the last. */
async function expectNoneLost(page: Page) {
  const places = await cards(page).evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('aria-posinset'))));
  expect(places.length).toBeGreaterThan(0);
  places.forEach((p, i) => expect(p).toBe(places[0] + i));
}

test('a tall screen is filled: Load more goes on while it stays on screen after a load', async ({ page }) => {
  test.setTimeout(120_000);
  const me = newAccount('lt');
  await followAuthorOf(page, me, 150);
  // A screen taller than a page of posts: a load leaves Load more on
  // screen, so the observer sees no change; the feed must still go on.
  await page.setViewportSize({ width: 1280, height: 6000 });
  await signInWithToken(page, me);
  await expect(cards(page).first()).toBeVisible();
  const more = page.locator('main .load-more button', { hasText: /Load more|Loading/ });
  // Nothing is pressed or scrolled: the feed fills the screen by itself,
  // until Load more is below it (or every post is read).
  await expect.poll(async () => {
    const box = await more.boundingBox();
    const read = await cards(page).last().getAttribute('aria-posinset');
    return !box ? 'gone' : box.y > 6000 ? 'below' : `on screen after ${read}`;
  }, { timeout: 30_000 }).toMatch(/below|gone/);
  expect(await cards(page).count()).toBeGreaterThan(40);
  await expectNoneLost(page);
});

test('posts shown above the cards move them down: each card says its place in the feed anew', async ({ page }) => {
  const me = newAccount('lp');
  const author = await followAuthorOf(page, me, 5);
  await signInWithToken(page, me);
  await expect(page.getByText('Kept post 5 of 5')).toBeVisible();
  const oldest = cards(page).last();
  await expect(oldest).toHaveAttribute('aria-posinset', '5');
  await expect(oldest).toHaveAttribute('aria-setsize', '5');
  for (const k of [1, 2]) await call(page, token(author), 'POST', '/post', { content: `Shown above ${k}` });
  // Back online, Home checks; what is new waits behind the button.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.getByRole('button', { name: 'Show 2 new posts' }).click();
  await expect(cards(page).first()).toContainText('Shown above 2');
  await expect(oldest).toHaveAttribute('aria-posinset', '7');
  await expect(oldest).toHaveAttribute('aria-setsize', '7');
  await expectNoneLost(page);
  expect(await cards(page).first().getAttribute('aria-posinset')).toBe('1');
});

test('past the store\'s bound, a thread opened before the last 20 is read again and shows whole, and Home keeps its cards', async ({ page }) => {
  test.setTimeout(180_000);
  // A host's config.json sets a small bound: a few posts past it, the store lets go.
  await hostConfig(page, { store_posts: 20 });
  const me = newAccount('sb');
  const author = newAccount('sa');
  const posts = await follows(page, me, author, Array.from({ length: 21 }, (_, i) => `Bound post ${i + 1}.`));
  // Only its thread shows this reply: nothing else holds it.
  await call(page, token(newAccount('so')), 'POST', '/post', { content: 'A reply only its thread shows.', parent: posts[20].uuid });
  await signInWithToken(page, me);
  const home = page.getByRole('feed', { name: 'Timeline' });
  const reply = page.getByRole('article').filter({ hasText: 'A reply only its thread shows.' });

  /** Opens the thread of the post saying `text` from its card on Home, and goes back. */
  const openAndBack = async (text: string, then?: () => Promise<void>) => {
    const card = home.getByRole('article').filter({ hasText: text });
    if ((await card.count()) === 0) await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await card.locator('a.time-link').click();
    await expect(page.getByRole('article').filter({ hasText: text }).first()).toBeVisible();
    await then?.();
    await page.goBack();
    await expect(home).toBeVisible();
  };
  // The first thread opened, then 20 others: it is the 21st most recent.
  await openAndBack('Bound post 21.', () => expect(reply).toBeVisible());
  for (let i = 20; i >= 1; i--) await openAndBack(`Bound post ${i}.`);
  // A profile's posts arrive (nothing holds them but its page): the store
  // is past its bound again, and lets go.
  await goToPerson(page, 'mira');
  await expect(page.getByRole('feed', { name: 'Posts' }).getByRole('article').first()).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(home).toBeVisible();

  // Every card of Home shows its post (Home's posts are held), none waits.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(home.getByRole('article').filter({ hasText: 'Bound post 21.' })).toBeVisible();
  await expect(home.locator('article.post[data-uuid]')).toHaveCount(21);
  await expect(page.locator('main .post.skeleton')).toHaveCount(0);
  // The thread opened first is read again and shows whole, its reply too.
  const replies = page.waitForRequest((r) => r.url().includes(`/post/${posts[20].uuid}/replies`));
  await openAndBack('Bound post 21.', async () => {
    await replies;
    await expect(reply).toBeVisible();
    await expect(page.locator('main .post.skeleton')).toHaveCount(0);
  });
});

test('back at the top after a long read, Home lets go of what was read below, and Load more reads it again in its places', async ({ page }) => {
  test.setTimeout(120_000);
  // A store of 40 posts: a timeline keeps 20 or a few more once its
  // reader is back at its top.
  await hostConfig(page, { store_posts: 40 });
  const me = newAccount('ct');
  await followAuthorOf(page, me, 60);
  await signInWithToken(page, me);
  await expect(cards(page).first()).toBeVisible();
  const first = await top(page);
  await readTo(page, 60);
  const order = await cards(page).evaluateAll((all) => all.map((c) => c.getAttribute('data-uuid')));
  expect(order).toHaveLength(60);
  // The page after the last is read (and found empty) before the reader
  // turns back: a cut waits for every load to end.
  await expect(page.getByRole('feed', { name: 'Timeline' })).toHaveAttribute('aria-busy', 'false');

  await page.evaluate(() => window.scrollTo(0, 0));
  // The fewest whole pages (15 posts each, the interface's) holding 20.
  await expect(cards(page)).toHaveCount(30);
  expect(await top(page), 'the reader has not moved').toEqual(first);
  await expect(page.getByRole('button', { name: 'Load more' })).toBeAttached();

  await readTo(page, 60);
  expect(await cards(page).evaluateAll((all) => all.map((c) => c.getAttribute('data-uuid'))), 'the same posts, in the same places').toEqual(order);
  await expect(page.locator('main .post.skeleton')).toHaveCount(0);
});
