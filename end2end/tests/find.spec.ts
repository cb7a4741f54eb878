// Find someone, in the header: an exact username lookup (the interface has
// no search), the profile when someone has that name, and plain words next
// to the field when no one has.
import { test, expect } from './fixtures';
import { signInWithToken } from './helpers';

test('Find someone goes to the profile, or says no one has that name', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const find = page.getByRole('search', { name: 'Find someone' });
  const field = find.getByRole('searchbox', { name: 'Username to find' });

  await field.fill('nobody-by-this-name');
  await field.press('Enter');
  await expect(find.getByRole('status')).toHaveText('No one is called @nobody-by-this-name on this server.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field, 'what was typed stays, to be corrected').toHaveValue('nobody-by-this-name');
  await expect(page).toHaveURL(/\/$/);

  await field.fill('two words');
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(find.getByRole('status')).toHaveText('A username has no spaces.');
  // Typing again clears the complaint.
  await field.fill('@yuk');
  await expect(find.getByRole('status')).toHaveText('');
  await expect(field).toHaveAttribute('aria-invalid', 'false');

  await field.fill('  @yuki ');
  await field.press('Enter');
  await expect(page).toHaveURL(/\/user\/@yuki$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Yuki');
  await expect(field).toHaveValue('');
});

test('the field fits a 320 px screen on a row of its own', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signInWithToken(page, 'mira');
  const field = page.getByRole('search', { name: 'Find someone' }).getByRole('searchbox');
  await expect(field).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('signed out, Find someone leads to the profile, which asks to sign in', async ({ page }) => {
  await page.goto('/');
  const field = page.getByRole('search', { name: 'Find someone' }).getByRole('searchbox');
  await field.fill('@yuki');
  await field.press('Enter');
  await expect(page).toHaveURL(/\/user\/@yuki$/);
  await expect(page.getByText('Sign in to read this.')).toBeVisible();
});
