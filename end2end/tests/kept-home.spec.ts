// Home is drawn once and kept while other pages show (issue 68): every way
// back finds the same post at the same offset, with nothing drawn again
// (the cards are the same nodes); hidden, Home is out of reach (Tab, find
// in page, the accessibility tree) and does no work.
import { test, expect } from './fixtures';
import { followAuthorOf, newAccount, signInWithToken } from './helpers';
import type { Page } from '@playwright/test';

// The cards shown: a kept page hidden is in the document too.
const cards = (page: Page) => page.locator('main [role=feed] > article.post[data-uuid]').filter({ visible: true });

/** Reads Home down to `n` posts, as a person scrolling would, and stops
 * with the `n - 3`rd post 150 px below the top of the screen. */
async function readDown(page: Page, n: number) {
  await expect(cards(page).first()).toBeVisible();
  // Counted by the cards' places in the feed: a long read lets go of the
  // cards far above (feed_window.rs).
  const read = () => cards(page).last().getAttribute('aria-posinset').then(Number);
  for (;;) {
    const count = await read();
    if (count >= n) break;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(read, { timeout: 15_000 }).toBeGreaterThan(count);
  }
  await page.evaluate((at) => {
    const card = [...document.querySelectorAll(`main [role=feed] > article.post[aria-posinset="${at}"]`)].find((c) => c.checkVisibility())!;
    window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY - 150);
  }, n - 2);
  // The scroll's own frame has run (the cards let go or brought back by it).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  // Every card read so far is marked: a card drawn again would lose it.
  await page.evaluate(() => document.querySelectorAll('main [role=feed] > article.post').forEach((c: any) => { c.__kept = true; }));
}

/** The post at the top of the screen, how far below the top, and whether
 * its card is the one read before. */
const place = (page: Page) => page.evaluate(() => {
  const card: any = [...document.querySelectorAll('main [role=feed] > article.post[data-uuid]')].find((c) => c.checkVisibility() && c.getBoundingClientRect().bottom > 0)!;
  return { uuid: card.getAttribute('data-uuid'), top: Math.round(card.getBoundingClientRect().top), kept: card.__kept === true };
});

async function expectBackAt(page: Page, before: { uuid: string | null; top: number }) {
  await expect(page.getByRole('feed', { name: /Timeline|Zeitleiste/ })).toBeVisible();
  await expect.poll(() => place(page)).toEqual({ ...before, kept: true });
}

/** The first card wholly below the top of the screen, whose links a
 * person can press without scrolling. */
const inView = (page: Page) => page.evaluate(() =>
  [...document.querySelectorAll('main [role=feed] > article.post[data-uuid]')].find((c) => c.checkVisibility() && c.getBoundingClientRect().top > 0)!.getAttribute('data-uuid')!);

/** Leaves Home without scrolling it (the header's links are at the top of
 * the page): `g l` goes to Lists. */
