// The app hosted on another origin than the API, by a plain static file
// server (static-host.mjs), as the README's "Hosting the app yourself" says:
// sign-in through the server's consent page comes back to the app's origin,
// a pasted token works, and deep links open their pages.
import { test, expect } from './fixtures';
import { api, token } from './helpers';

const host = `http://127.0.0.1:${Number(process.env.PERCH_E2E_PORT ?? 8091) + 1}`;

test('sign in with OAuth from an app on another origin, and open deep links', async ({ page }) => {
  await page.goto(`${host}/signin`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Perch' })).toBeVisible();
  await page.getByLabel('Username').fill('mira');
  await page.getByLabel('Password').fill('perch-demo');
  // The consent page's form-action must let the redirect back to the app's origin through.
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(host);
  await expect(page.getByRole('feed', { name: 'Timeline' }).getByRole('article').first()).toBeVisible();

  const post = (await api(page, token('sam'), '/user/@sam/posts/1')).posts[0];
  await page.goto(`${host}/post/${post.uuid}`);
  await expect(page.locator('article.focused')).toContainText(post.content.slice(0, 20));
  await page.goto(`${host}/user/@sam/followers`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followers of @sam');

  // Sign-out reaches the API on its origin and revokes the tokens.
  const signed = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!));
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect
    .poll(async () => (await page.request.get('/api/v1/user', { headers: { Authorization: `Bearer ${signed.token}` } })).status())
    .toBe(401);
});

test('sign in with a token on an app hosted on another origin', async ({ page }) => {
  await page.goto(`${host}/signin`);
  await page.getByLabel('Access token', { exact: true }).fill(token('tomas'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await page.goto(`${host}/user/@tomas`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Tom/);
});
