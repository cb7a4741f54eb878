// Bookmarks (issue 46, point 1): per account, kept in this browser only,
// with each post's text, so /bookmarks reads offline and after the local
// copy is emptied; the text follows the post when it is read again; a post
// deleted on the server shows as deleted with its kept text; tabs follow
// each other; sign-out asks about them. Each test makes its own accounts.
import { test, expect, expectAccessible } from './fixtures';
import { call, follows, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const timeline = (page: Page) => page.getByRole('feed', { name: 'Timeline' });
const bookmarked = (page: Page) => page.getByRole('feed', { name: 'Bookmarks' });
const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });

/** What this browser keeps for the signed-in account: each bookmark's post uuid, text and whether gone. */
async function kept(page: Page) {
  return page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('perch.session')!);
    const all = JSON.parse(localStorage.getItem(`perch.bookmarks.${session.user.uuid}`) ?? '[]');
    return all.map((b: any) => ({ uuid: b.post.uuid, content: b.post.content, gone: !!b.gone }));
  });
}

test('a bookmark from a card and from the b key: pressed, newest first on /bookmarks, kept with its text, in every tab; unbookmarking offers Undo', async ({ page, context }) => {
  const me = newAccount('bm');
  const author = newAccount('ba');
  const [first, second] = await follows(page, me, author, ['The first post to keep.', 'The second post to keep.']);
  await signInWithToken(page, me);
  await expect(timeline(page).getByText('The second post to keep.')).toBeVisible();

  const button = card(page, 'The first post to keep.').getByRole('button', { name: 'Bookmark' });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => kept(page)).toEqual([{ uuid: first.uuid, content: 'The first post to keep.', gone: false }]);

  // The b key on the focused card.
  await card(page, 'The second post to keep.').focus();
  await page.keyboard.press('b');
  await expect(card(page, 'The second post to keep.').getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await kept(page)).map((b: any) => b.uuid)).toEqual([second.uuid, first.uuid]);

  // Another tab shows them pressed, and follows a change made here.
  const other = await context.newPage();
  await other.goto('/bookmarks');
  await expect(bookmarked(other).getByRole('article')).toHaveCount(2);
  await expect(bookmarked(other).getByRole('article').first()).toContainText('The second post to keep.');
  await expect(other.getByText('The server is never told')).toBeVisible();
  await expectAccessible(other);
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect(bookmarked(other).getByRole('article')).toHaveCount(1);

  // Unbookmarking on /bookmarks takes the post away, with Undo, which puts it back at its place.
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('link', { name: 'Bookmarks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bookmarks' })).toBeVisible();
  await expect(bookmarked(page).getByRole('article')).toHaveCount(1);
  await bookmarked(page).getByRole('button', { name: 'Bookmark' }).click();
  await expect(bookmarked(page).getByRole('article')).toHaveCount(0);
  await expect(page.getByText('No bookmarks yet.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Bookmark removed.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeFocused();
  // None left: no empty feed (axe: a feed must hold articles).
  await expect(page.getByRole('feed')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(bookmarked(page).getByRole('article')).toHaveCount(1);
  await expect(bookmarked(page)).toContainText('The second post to keep.');
  expect((await kept(page)).map((b: any) => b.uuid)).toEqual([second.uuid]);
});

test.describe('offline', () => {
test.use({ serviceWorkers: 'allow' });

test('a bookmark keeps the text as last read, reads offline and after the local copy is emptied, and shows a post deleted on the server as deleted', async ({ page, context }) => {
  test.setTimeout(120_000);
  const me = newAccount('bo');
  const author = newAccount('bw');
  const [post, doomed] = await follows(page, me, author, ['Before the edit.', 'This one will be deleted.']);
  await signInWithToken(page, me);
  for (const text of ['Before the edit.', 'This one will be deleted.']) {
    await card(page, text).getByRole('button', { name: 'Bookmark' }).click();
  }
  await expect.poll(async () => (await kept(page)).length).toBe(2);

  // The author edits one and deletes the other; reading them again brings both in.
  await call(page, token(author), 'PATCH', `/post/${post.uuid}`, { content: 'After the edit.' });
  await call(page, token(author), 'DELETE', `/post/${doomed.uuid}`);
  await page.goto(`/post/${post.uuid}`);
  await expect(page.getByText('After the edit.')).toBeVisible();
  await expect.poll(() => kept(page)).toContainEqual({ uuid: post.uuid, content: 'After the edit.', gone: false });
  await page.goto('/bookmarks');
  const gone = bookmarked(page).getByRole('article').filter({ hasText: 'This post was deleted.' });
  await expect(gone).toContainText('This one will be deleted.');
  await expect.poll(() => kept(page)).toContainEqual({ uuid: doomed.uuid, content: 'This one will be deleted.', gone: true });

  // The local copy emptied, then offline: the bookmarks page reads from what was kept.
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBeTruthy();
  await page.goto('/settings');
  await expect(page.getByText(/Local copy of what you read|No local copy is kept now/)).toBeVisible();
  if (await page.getByText('Local copy of what you read').isVisible()) {
    await page.getByRole('button', { name: 'Empty the local copy' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The local copy is empty.' })).toBeVisible();
  }
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('No local copy is kept now.')).toBeVisible();
  await page.goto('/bookmarks');
  await expect(page.getByRole('heading', { level: 1, name: 'Bookmarks' })).toBeVisible();
  await expect(bookmarked(page)).toContainText('After the edit.');
  await expect(gone).toContainText('This one will be deleted.');
  await context.setOffline(false);

  // Remove bookmark on the deleted one.
  await gone.getByRole('button', { name: 'Remove bookmark' }).click();
  await expect(bookmarked(page).getByRole('article')).toHaveCount(1);
  expect((await kept(page)).map((b: any) => b.uuid)).toEqual([post.uuid]);
});
});

test('sign-out names the bookmarks: kept for the next sign-in, or removed; another account has its own', async ({ page }) => {
  const me = newAccount('bs');
  const author = newAccount('bt');
  await follows(page, me, author, ['A post worth keeping.']);
  await signInWithToken(page, me);
  await card(page, 'A post worth keeping.').getByRole('button', { name: 'Bookmark' }).click();
  await expect.poll(async () => (await kept(page)).length).toBe(1);
  const uuid = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid);

  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: `Sign out of @${me}` }).click();
  const question = page.getByRole('group', { name: 'Bookmarks' });
  await expect(question).toContainText('1 bookmark would go with it.');
  await question.getByRole('button', { name: 'Keep them for the next sign-in' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  expect(await page.evaluate((u) => localStorage.getItem(`perch.bookmarks.${u}`), uuid)).not.toBeNull();

  // Another account here has none.
  const other = newAccount('bu');
  await signInWithToken(page, other);
  await page.goto('/bookmarks');
  await expect(page.getByText('No bookmarks yet.')).toBeVisible();

  // Back as the first account: still there; signing out with Discard removes them.
  await signInWithToken(page, me);
  await page.goto('/bookmarks');
  await expect(bookmarked(page)).toContainText('A post worth keeping.');
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: `Sign out of @${me}` }).click();
  await expect(question).toContainText('1 bookmark would go with it.');
  await question.getByRole('button', { name: 'Discard them' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await expect.poll(() => page.evaluate((u) => localStorage.getItem(`perch.bookmarks.${u}`), uuid).catch(() => 'navigating')).toBeNull();
});

test('a hostile list of bookmarks from another tab changes nothing and breaks nothing', async ({ page }) => {
  const me = newAccount('bh');
  const author = newAccount('bi');
  await follows(page, me, author, ['A post to bookmark after.']);
  await signInWithToken(page, me);
  const uuid = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid);
  const set = (value: string) => page.evaluate(([u, v]) => localStorage.setItem(`perch.bookmarks.${u}`, v), [uuid, value]);
  const get = () => page.evaluate((u) => localStorage.getItem(`perch.bookmarks.${u}`), uuid);
  const button = () => card(page, 'A post to bookmark after.').getByRole('button', { name: 'Bookmark' });

  // Not a list: nothing is shown, and a bookmark is refused rather than written over it, and says so.
  await set('{"post": "not a list"}');
  await page.goto('/bookmarks');
  await expect(page.getByText('No bookmarks yet.')).toBeVisible();
  await page.goto('/');
  await button().click();
  await expect(card(page, 'A post to bookmark after.').getByRole('alert')).toContainText('Could not keep the bookmark');
  await expect(button()).toHaveAttribute('aria-pressed', 'false');
  expect(await get()).toBe('{"post": "not a list"}');

  // A list with an entry that is no bookmark: the entry is left out, never drawn as markup; a new bookmark is kept beside it.
  const hostile = JSON.stringify([{ post: { uuid: 'x', content: '<img src=x onerror=alert(1)>' }, at: 'soon' }]);
  await set(hostile);
  await page.reload();
  await button().click();
  await expect(button()).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/bookmarks');
  await expect(bookmarked(page).getByRole('article')).toHaveCount(1);
  await expect(bookmarked(page)).toContainText('A post to bookmark after.');
  await expect(page.locator('img[src=x]')).toHaveCount(0);
});
