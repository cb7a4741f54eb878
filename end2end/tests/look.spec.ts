// The look as every reader meets it (issue 69): axe finds nothing at 320,
// 390, 1024 and 1280 px, light and dark, in English, German and Arabic, on
// Home with a card's "⋯" open and on a thread; and in forced colours
// (Windows high contrast) every control keeps a boundary of its own, the
// place shown and a pressed toggle marked by more than a colour.
import { test, expect, expectAccessible } from './fixtures';
import { follows, newAccount, signInWithToken } from './helpers';
import type { Page } from '@playwright/test';

const WIDTHS = [320, 390, 1024, 1280];
const SCHEMES = ['light', 'dark'] as const;

/** The first card's "⋯", opened. */
async function openMore(page: Page) {
  const more = page.locator('article.post').first().locator('.card-more');
  await more.locator('summary').click();
  await expect(more.locator('.card-menu')).toBeVisible();
  return more;
}

for (const language of ['en', 'de', 'ar']) {
  test(`axe finds nothing at every width, light and dark, in ${language}: Home with "⋯" open, a thread`, async ({ page }) => {
    test.slow();
    await signInWithToken(page, 'mira');
    await page.evaluate((code) => localStorage.setItem('perch.language', code), language);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('article.post').first()).toBeVisible();
    for (const width of WIDTHS) {
      for (const colorScheme of SCHEMES) {
        await test.step(`${width} px, ${colorScheme}`, async () => {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          await page.locator('html').evaluate(() => window.scrollTo(0, 0));
          const more = await openMore(page);
          await expectAccessible(page);
          await page.keyboard.press('Escape');
          await expect(more.locator('.card-menu')).toBeHidden();
          // A thread, opened from the card's time as a reader does.
          await page.locator('article.post').first().locator('.time-link').click();
          await expect(page).toHaveURL(/\/post\//);
          await expect(page.locator('article.post.focused')).toBeVisible();
          await expectAccessible(page);
          await page.goBack();
          await expect(page.locator('article.post').first()).toBeVisible();
        });
      }
    }
  });
}

test('in forced colours every control keeps a boundary; the place shown and a pressed Like are marked without colour', async ({ page }) => {
  // Icons only (800 px): where a control is nothing but its icon.
  await page.setViewportSize({ width: 800, height: 800 });
  await page.emulateMedia({ forcedColors: 'active' });
  const me = newAccount('fc');
  await follows(page, me, newAccount('fa'), ['Seen in high contrast']);
  await signInWithToken(page, me);
  await expect(page.locator('article.post').first()).toContainText('Seen in high contrast');
  const border = (selector: string) =>
    page.locator(selector).first().evaluate((e) => {
      const style = getComputedStyle(e);
      return { width: parseFloat(style.borderTopWidth), style: style.borderTopStyle };
    });
  const controls = [
    'nav a.place:not([aria-current])',
    'article.post .post-meta .reply-link, article.post .post-meta .reply-count',
    'article.post .post-meta .toggle.like',
    'article.post .post-meta .toggle.bookmark',
    'article.post .card-more > summary',
    '.account-menu summary',
  ];
  for (const selector of controls) {
    const seen = await border(selector);
    expect(seen.style, `${selector} has a border`).toBe('solid');
    expect(seen.width, `${selector} has a border`).toBeGreaterThanOrEqual(1);
  }
  const current = await border('nav a.place[aria-current=page]');
  expect(current.width, 'the place shown has a thicker border').toBeGreaterThanOrEqual(3);
  // A like pressed: its border and its filled icon say so.
  const like = page.locator('article.post').first().locator('.toggle.like');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  const fill = await like.locator('.icon').evaluate((e) => getComputedStyle(e).fill);
  expect(fill).not.toBe('none');
  expect((await border('article.post .toggle.like[aria-pressed=true]')).style).toBe('solid');
  // The menu's items too.
  await openMore(page);
  const item = await border('article.post .card-menu .menu-item');
  expect(item.style).toBe('solid');
  await expectAccessible(page);
});
