// Any address anyone can write into a link: opened directly, or given as
// `?next=` to the sign-in page and reached after signing in, none may crash
// the app (a wasm panic kills it until a reload; the fixtures fail a test on
// any uncaught page error), and a `next=` never leads off the app's origin.
import { test, expect } from './fixtures';
import { token } from './helpers';

const ODD = [
  '/.', '/..', '/./', '/../', '/.//evil.example', '/..//evil.example', '/./evil.example', '/../evil.example',
  '/post/..', '/post/../signin', '/post/./x', '/user/@mira/..', '/user/@mira/./followers',
  '//evil.example', '///evil.example', '/post//x', '/user//@mira', '/%2F%2Fevil.example', '/%2fpost',
  '/%2e%2e/%2e%2e/etc', '/post/%2e%2e', '/%5cevil.example', '/\\evil.example', '/\\\\evil.example', '/post/\\x',
  '/post/%09x', '/post/\tx', '/post/%00', '/post/%', '/post/%E0%A4%A', '/post/%ZZ', '/user/%40', '/user/@',
  '/user/@%F0%9F%90%A6', '/user/@ünïcödé', '/user/@مرحبا', '/post/\u{1F426}', '/user/@mira/followers/extra/more',
  '/post/' + 'x'.repeat(5000), '/' + 'a/'.repeat(1000), '/user/@' + 'm'.repeat(3000), '/?next=//evil.example',
  '/signin?next=' + 'x'.repeat(5000), '/outbox/..', '/oauth/callback?code=x&state=y', '/oauth/callback?error=%ZZ',
  '/post/x#%ZZ', '/post/x?%ZZ=%ZZ', '/user/@mira?next=/..//evil.example',
];

test('no odd address crashes the app, opened directly', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  for (const path of ODD) {
    // Joined as text: page.goto would read `//host` as another site.
    await page.goto(baseURL + path);
    await expect(page.locator('h1').first(), path).toBeVisible();
  }
});

test('no odd next= crashes the app after a sign-in, nor leaves the app', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const tok = token('mira');
  for (const next of ODD) {
    // Signed out without revoking the token, so the same one signs in again.
    await page.goto('/signin');
    await page.evaluate(() => localStorage.removeItem('perch.session'));
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Access token', { exact: true }).fill(tok);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await expect(page.getByLabel('Access token', { exact: true }), next).toHaveCount(0);
    await expect(page.locator('h1').first(), next).toBeVisible();
    expect(new URL(page.url()).origin, next).toBe(new URL(baseURL!).origin);
    expect(new URL(page.url()).pathname.startsWith('//'), next).toBe(false);
  }
});
