// Where keyboard focus goes, as Pinafore does it: into the edit box and back
// to Edit, to the next post after a delete, back to the opened post after
// Back; refusals said in words; the counter heard at thresholds only.
import { test, expect } from './fixtures';
import { ownAction, signInWithOAuth, signInWithToken, token } from './helpers';

async function ownPost(page: any, user: string, content: string): Promise<string> {
  const res = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token(user)}` }, data: { content } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).uuid;
}

test('Edit in "⋯" focuses the edit box; Save and Cancel give focus back to "⋯"', async ({ page }) => {
  await signInWithToken(page, 'tomas');
  const uuid = await ownPost(page, 'tomas', 'focus me while editing');
  await page.goto(`/post/${uuid}`);
  const card = page.locator('article.focused');
  const more = card.locator(':scope > header details.card-more > summary');
  await ownAction(card, 'Edit');
  const box = card.getByLabel('Edit post text');
  await expect(box).toBeFocused();
  await expect(card.locator('.card-menu'), 'the menu closed').toBeHidden();
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(more).toBeFocused();

  // By the keyboard alone: Enter opens "⋯", Tab reaches Edit.
  await more.press('Enter');
  await expect(card.locator('.card-menu')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(card.locator('.card-menu').getByRole('button', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(box).toBeFocused();
  await box.fill('focus me while editing, edited');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.locator('.post-content')).toHaveText('focus me while editing, edited');
  await expect(more).toBeFocused();
  await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${token('tomas')}` } });
});

test('Delete moves focus to the next post of the list, or the one before', async ({ page }) => {
  await signInWithToken(page, 'arjun');
  const older = await ownPost(page, 'arjun', 'older of two, stays');
  const newer = await ownPost(page, 'arjun', 'newer of two, deleted');
  await page.goto('/user/@arjun');
  const feed = page.getByRole('feed', { name: 'Posts' });
  const doomed = feed.locator(`article[data-uuid="${newer}"]`);
  await ownAction(doomed, 'Delete');
  // The question has the focus: its answer is one key away.
  await expect(doomed.getByRole('button', { name: 'Delete post' })).toBeFocused();
  await doomed.getByRole('button', { name: 'Delete post' }).click();
  await expect(feed.locator(`article[data-uuid="${newer}"]`)).toHaveCount(0);
  await expect(feed.locator(`article[data-uuid="${older}"]`)).toBeFocused();
  await page.request.delete(`/api/v1/post/${older}`, { headers: { Authorization: `Bearer ${token('arjun')}` } });
});

test('Back returns focus to the post that was opened', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/user/@yuki');
  const feed = page.getByRole('feed', { name: 'Posts' });
  const third = feed.getByRole('article').nth(2);
  const uuid = await third.getAttribute('data-uuid');
  await third.locator('a.time-link').click();
  await expect(page).toHaveURL(new RegExp(`/post/${uuid}$`));
  await page.goBack();
  await expect(feed.locator(`article[data-uuid="${uuid}"]`)).toBeFocused();
});

test('a refused action says why in words when pressed, and stays reachable', async ({ page }) => {
  await signInWithOAuth(page, 'olga', [/like and unlike posts/]);
  await page.goto('/user/@sam');
  const card = page.getByRole('feed', { name: 'Posts' }).getByRole('article').first();
  const like = card.getByRole('button', { name: /^Like/ });
  await expect(like).toHaveAttribute('aria-disabled', 'true');
  const pressed = await like.getAttribute('aria-pressed');
  await like.focus();
  await expect(like).toBeFocused();
  await like.press('Enter');
  await expect(card.getByRole('status')).toContainText('post.like');
  await expect(like, 'nothing was sent').toHaveAttribute('aria-pressed', pressed!);
});

test('the counter is heard near the limit, not on every keystroke', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const box = page.getByLabel('Post text');
  const live = page.locator('.composer [aria-live]');
  await expect(live).toHaveCount(1);
  await box.fill('a'.repeat(100));
  await expect(page.locator('.composer .counter')).toHaveText('400 left');
  await expect(live).toHaveText('');
  await box.fill('a'.repeat(480));
  await expect(live).toHaveText('20 left');
  await box.fill('a'.repeat(485));
  await expect(page.locator('.composer .counter')).toHaveText('15 left');
  await expect(live, 'same stretch: nothing new is said').toHaveText('20 left');
  await box.fill('a'.repeat(502));
  await expect(live).toHaveText('2 over');
  await box.fill('');
  await expect(live).toHaveText('');
});
