// The benchmarks sign in as a person would: the token form of /signin.
/** Signs `page` in at `base` with `token` and waits for the home page. */
export async function signIn(page, base, token) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Access token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
}
