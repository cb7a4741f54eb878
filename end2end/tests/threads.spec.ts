// Threads of several posts (issue 47, point 3): "Add another post" in the
// composer, each part with its own counter; a text over 500 characters
// offered as a thread cut at sentence ends; sending posts the parts in
// order as replies to each other through the outbox, each with its own
// Idempotency-Key; a part refused or not answered stops the ones after it,
// shown as one thread with Retry and Discard; Undo send takes the whole
// thread back.
import { test, expect, expectAccessible } from './fixtures';
import { api, newAccount, signInWithToken, token } from './helpers';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

const ar = JSON.parse(readFileSync('../locales/ar.json', 'utf8'));
const part = (page: Page, n: number) => page.locator(`#post-text-part-${n}`);
// The page shown's (Home, kept hidden, shows what waits too).
const threadCard = (page: Page) => page.locator('main article.thread-waiting').filter({ visible: true });
const waitingCount = (page: Page) => page.locator('header.site-header .waiting-count');

/** The account's posts as the server has them, oldest first. */
async function postsOf(page: Page, username: string) {
  const me = await api(page, token(username), '/user');
  const posts = (await api(page, token(username), `/user/${me.uuid}/posts/1`)).posts as any[];
  return posts.slice().reverse();
}

const parentOf = (p: any) => (typeof p.parent === 'string' ? p.parent : p.parent?.uuid ?? null);

/** Writes a thread of `texts` in Home's composer. */
async function writeThread(page: Page, texts: string[]) {
  await page.getByLabel('Post text', { exact: true }).fill(texts[0]);
  for (let i = 1; i < texts.length; i++) {
    await page.getByRole('button', { name: 'Add another post' }).click();
    await expect(part(page, i + 1)).toBeFocused();
    await part(page, i + 1).fill(texts[i]);
  }
}

test('a thread: each part its own box and counter, kept across a reload, posted in order as replies to each other, each once with its own key', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/post')) keys.push(r.headers()['idempotency-key']);
  });
  await writeThread(page, ['First of three.', 'Second, with more words.', 'Third']);
  await expect(page.getByLabel('Post 1 of 3')).toHaveValue('First of three.');
  await expect(page.getByLabel('Post 3 of 3')).toHaveValue('Third');
  await expect(page.locator('#post-text-part-2-count')).toHaveText(`${500 - 'Second, with more words.'.length} left`);
  await expect(page.locator('#post-text-part-3-count')).toHaveText('495 left');
  await expect(page.locator('#post-text-count')).toHaveText(`${500 - 'First of three.'.length} left`);
  // An empty part keeps the thread from going; Remove takes it away.
  await page.getByRole('button', { name: 'Add another post' }).click();
  await expect(page.getByRole('button', { name: 'Post all 4' })).toBeDisabled();
  await page.getByRole('button', { name: 'Remove this post' }).last().click();
  await expect(part(page, 4)).toHaveCount(0);
  await expect(part(page, 3)).toBeFocused();

  // The parts are kept with the draft, and another tab follows them.
  await page.reload();
  await expect(page.getByLabel('Post 2 of 3')).toHaveValue('Second, with more words.');
  const other = await page.context().newPage();
  await other.goto('/');
  await expect(other.getByLabel('Post 3 of 3')).toHaveValue('Third');
  await part(page, 3).fill('Third, from here');
  await expect(other.getByLabel('Post 3 of 3')).toHaveValue('Third, from here');
  await part(other, 3).fill('Third');
  await expect(part(page, 3)).toHaveValue('Third');
  await other.close();
  await page.getByRole('button', { name: 'Post all 3' }).click();
  await expect(page.getByLabel('Post text', { exact: true })).toHaveValue('');
  await expect(part(page, 2)).toHaveCount(0);
  await expect(waitingCount(page)).toHaveCount(0, { timeout: 20_000 });
  const posts = await postsOf(page, me);
  expect(posts.map((p) => p.content)).toEqual(['First of three.', 'Second, with more words.', 'Third']);
  expect(parentOf(posts[0])).toBeNull();
  expect(parentOf(posts[1])).toBe(posts[0].uuid);
  expect(parentOf(posts[2])).toBe(posts[1].uuid);
  expect(new Set(keys).size, 'each part its own Idempotency-Key').toBe(3);
  expect(keys.every(Boolean)).toBe(true);
  // Nothing of it is left in the browser.
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('perch.parts.')))).toEqual([]);
});

