// Hide replies (issue 68, point 5; Elk's "Wellbeing"): a setting per
// account, kept in this browser, for Home and for each list on its own.
// A timeline that hides them shows and counts only posts that answer no
// one.
import { test, expect } from './fixtures';
import { api, call, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const feed = (page: Page) => page.getByRole('feed', { name: 'Timeline' });

/** A new account following a new author who wrote `post` and a reply to it. */
async function readerOfAReply(page: Page, post: string, reply: string) {
  const me = newAccount('hr');
  const author = newAccount('ha');
  const authorUuid = (await api(page, token(author), '/user')).uuid;
  await call(page, token(me), 'POST', `/user/${authorUuid}/follow`);
  const top = await call(page, token(author), 'POST', '/post', { content: post });
  await call(page, token(author), 'POST', '/post', { content: reply, parent: top.uuid });
  return { me, author, top };
}

test('replies hidden on Home stay hidden after a reload, the new-post count follows, and a list keeps its own choice', async ({ page }) => {
  const { me, author, top } = await readerOfAReply(page, 'A post that answers no one', 'A reply in a conversation');
  await signInWithToken(page, me);
  await expect(feed(page).getByText('A reply in a conversation')).toBeVisible();

  // Settings: Home hides replies.
  await page.goto('/settings');
  const home = page.getByRole('checkbox', { name: 'Hide replies on Home' });
  await expect(home).not.toBeChecked();
  await home.check();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(feed(page).getByText('A post that answers no one')).toBeVisible();
  await expect(feed(page).getByText('A reply in a conversation')).toHaveCount(0);
  await page.reload();
  await expect(feed(page).getByText('A post that answers no one')).toBeVisible();
  await expect(feed(page).getByText('A reply in a conversation')).toHaveCount(0);
  await expect(feed(page).getByRole('article')).toHaveCount(1);

  // What is new counts what would show: a reply and a post make "1 new post".
  await call(page, token(author), 'POST', '/post', { content: 'Another reply, not counted', parent: top.uuid });
  await call(page, token(author), 'POST', '/post', { content: 'Another post that answers no one' });
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByRole('button', { name: 'Show 1 new post' })).toBeVisible();
  await page.getByRole('button', { name: 'Show 1 new post' }).click();
  await expect(feed(page).getByText('Another post that answers no one')).toBeVisible();
  await expect(feed(page).getByText('Another reply, not counted')).toHaveCount(0);

  // A list of the same author shows its replies until it is asked not to.
  await page.goto('/lists');
  await page.getByLabel('New list').fill('Authors');
  await page.getByRole('button', { name: 'Make the list' }).click();
  await page.getByRole('link', { name: 'Authors' }).click();
  await page.getByLabel('Add someone to this list').fill(`@${author}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(feed(page).getByText('A reply in a conversation')).toBeVisible();
  const list = page.getByRole('checkbox', { name: 'Hide replies in this list' });
  await expect(list).not.toBeChecked();
  await list.check();
  await expect(feed(page).getByText('A reply in a conversation')).toHaveCount(0);
  await expect(feed(page).getByText('A post that answers no one')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Hide replies in this list' })).toBeChecked();
  await expect(feed(page).getByText('A post that answers no one')).toBeVisible();
  await expect(feed(page).getByText('A reply in a conversation')).toHaveCount(0);

  // Home's choice is its own: shown again there, the list's stays.
  await page.goto('/settings');
  await page.getByRole('checkbox', { name: 'Hide replies on Home' }).uncheck();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(feed(page).getByText('A reply in a conversation')).toBeVisible();
});

test('replies hidden in one tab leave Home in the other at once', async ({ page, context }) => {
  const { me } = await readerOfAReply(page, 'Said to no one in particular', 'An answer in the other tab test');
  await signInWithToken(page, me);
  await expect(feed(page).getByText('An answer in the other tab test')).toBeVisible();
  const other = await context.newPage();
  await other.goto('/settings');
  await other.getByRole('checkbox', { name: 'Hide replies on Home' }).check();
  await expect(feed(page).getByText('An answer in the other tab test')).toHaveCount(0);
  await expect(feed(page).getByText('Said to no one in particular')).toBeVisible();
  await other.getByRole('checkbox', { name: 'Hide replies on Home' }).uncheck();
  await expect(feed(page).getByText('An answer in the other tab test')).toBeVisible();
  await other.close();
});
