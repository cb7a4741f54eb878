// One search (issue 69, point 2): the navigation's Search is the only box;
// `@name` and Enter go to that person, a name no one has is said next to
// the box and what was typed stays; `/` brings it from any page.
import { test, expect } from './fixtures';
import { signInWithToken } from './helpers';

test('Search is the one box: `/` brings it, `@name` and Enter go to the person, a name no one has is said', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await expect(page.locator('article.post').first()).toBeVisible();
  // No second search in the header.
  await expect(page.getByRole('search')).toHaveCount(0);
  await expect(page.getByRole('searchbox')).toHaveCount(0);

  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/search$/);
  const box = page.getByRole('searchbox', { name: 'Search posts and people read on this device' });
  await expect(box).toBeFocused();
  await expect(page.getByRole('search')).toHaveCount(1);

  await box.fill('@nobody-by-this-name');
  await expect(page.locator('.lookup-note')).toHaveText('No one is called @nobody-by-this-name on this server.');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=/);
  await expect(box, 'what was typed stays, to be corrected').toHaveValue('@nobody-by-this-name');

  await box.fill('  @yuki ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/user\/@yuki$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Yuki');
  // Back comes to the search as it was left.
  await page.goBack();
  await expect(box).toHaveValue('  @yuki ');
});

test('`/` brings the search from a profile too, and Enter on words only searches', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/user/@yuki');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Yuki');
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search posts and people read on this device' });
  await expect(box).toBeFocused();
  await box.fill('two words');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=two%20words$/);
});
