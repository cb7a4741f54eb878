// The app shell as a person meets it: served by the real server, every route
// renders a page, links move between them, and the unknown is "not found".
import { test, expect, expectAccessible } from './fixtures';
import { api, signInWithToken, token } from './helpers';

test('the home page loads from the server with a title and a heading', async ({ page, visit }) => {
  await visit('/');
  await expect(page).toHaveTitle('Home · Perch');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('following a link changes the page without reloading it', async ({ page, visit }) => {
  await visit('/');
  await page.evaluate(() => ((window as any).__sameDocument = true));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page).toHaveTitle('Sign in · Perch');
  expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
  await expectAccessible(page);
});

for (const [path, kind, heading] of [
  ['/post/0b0c2d1e', 'thread', 'Post'],
  ['/user/@ada', 'profile', 'Profile'],
  ['/user/@ada/followers', 'user-list', 'Followers of @ada'],
  ['/user/@ada/following', 'user-list', 'Followed by @ada'],
  ['/oauth/callback', 'callback', 'Signing in'],
]) {
  test(`a direct load of ${path} signed out renders its own page`, async ({ page, visit }) => {
    await visit(path);
    await expect(page.locator(`main.page.${kind}`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  });
}

test('direct loads of real addresses, signed in, show what they name', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const tok = token('mira');
  const mira = await api(page, tok, '/user/@mira');
  const { posts } = await api(page, tok, `/user/${mira.uuid}/posts/1`);
  const post = posts[0];
  const followers = (await api(page, tok, `/user/${mira.uuid}/followers`)).followers;
  const following = (await api(page, tok, `/user/${mira.uuid}/following`)).following;
  expect(followers.length * following.length, 'the demo gives mira both').toBeGreaterThan(0);
  const main = page.getByRole('main');

  await page.goto(`/post/${post.uuid}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Post by ${mira.display_name}`);
  await expect(page.locator(`article.focused[data-uuid="${post.uuid}"]`)).toContainText(post.content.slice(0, 40));
  await expectAccessible(page);

  await page.goto('/user/@mira');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(mira.display_name);
  await expect(main.getByRole('feed', { name: 'Posts' }).locator(`article[data-uuid="${post.uuid}"]`)).toBeVisible();

  await page.goto('/user/@mira/followers');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followers of @mira');
  await expect(main.locator('ul.user-list > li')).toHaveCount(followers.length);

  await page.goto('/user/@mira/following');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followed by @mira');
  await expect(main.locator('ul.user-list > li')).toHaveCount(following.length);
  await expect(main.getByRole('button', { name: 'Following' })).toHaveCount(following.length);
});

test('an unknown address shows the not-found page with a way home', async ({ page, visit }) => {
  await visit('/this/leads/nowhere');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await page.getByRole('link', { name: 'Go to your home timeline' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
});

test('the skip link moves keyboard users to the content', async ({ page, visit }) => {
  await visit('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('a host that forgot config.json gets a page saying what to fix', async ({ page }) => {
  // Simulates a static host without the file; everything else is real.
  await page.route('**/config.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Perch cannot start');
  await expect(page.getByRole('alert')).toContainText('404');
  await expect(page.getByText('"api_base"')).toBeVisible();
});