test('text pasted over 500 characters is offered as a thread, cut at sentence ends, nothing lost', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  const sentence = (n: number) => `Sentence ${n} says a little more about the day. `;
  const text = Array.from({ length: 25 }, (_, n) => sentence(n + 1)).join('').trim();
  expect(text.length).toBeGreaterThan(1000);
  const box = page.getByLabel('Post text', { exact: true });
  await box.fill(text);
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Split into a thread' }).click();
  await expect(page.getByLabel('Post 1 of 3')).toBeVisible();
  const parts = [await page.getByLabel('Post 1 of 3').inputValue(), await part(page, 2).inputValue(), await part(page, 3).inputValue()];
  for (const p of parts) {
    expect(p.length).toBeLessThanOrEqual(500);
    expect(p.endsWith('day.'), 'cut after a sentence').toBe(true);
  }
  expect(parts.join(' ')).toBe(text);
  await expect(page.getByRole('button', { name: 'Split into a thread' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Post all 3' }).click();
  await expect.poll(async () => (await postsOf(page, me)).map((p) => p.content), { timeout: 20_000 }).toEqual(parts);
});

test('the network cut after part 2 of 4: the answer to part 3 is lost; the rest wait as one thread, then go: 4 posts, in order, each once', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  const texts = ['Part one.', 'Part two.', 'Part three.', 'Part four.'];
  let posts = 0;
  let cut = false;
  const keys: string[] = [];
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push(route.request().headers()['idempotency-key']);
    posts += 1;
    if (posts === 3) {
      // Part 3 reaches the server, its answer does not, and from then on
      // no post gets through until the cut ends.
      cut = true;
      await route.fetch().catch(() => {});
      return route.abort('internetdisconnected');
    }
    if (cut) return route.abort('internetdisconnected');
    return route.fallback();
  });
  await writeThread(page, texts);
  await page.getByRole('button', { name: 'Post all 4' }).click();
  // Never half a thread without saying so.
  await expect(threadCard(page)).toContainText('A thread of 4 posts. 2 of 4 sent.', { timeout: 20_000 });
  await expect(threadCard(page).locator('li')).toHaveText([/Post 3 of 4\s*Part three\./, /Post 4 of 4\s*Part four\./]);
  await expect(waitingCount(page)).toHaveText('1 waiting');
  // The outbox's list, as one item.
  await waitingCount(page).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(threadCard(page)).toHaveCount(1);
  await expect(threadCard(page)).toContainText('2 of 4 sent.');
  await expectAccessible(page);
  cut = false;
  await expect(waitingCount(page)).toHaveCount(0, { timeout: 60_000 });
  const sent = await postsOf(page, me);
  expect(sent.map((p) => p.content), '4 posts, in order, each once').toEqual(texts);
  for (let i = 1; i < 4; i++) expect(parentOf(sent[i])).toBe(sent[i - 1].uuid);
  // Part 3 went again (if at all) with its own key, never another's.
  expect(new Set(keys).size).toBe(4);
});

