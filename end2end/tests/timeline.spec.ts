// The home timeline, composed in the browser from the real server's
// operations: order against the API's own answers, Load more, follows,
// new posts, failed sources, staying in place, keyboard shortcuts.
import { execFileSync } from 'node:child_process';
import { test, expect, expectAccessible } from './fixtures';
import { api, attributeWrites, ownAction, signInWithToken, token, watchAttributeWrites, DB, SERVER_BIN } from './helpers';
import type { Page } from '@playwright/test';

type Post = { uuid: string; created_at: string; author: { uuid: string; username: string } };

/** Every post of a user, through the API's pages. */
async function allPosts(page: Page, tok: string, uuid: string): Promise<Post[]> {
  const posts: Post[] = [];
  for (let n = 1; ; n++) {
    const got = (await api(page, tok, `/user/${uuid}/posts/${n}`)).posts as Post[];
    posts.push(...got);
    if (got.length < 15) return posts;
  }
}

/** What mira's timeline must be: her posts and her follows', newest first. */
async function expectedTimeline(page: Page, tok: string): Promise<string[]> {
  const me = await api(page, tok, '/user');
  const following = (await api(page, tok, `/user/${me.uuid}/following`)).following as ({ uuid: string } | string)[];
  const sources = [me.uuid, ...following.map((f) => (typeof f === 'string' ? f : f.uuid))];
  const posts = (await Promise.all(sources.map((s) => allPosts(page, tok, s)))).flat();
  posts.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (b.uuid < a.uuid ? -1 : b.uuid > a.uuid ? 1 : 0));
  return posts.map((p) => p.uuid);
}

/** Brings Load more into view as scrolling would (it then presses itself). */
const scrollToLoadMore = (page: Page) => page.locator('.load-more button').evaluate((b) => b.scrollIntoView());

const timeline = (page: Page) => page.getByRole('feed', { name: 'Timeline' });
const shownUuids = (page: Page) =>
  timeline(page).locator('article[data-uuid]').evaluateAll((els) => els.map((e) => e.getAttribute('data-uuid')!));

test('the demo timeline shows her posts and her follows\', newest first, and Load more goes on without duplicates', async ({ page }) => {
  const tok = token('mira');
  const expected = await expectedTimeline(page, tok);
  expect(expected.length).toBeGreaterThan(60);
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  let shown = await shownUuids(page);
  expect(shown.length).toBeGreaterThanOrEqual(15);
  expect(shown).toEqual(expected.slice(0, shown.length));
  // Nobody she does not follow: olga's posts are not here.
  await expect(timeline(page).locator('a.author', { hasText: '@olga' })).toHaveCount(0);
  await expectAccessible(page);

  // Scrolling near the end loads more (twice over), and so does the button
  // for keyboard users.
  const before = shown.length;
  await scrollToLoadMore(page);
  await expect.poll(async () => (await shownUuids(page)).length).toBeGreaterThan(before);
  await scrollToLoadMore(page);
  await expect.poll(async () => (await shownUuids(page)).length).toBeGreaterThan(before + 15);
  const scrolled = (await shownUuids(page)).length;
  await page.getByRole('button', { name: /Load more|Loading/ }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await shownUuids(page)).length).toBeGreaterThan(scrolled);
  shown = await shownUuids(page);
  expect(new Set(shown).size).toBe(shown.length);
  expect(shown).toEqual(expected.slice(0, shown.length));
});

test('following someone brings their posts in; unfollowing takes them out', async ({ page }) => {
  const tok = token('mira');
  const olga = await api(page, tok, '/user/@olga');
  const newest = (await allPosts(page, tok, olga.uuid))[0];
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await expect(timeline(page).locator(`article[data-uuid="${newest.uuid}"]`)).toHaveCount(0);

  await page.goto('/user/@olga');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  // Not the reload the person did not ask for: the timeline was kept, and olga's posts came into it in place.
  const olgas = timeline(page).locator(`article[data-uuid="${newest.uuid}"]`);
  await expect(async () => {
    if ((await olgas.count()) === 0) await scrollToLoadMore(page);
    await expect(olgas).toHaveCount(1, { timeout: 1000 });
  }).toPass();
  const shown = await shownUuids(page);
  expect(shown).toEqual((await expectedTimeline(page, tok)).slice(0, shown.length));

  await page.goto('/user/@olga');
  await page.getByRole('button', { name: 'Following' }).click();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await expect(olgas).toHaveCount(0);
});

