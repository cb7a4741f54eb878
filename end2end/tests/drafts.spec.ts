// Drafts in one place (issue 46, point 2): /drafts lists every unsent draft
// of the account (the new post, a reply with the post it answers, an edit
// with its post), each with its first words and how long ago; Continue
// opens it where it was written; Discard asks nothing and offers Undo; the
// composer links to the others; tabs follow each other. Each test makes
// its own accounts.
import { test, expect, expectAccessible } from './fixtures';
import { call, follows, newAccount, ownAction, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

/** The drafts this browser keeps for the signed-in account: their texts, without when they were typed. */
async function keptDrafts(page: Page) {
  return page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('perch.session')!);
    const prefix = `perch.draft.${session.user.uuid}.`;
    return Object.keys(localStorage).filter((k) => k.startsWith(prefix)).sort()
      .map((k) => [k.slice(prefix.length).split('.')[0], localStorage.getItem(k)!.replace(/^\u0000\d+\u0000/, '')]);
  });
}

test('every draft in one place: a new post, a reply and an edit, continued where they were written, discarded with Undo, in every tab', async ({ page, context }) => {
  const me = newAccount('dr');
  const author = newAccount('da');
  const [theirs] = await follows(page, me, author, ['A post to answer later.']);
  const mine = await call(page, token(me), 'POST', '/post', { content: 'My post as it was.' });
  await signInWithToken(page, me);

  // Three drafts: a new post, a reply, an edit.
  await page.getByLabel('Post text', { exact: true }).fill('A new post, half written');
  await page.goto(`/post/${theirs.uuid}`);
  await page.getByLabel('Post text', { exact: true }).fill('My answer, not sent yet');
  await page.goto(`/post/${mine.uuid}`);
  await ownAction(page.getByRole('article').filter({ hasText: 'My post as it was.' }), 'Edit');
  await page.locator('textarea[id^="edit-"]').fill('My post, changed but not saved');
  await expect.poll(async () => (await keptDrafts(page)).length).toBe(3);

  // The composer names the others.
  await page.goto('/');
  await expect(page.getByLabel('Post text', { exact: true })).toHaveValue('A new post, half written');
  await expect(page.getByRole('link', { name: '2 other drafts' })).toBeVisible();
  await page.getByRole('link', { name: '2 other drafts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();
  const items = page.locator('.draft');
  await expect(items).toHaveCount(3);
  // Newest first, each with what it is, its words and how long ago.
  await expect(items.nth(0)).toContainText('Edit of your post');
  await expect(items.nth(0)).toContainText('My post, changed but not saved');
  await expect(items.nth(1)).toContainText(`Reply to @${author}`);
  await expect(items.nth(1)).toContainText('My answer, not sent yet');
  await expect(items.nth(2)).toContainText('New post');
  await expect(items.nth(2).locator('time')).toHaveText(/just now|minute/);
  await expect(page.getByText('The server is never told')).toBeVisible();
  await expectAccessible(page);

  // Another tab on /drafts follows what this one does.
  const other = await context.newPage();
  await other.goto('/drafts');
  await expect(other.locator('.draft')).toHaveCount(3);

  // Discard asks nothing and offers Undo, which brings it back.
  await items.nth(1).getByRole('button', { name: /^Discard the draft “My answer/ }).click();
  await expect(items).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeFocused();
  await expect(other.locator('.draft')).toHaveCount(2);
  expect((await keptDrafts(page)).map((d) => d[0])).toEqual(['edit', 'new']);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(items).toHaveCount(3);
  await expect(other.locator('.draft')).toHaveCount(3);
  expect((await keptDrafts(page)).map((d) => d[1]).sort()).toEqual(['A new post, half written', 'My answer, not sent yet', 'My post, changed but not saved']);

  // Continue opens each where it was written.
  await items.filter({ hasText: 'My answer' }).getByRole('link', { name: 'Continue' }).click();
  await expect(page.getByRole('textbox', { name: 'Post text', exact: true })).toHaveValue('My answer, not sent yet');
  await page.goto('/drafts');
  await items.filter({ hasText: 'changed but not saved' }).getByRole('link', { name: 'Continue' }).click();
  await expect(page.locator('textarea[id^="edit-"]')).toHaveValue('My post, changed but not saved');

  // Sent, a draft leaves the list.
  await page.goto(`/post/${theirs.uuid}`);
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(page.getByText('My answer, not sent yet').first()).toBeVisible();
  await page.goto('/drafts');
  await expect(items).toHaveCount(2);
  await expect(page.getByText('My answer, not sent yet')).toHaveCount(0);
});

test('a draft discarded in another tab leaves every composer that held it, shown or not, and the counts follow', async ({ page, context }) => {
  const me = newAccount('dx');
  const author = newAccount('dy');
  const [theirs] = await follows(page, me, author, ['Something to answer.']);
  await signInWithToken(page, me);
  await page.goto(`/post/${theirs.uuid}`);
  await page.getByLabel('Post text', { exact: true }).fill('An answer kept');
  await page.goto('/');
  const box = page.getByLabel('Post text', { exact: true });
  await box.fill('A new post, to be discarded elsewhere');
  await expect.poll(async () => (await keptDrafts(page)).length).toBe(2);
  // Tab A goes to /drafts by the composer's link: the same visit, Home's composer not shown.
  await page.getByRole('link', { name: '1 other draft' }).click();
  await expect(page.locator('.draft')).toHaveCount(2);
  // Tab B discards the new post's draft; tab A's list follows.
  const other = await context.newPage();
  await other.goto('/drafts');
  await other.locator('.draft').filter({ hasText: 'New post' }).getByRole('button', { name: /^Discard the draft/ }).click();
  await expect(page.locator('.draft')).toHaveCount(1);
  // Back on Home in tab A: the box is empty, the count names the one left.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(box).toHaveValue('');
  await expect(page.getByRole('link', { name: '1 other draft' })).toBeVisible();
  // Typing starts a draft of its own: the discarded text does not come back.
  await box.pressSequentially('Fresh');
  await expect.poll(async () => (await keptDrafts(page)).map(([, text]) => text).sort()).toEqual(['An answer kept', 'Fresh']);
  await other.close();
});
