// The app shell as a person meets it: served by the real server, every route
// renders a page, links move between them, and the unknown is "not found".
import { test, expect, expectAccessible } from './fixtures';

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

for (const [path, kind] of [
  ['/post/0b0c2d1e', 'thread'],
  ['/user/@ada', 'profile'],
  ['/user/@ada/followers', 'user-list'],
  ['/user/@ada/following', 'user-list'],
  ['/oauth/callback', 'callback'],
]) {
  test(`a direct load of ${path} renders its page`, async ({ page, visit }) => {
    await visit(path);
    await expect(page.locator(`main.page.${kind}`)).toBeVisible();
  });
}

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