test('new posts wait behind "Show 1 new post" instead of moving the list', async ({ page }) => {
  await page.clock.install();
  await signInWithToken(page, 'mira');
  const first = timeline(page).getByRole('article').first();
  await expect(first).toBeVisible();
  const top = await first.getAttribute('data-uuid');

  // tomas (whom mira follows) posts elsewhere; a minute later Perch notices.
  const res = await page.request.post('/api/v1/post', {
    headers: { Authorization: `Bearer ${token('tomas')}` },
    data: { content: `Fresh from the delta ${Date.now()}` },
  });
  expect(res.ok()).toBeTruthy();
  const fresh = (await res.json()).uuid as string;
  await page.clock.fastForward('01:05');
  const show = page.getByRole('button', { name: 'Show 1 new post' });
  await expect(show).toBeVisible();
  await expect(first).toHaveAttribute('data-uuid', top!);
  await expect(page).toHaveTitle('(1) Home · Perch');
  await expectAccessible(page);
  await show.click();
  await expect(first).toHaveAttribute('data-uuid', fresh);
  await expect(first).toBeFocused();
  await expect(show).toHaveCount(0);
  await expect(page).toHaveTitle('Home · Perch');
});

test('a post written on the home page appears at the top of the timeline', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  const text = `Timeline check ${Date.now()}`;
  await page.getByLabel('Post text').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(timeline(page).getByRole('article').first()).toContainText(text);
  // Deleting it takes it out again.
  const article = timeline(page).getByRole('article').first();
  await ownAction(article, 'Delete');
  await article.getByRole('button', { name: 'Delete post' }).click();
  await expect(timeline(page).getByText(text)).toHaveCount(0);
});

test('a post joining the timeline leaves the cards already shown as they are', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').nth(4)).toBeVisible();
  // A card drawn again (each time any post arrived, it was) sets its
  // attributes anew; one moved down says its new place, and nothing else.
  const wasFirst = timeline(page).locator(`article[data-uuid="${await timeline(page).getByRole('article').first().getAttribute('data-uuid')}"]`);
  await expect(wasFirst).toHaveAttribute('aria-posinset', '1');
  await watchAttributeWrites(page, '[role=feed] article');
  const text = `Joins the top ${Date.now()}`;
  await page.getByLabel('Post text').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(timeline(page).getByRole('article').first()).toContainText(text);
  await expect(wasFirst).toHaveAttribute('aria-posinset', '2');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100))));
  expect(await attributeWrites(page, ['aria-posinset'])).toBe(0);
});

test('a source that fails is named with Retry while the rest shows', async ({ page }) => {
  const tok = token('mira');
  const leila = await api(page, tok, '/user/@leila');
  let failing = true;
  await page.route(`**/api/v1/user/${leila.uuid}/posts/**`, (route) =>
    failing ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down for a moment"}' }) : route.continue());
  await signInWithToken(page, 'mira');
  const problem = page.getByRole('alert').filter({ hasText: 'Posts from @leila could not be loaded' });
  await expect(problem).toBeVisible();
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await expect(timeline(page).locator('a.author', { hasText: '@leila' })).toHaveCount(0);
  await expectAccessible(page);

  failing = false;
  await problem.getByRole('button', { name: /Retry/ }).click();
  await expect(problem).toHaveCount(0);
  const shown = await shownUuids(page);
  expect(shown).toEqual((await expectedTimeline(page, tok)).slice(0, shown.length));
});

test('a new account with no follows is told what to do', async ({ page }) => {
  const name = `fresh${Date.now() % 100000}`;
  execFileSync(SERVER_BIN, ['user', 'add', name, '--db', DB, '--display-name', 'Fresh Start']);
  await signInWithToken(page, name);
  await expect(page.getByText('Your timeline is empty.')).toBeVisible();
  await expectAccessible(page);
  const find = page.getByRole('search', { name: 'Find people to follow' });
  await find.getByLabel('Username').fill('@yuki');
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(/\/user\/@yuki$/);
});

test('back from a thread, and a reload, return to the same place in the timeline', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await scrollToLoadMore(page);
  await expect.poll(async () => (await shownUuids(page)).length).toBeGreaterThan(25);
  const target = timeline(page).getByRole('article').nth(20);
  await target.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 0));
  const uuid = await target.getAttribute('data-uuid');
  const y = await page.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(500);

  await target.locator('a.time-link').click();
  await expect(page).toHaveURL(new RegExp(`/post/${uuid}$`));
  await page.goBack();
  await expect(timeline(page).locator(`article[data-uuid="${uuid}"]`)).toBeInViewport();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 50);

  // A reload finds the same post on screen.
  await page.evaluate(() => window.scrollBy(0, 1));
  await page.waitForTimeout(600); // the position is saved a moment after scrolling stops
  await page.reload();
  await expect(timeline(page).locator(`article[data-uuid="${uuid}"]`)).toBeInViewport();
});