async function toLists(page: Page, heading = 'Lists') {
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

for (const depth of [30, 300]) {
  test(`after ${depth} posts read, every way back to Home finds the same post at the same offset, drawn once`, async ({ page }) => {
    test.setTimeout(depth > 100 ? 240_000 : 120_000);
    const me = newAccount('kh');
    await followAuthorOf(page, me, depth + 20);
    await signInWithToken(page, me);
    await readDown(page, depth);
    const before = await place(page);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(depth * 50);
    const nav = page.getByRole('navigation', { name: 'Main' });

    // Open a post, then Back: the post opened has focus again.
    const opened = await inView(page);
    await page.locator(`main article.post[data-uuid="${opened}"] a[href$="/post/${opened}"]`).first().click();
    await expect(page).toHaveURL(new RegExp(`/post/${opened}$`));
    await page.goBack();
    await expectBackAt(page, before);
    await expect(page.locator(`main article.post[data-uuid="${opened}"]`)).toBeFocused();

    // Another page, then the navigation's Home link.
    await toLists(page);
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    await expectBackAt(page, before);

    // g l, then g h.
    await toLists(page);
    await page.keyboard.press('g');
    await page.keyboard.press('h');
    await expectBackAt(page, before);

    // The name at the top left.
    await toLists(page);
    await page.getByRole('link', { name: 'Perch', exact: true }).click();
    await expectBackAt(page, before);

    // A reply sent from a thread comes on top of Home: the place holds.
    const answered = await inView(page);
    await page.locator(`main article.post[data-uuid="${answered}"] a[href$="/post/${answered}"]`).first().click();
    await page.locator('article.focused').getByRole('link', { name: 'Reply', exact: true }).click();
    const box = page.getByRole('region', { name: /^Reply to @/ });
    await box.getByLabel('Post text').fill('A reply sent from the thread');
    await box.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(page.getByRole('feed', { name: 'Replies' }).getByRole('article')).toContainText(['A reply sent from the thread']);
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    await expectBackAt(page, before);

    // A language switch on another page: Home follows it, in its place.
    await toLists(page);
    await page.locator('.account-menu summary').click();
    await page.getByLabel('Language').selectOption('de');
    await expect(page.getByRole('heading', { level: 1, name: 'Listen' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Startseite', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Startseite' })).toBeVisible();
    await expect.poll(async () => (await place(page)).uuid).toBe(before.uuid);
    expect((await place(page)).kept).toBe(true);
  });
}

test('hidden Home is out of reach and does no work: not in the accessibility tree, not found in the page, no request of its own', async ({ page }) => {
  const me = newAccount('kw');
  await followAuthorOf(page, me, 5);
  // Every request the app makes, as it makes it.
  await page.addInitScript(() => {
    const asked: string[] = ((window as any).__asked = []);
    const fetch = window.fetch.bind(window);
    window.fetch = (input: any, init?: any) => { asked.push(String(input?.url ?? input)); return fetch(input, init); };
  });
  await signInWithToken(page, me);
  await expect(page.getByText('Kept post 5 of 5')).toBeVisible();
  const asked = () => page.evaluate(() => (window as any).__asked.filter((u: string) => /\/posts\/1$/.test(u)).length);
  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  // Shown, Home checks for new posts when the browser is back online.
  let before = await asked();
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(asked).toBeGreaterThan(before);

  // Chromium's own accessibility tree, as a screen reader is given it.
  const cdp = await page.context().newCDPSession(page);
  const exposed = async () => {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes.filter((n: any) => !n.ignored && String(n.name?.value ?? '').includes('Kept post 5 of 5')).length;
  };
  expect(await exposed()).toBeGreaterThan(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Activity/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expect(page.getByRole('feed', { name: 'Timeline' })).toHaveCount(0);
  await expect.poll(exposed).toBe(0);
  expect(await page.locator('body').ariaSnapshot()).not.toContain('Kept post');
  expect(await page.evaluate(() => document.body.innerText)).not.toContain('Kept post');
  expect(await page.evaluate(() => (window as any).find?.('Kept post 5') ?? false)).toBe(false);
  // Kept in the document, hidden: one main for the skip link and the
  // screen reader, the page shown's; Tab, the keys and a script's focus()
  // never land in Home.
  await expect(page.getByRole('main')).toHaveCount(1);
  expect(await page.evaluate(() => document.getElementById('main')?.querySelector('h1')?.textContent)).toBe('Activity');
  await expect(page.locator('#post-text')).toBeHidden();
  const inHome = () => page.evaluate(() => !!document.activeElement?.closest('.kept-page'));
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    expect(await inHome()).toBe(false);
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('n');
  await page.evaluate(() => (document.getElementById('post-text') as HTMLElement).focus());
  expect(await inHome()).toBe(false);
  // Hidden, it asks nothing, online again or not.
  before = await asked();
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await settle();
  expect(await asked()).toBe(before);

  // Shown again, it is all there, and takes its news.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByText('Kept post 5 of 5')).toBeVisible();
  await expect(page.getByRole('main')).toHaveCount(1);
  expect(await page.evaluate(() => document.getElementById('main')?.querySelector('h1')?.textContent)).toBe('Home');
});

test(`a list's page is kept as Home is, the last ${3} shown; the one shown longest ago is drawn again`, async ({ page }) => {
  test.setTimeout(120_000);
  const me = newAccount('kl');
  const author = await followAuthorOf(page, me, 45);
  await signInWithToken(page, me);
  await page.goto('/lists');
  for (const name of ['One', 'Two', 'Three', 'Four']) {
    await page.getByLabel('New list').fill(name);
    await page.getByRole('button', { name: 'Make the list' }).click();
    await expect(page.getByRole('status').filter({ hasText: `List “${name}” made.` })).toBeVisible();
  }
  const openList = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
    await toLists(page);
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  };
  await openList('One');
  await page.getByLabel('Add someone to this list').fill(`@${author}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  // The field takes the focus back once the person is added, for the next
  // name: keys would be typed there. Out of it after that.
  await expect(page.getByRole('status').filter({ hasText: 'added to “One”' })).toBeVisible();
  await page.getByLabel('Add someone to this list').blur();
  await readDown(page, 25);
  const before = await place(page);

  // Home, then Back: the list as it was, nothing drawn again.
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'One' })).toBeVisible();
  await expect.poll(() => place(page)).toEqual({ ...before, kept: true });
  await expect(page).toHaveTitle(/^One · Perch$/);

  // Two, Three and Four shown after it: One, shown longest ago, goes.
  for (const name of ['Two', 'Three', 'Four']) await openList(name);
  await openList('One');
  await expect(cards(page).first()).toBeVisible();
  expect((await place(page)).kept).toBe(false);
});