test('a refused part stops the parts after it, shown as one thread: Retry sends the rest; Discard takes what still waits', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  let refuse = true;
  await page.route('**/api/v1/post', async (route) => {
    const body = route.request().postData() ?? '';
    if (route.request().method() === 'POST' && refuse && body.includes('Part two')) {
      return route.fulfill({ status: 422, json: { _message: 'not this one' } });
    }
    return route.fallback();
  });
  await writeThread(page, ['Part one.', 'Part two.', 'Part three.']);
  await page.getByRole('button', { name: 'Post all 3' }).click();
  await expect(threadCard(page)).toContainText('1 of 3 sent.', { timeout: 20_000 });
  await expect(threadCard(page).locator('li').first().locator('.waiting-mark')).toHaveClass(/refused/);
  await expect(threadCard(page).locator('li').last().locator('.waiting-mark')).toHaveText('Waiting to send');
  expect((await postsOf(page, me)).map((p) => p.content)).toEqual(['Part one.']);
  refuse = false;
  await threadCard(page).getByRole('button', { name: 'Retry' }).click();
  await expect(threadCard(page)).toHaveCount(0, { timeout: 20_000 });
  expect((await postsOf(page, me)).map((p) => p.content)).toEqual(['Part one.', 'Part two.', 'Part three.']);

  // Refused again, and discarded: the parts after it go with it.
  refuse = true;
  await writeThread(page, ['Part one again.', 'Part two again.', 'Part three again.']);
  await page.getByRole('button', { name: 'Post all 3' }).click();
  await expect(threadCard(page)).toContainText('1 of 3 sent.', { timeout: 20_000 });
  await threadCard(page).getByRole('button', { name: 'Discard' }).click();
  await expect(threadCard(page)).toHaveCount(0);
  await expect(waitingCount(page)).toHaveCount(0);
  expect((await postsOf(page, me)).map((p) => p.content)).toEqual(['Part one.', 'Part two.', 'Part three.', 'Part one again.']);
});

test('with Undo send on, Undo takes the whole thread back into its boxes and nothing is sent', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  await page.evaluate(() => localStorage.setItem('perch.undo_send', 'on'));
  await page.reload();
  const sent: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/v1/post')) sent.push(r.url()); });
  await writeThread(page, ['Held one.', 'Held two.']);
  await page.getByRole('button', { name: 'Post all 2' }).click();
  await expect(threadCard(page)).toContainText('0 of 2 sent.');
  await threadCard(page).getByRole('button', { name: 'Undo' }).click();
  await expect(threadCard(page)).toHaveCount(0);
  await expect(page.getByLabel('Post 1 of 2')).toHaveValue('Held one.');
  await expect(part(page, 2)).toHaveValue('Held two.');
  expect(sent).toEqual([]);
  expect(await postsOf(page, me)).toEqual([]);
});

test('a thread in the drafts: said to be one; Discard takes every part, Undo brings every part back', async ({ page }) => {
  const me = newAccount('th');
  await signInWithToken(page, me);
  await writeThread(page, ['Draft one.', 'Draft two.', 'Draft three.']);
  await page.goto('/drafts');
  const item = page.locator('li.draft');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('A thread of 3 posts');
  await expect(item).toContainText('Draft one.');
  await item.getByRole('button', { name: /Discard/ }).click();
  await expect(item).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('perch.parts.')))).toEqual([]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(item).toContainText('A thread of 3 posts');
  await item.getByRole('link', { name: 'Continue' }).click();
  await expect(page.getByLabel('Post 1 of 3')).toHaveValue('Draft one.');
  await expect(part(page, 3)).toHaveValue('Draft three.');
  // Discarded for good: the composer is a single post's again.
  await page.goto('/drafts');
  await item.getByRole('button', { name: /Discard/ }).click();
  await page.goto('/');
  await expect(page.getByLabel('Post text', { exact: true })).toHaveValue('');
  await expect(part(page, 2)).toHaveCount(0);
});

test.describe('Arabic', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('perch.language', 'ar'));
  });

  test('a thread at 320 px in the dark, right to left: its boxes, and waiting as one card; axe finds nothing', async ({ page, context }) => {
    const me = newAccount('th');
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/signin');
    await page.locator('#access-token').fill(token(me));
    await page.locator('section:has(#with-token) button[type=submit]').click();
    await expect(page.locator('textarea#post-text')).toBeVisible();
    await page.locator('#post-text').fill('الجزء الأول.');
    await page.getByRole('button', { name: ar.add_another_post }).click();
    await part(page, 2).fill('الجزء الثاني.');
    const two = await page.evaluate(() => new Intl.NumberFormat('ar').format(2));
    await expect(page.locator('label[for="post-text-part-2"]')).toHaveText(ar.thread_part.two.replace('{index}', two).replace('{count}', two));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await context.setOffline(true);
    await page.getByRole('button', { name: ar.post_all.two }).click();
    await expect(threadCard(page)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await context.setOffline(false);
    await expect(threadCard(page)).toHaveCount(0, { timeout: 30_000 });
  });
});