test('keyboard shortcuts: j/k move, l likes, o opens, n writes, ? lists, and they can be turned off', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const posts = timeline(page).getByRole('article');
  await expect(posts.first()).toBeVisible();
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('j');
  await expect(posts.nth(0)).toBeFocused();
  await page.keyboard.press('j');
  await expect(posts.nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(posts.nth(0)).toBeFocused();

  const like = posts.nth(0).locator('button.like');
  const pressed = await like.getAttribute('aria-pressed');
  await page.keyboard.press('l');
  await expect(like).not.toHaveAttribute('aria-pressed', pressed!);
  await page.keyboard.press('l');
  await expect(like).toHaveAttribute('aria-pressed', pressed!);

  const uuid = await posts.nth(0).getAttribute('data-uuid');
  await page.keyboard.press('o');
  await expect(page).toHaveURL(new RegExp(`/post/${uuid}$`));
  await page.goBack();
  // Back gives the focus to the post that was opened: Enter opens it again.
  await expect(posts.nth(0)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/post/${uuid}$`));
  await page.goBack();
  await expect(posts.nth(0)).toBeFocused();
  // r: the thread, with the reply box ready.
  await page.keyboard.press('r');
  await expect(page).toHaveURL(new RegExp(`/post/${uuid}#reply$`));
  await expect(page.locator('#reply-text')).toBeFocused();
  // n there: the thread's reply box, not Home's composer (kept hidden).
  await page.locator('#reply-text').blur();
  await page.keyboard.press('n');
  await expect(page.locator('#reply-text')).toBeFocused();
  await page.goBack();
  await expect(posts.first()).toBeVisible();

  // n goes to the composer; typing there is typing, not shortcuts.
  await page.keyboard.press('n');
  await expect(page.getByLabel('Post text')).toBeFocused();
  await page.keyboard.type('jk');
  await expect(page.getByLabel('Post text')).toHaveValue('jk');
  await page.getByLabel('Post text').fill('');

  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Next post');
  await expectAccessible(page);
  await help.getByRole('checkbox', { name: 'Use keyboard shortcuts' }).uncheck();
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(help).toBeHidden();
  await page.keyboard.press('j');
  await expect(posts.nth(0)).not.toBeFocused();
  // Still reachable from the account menu, to turn them on again.
  await page.locator('.account-menu summary').click();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await help.getByRole('checkbox', { name: 'Use keyboard shortcuts' }).check();
  await help.getByRole('button', { name: 'Close' }).click();
  await page.keyboard.press('j');
  await expect(posts.first()).toBeFocused();
});

test('a slow source does not hold the first screen: the rest shows, and its posts join when they come', async ({ page }) => {
  const tok = token('mira');
  const leila = await api(page, tok, '/user/@leila');
  await page.route(`**/api/v1/user/${leila.uuid}/posts/**`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8000));
    await route.continue();
  });
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible({ timeout: 7000 });
  await expect(page.getByText('Still loading posts from @leila')).toBeVisible();
  await expect(timeline(page).locator('a.author', { hasText: '@leila' })).toHaveCount(0);
  await expect(page.getByText('Still loading posts from @leila')).toHaveCount(0, { timeout: 15000 });
  await expect(async () => {
    if ((await timeline(page).locator('a.author', { hasText: '@leila' }).count()) === 0) await scrollToLoadMore(page);
    await expect(timeline(page).locator('a.author', { hasText: '@leila' }).first()).toBeVisible({ timeout: 1000 });
  }).toPass();
  const shown = await shownUuids(page);
  expect(shown).toEqual((await expectedTimeline(page, tok)).slice(0, shown.length));
});

test('a card far below the screen, drawn lazily by the browser, is found by find-in-page and reached by j', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(timeline(page).getByRole('article').first()).toBeVisible();
  await scrollToLoadMore(page);
  await expect.poll(async () => (await shownUuids(page)).length).toBeGreaterThan(25);
  await page.evaluate(() => window.scrollTo(0, 0));
  const far = timeline(page).getByRole('article').nth(25);
  await expect(far).not.toBeInViewport();
  // Its words, as find-in-page looks for them. (Its `innerText` is empty:
  // a card the browser has not drawn yet has no rendered text, but it is there.)
  const words = ((await far.locator('.post-content').textContent()) ?? '').trim().split('\n')[0].slice(0, 40);
  expect(words.length).toBeGreaterThan(3);
  const found = await page.evaluate((w) => {
    window.getSelection()?.removeAllRanges();
    const hit = (window as unknown as { find: (s: string) => boolean }).find(w);
    const at = window.getSelection()?.anchorNode?.parentElement?.closest('article')?.getAttribute('data-uuid');
    return { hit, at };
  }, words);
  expect(found.hit).toBe(true);
  const uuids = await shownUuids(page);
  // The first card with these words is the one found (earlier cards may share them).
  const first = await timeline(page).locator('article[data-uuid]').evaluateAll(
    (els, w) => els.find((e) => (e.querySelector('.post-content')?.textContent ?? '').includes(w))?.getAttribute('data-uuid'),
    words,
  );
  expect(found.at).toBe(first);
  expect(uuids).toContain(found.at);

  // j walks to it, card by card, with focus and in view.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  for (let i = 0; i <= 25; i++) await page.keyboard.press('j');
  await expect(far).toBeFocused();
  await expect(far).toBeInViewport();
});
