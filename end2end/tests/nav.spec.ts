// The navigation (issue 69, point 1): every place in a rail beside the
// column with its icon and name from 1024 px, icons only with their names
// as tooltips from 640 px, a tab bar along the foot of a phone's screen with
// Write above it; the rail on the right in Arabic; Drafts with its count;
// Write opens Home's composer from any page.
import { test, expect, expectAccessible } from './fixtures';
import { call, follows, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const PLACES = ['Home', 'Activity', 'Search', 'Lists', 'Bookmarks', 'Drafts', 'Profile', 'Settings'];
const box = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => {
  const r = e.getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
});

test('from 1024 px every place is in a rail beside the column, with its icon and its name, the account at its foot', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 800 });
  await signInWithToken(page, 'mira');
  await expect(page.locator('article.post').first()).toBeVisible();
  for (const name of PLACES) {
    const place = nav(page).getByRole('link', { name, exact: true });
    await expect(place).toBeVisible();
    await expect(place.locator('svg.icon use')).toHaveCount(1);
    await expect(place.locator('.place-label')).toHaveText(name);
  }
  const rail = await box(page, 'header.site-header');
  const column = await box(page, 'main#main');
  expect(rail.right, 'the rail ends before the column begins').toBeLessThanOrEqual(column.left);
  expect(column.left - rail.right, 'and stands beside it').toBeLessThan(64);
  // The group is centred: as much room on each side.
  expect(Math.abs(rail.left - (1200 - column.right))).toBeLessThan(24);
  const account = await box(page, '.account-menu summary');
  expect(account.bottom, 'the account at the rail\'s foot').toBeGreaterThan(800 - 80);
  await expect(page.getByRole('button', { name: 'Write' })).toBeVisible();
  // The place shown is marked for everyone.
  await expect(nav(page).getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
  await nav(page).getByRole('link', { name: 'Lists', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lists');
  await expect(nav(page).getByRole('link', { name: 'Lists', exact: true })).toHaveAttribute('aria-current', 'page');
  // The account menu opens beside the rail, on screen.
  await page.locator('.account-menu summary').click();
  const panel = await box(page, '.account-panel');
  expect(panel.left).toBeGreaterThanOrEqual(rail.right);
  expect(panel.bottom).toBeLessThanOrEqual(800);
  await expectAccessible(page);
});

test('from 640 px the rail shows icons, each with its name as the link\'s name and as a tooltip on focus', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 800 });
  await signInWithToken(page, 'mira');
  await expect(page.locator('article.post').first()).toBeVisible();
  const lists = nav(page).getByRole('link', { name: 'Lists', exact: true });
  await expect(lists).toBeVisible();
  const tip = lists.locator('.place-label');
  await expect(tip).toHaveCSS('opacity', '0');
  expect((await box(page, 'header.site-header')).width).toBeLessThan(90);
  // By the keyboard, as a person moving through the rail would.
  await nav(page).getByRole('link', { name: 'Search', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(lists).toBeFocused();
  await expect(tip).toHaveCSS('opacity', '1');
  const [link, label] = [await lists.boundingBox(), await tip.boundingBox()];
  expect(label!.x, 'the tooltip beside the icon').toBeGreaterThanOrEqual(link!.x + link!.width);
  const rail = await box(page, 'header.site-header');
  expect(rail.right).toBeLessThanOrEqual((await box(page, 'main#main')).left);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test('under 640 px the places are a tab bar along the foot, and Write opens Home\'s composer from any page', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInWithToken(page, 'mira');
  await page.goto('/user/@yuki');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Yuki');
  const bar = await box(page, 'header.site-header nav');
  expect(bar.bottom).toBe(640);
  for (const name of ['Home', 'Search', 'Activity', 'Lists', 'Profile']) {
    await expect(nav(page).getByRole('link', { name, exact: true })).toBeVisible();
  }
  for (const name of ['Bookmarks', 'Drafts', 'Settings']) {
    await expect(nav(page).getByRole('link', { name, exact: true })).toBeHidden();
  }
  // The rest are in the account menu, at the top.
  await expect(page.locator('.account-menu summary')).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
  // Nothing of the page's foot is under the bar: scrolled to the end, the
  // page ends above it.
  const end = await page.evaluate(() => {
    document.scrollingElement!.scrollTop = 1e9;
    return document.querySelector('main#main')!.getBoundingClientRect().bottom;
  });
  expect(end).toBeLessThanOrEqual(bar.top);
  await expectAccessible(page);

  const write = page.getByRole('button', { name: 'Write' });
  expect((await write.boundingBox())!.y + (await write.boundingBox())!.height).toBeLessThanOrEqual(bar.top);
  await write.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Post text')).toBeFocused();
  // While the composer is typed in, Write steps aside from its Post.
  await expect(write).toBeHidden();
  await page.getByLabel('Post text').blur();
  await expect(write).toBeVisible();
});

test('in Arabic the rail is on the right of the column', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithToken(page, 'mira');
  await page.evaluate(() => localStorage.setItem('perch.language', 'ar'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('article.post').first()).toBeVisible();
  const rail = await box(page, 'header.site-header');
  const column = await box(page, 'main#main');
  expect(rail.left).toBeGreaterThanOrEqual(column.right);
  await expectAccessible(page);
});

test('Drafts counts the drafts kept, as they are begun and sent', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithToken(page, 'mira');
  const drafts = nav(page).getByRole('link', { name: /^Drafts/ });
  await expect(drafts).toHaveAccessibleName('Drafts');
  await page.getByLabel('Post text').fill('a draft for the rail to count');
  await expect(drafts).toHaveAccessibleName('Drafts, 1 kept');
  await expect(drafts.locator('.unread-count')).toHaveText('1');
  await page.getByLabel('Post text').fill('');
  await expect(drafts).toHaveAccessibleName('Drafts');
});

test('from 1280 px a second column holds the account\'s lists, each one click from its timeline', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const me = newAccount('sc');
  await signInWithToken(page, me);
  const side = page.getByRole('complementary', { name: 'Your lists' });
  await expect(side).toBeVisible();
  await expect(side).toContainText('No lists yet');
  await side.getByRole('link', { name: 'Make a list' }).click();
  await page.getByLabel('New list').fill('Birds');
  await page.getByRole('button', { name: 'Make the list' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'List “Birds” made.' })).toBeVisible();
  // Not beside the lists' own page, which shows them all.
  await expect(side).toBeHidden();
  await nav(page).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(side.getByRole('link', { name: 'Birds' })).toBeVisible();
  // Beside the column, on the other side from the rail, all on screen.
  const [column, aside, rail] = [await box(page, 'main#main'), await box(page, 'aside.side-column'), await box(page, 'header.site-header')];
  expect(aside.left).toBeGreaterThanOrEqual(column.right);
  expect(rail.right).toBeLessThanOrEqual(column.left);
  expect(aside.right).toBeLessThanOrEqual(1440);
  await side.getByRole('link', { name: 'Birds' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Birds');
  await expectAccessible(page);
  // Narrower, it is not there.
  await page.setViewportSize({ width: 1100, height: 900 });
  await expect(side).toBeHidden();
});

test('a card\'s "⋯" adds its author to a list and mutes them; on one\'s own post it edits and deletes', async ({ page }) => {
  const me = newAccount('cm');
  const author = newAccount('ca');
  await follows(page, me, author, ['A post whose author goes on a list.']);
  const mine = await call(page, token(me), 'POST', '/post', { content: 'A post of my own.' });
  await signInWithToken(page, me);
  const card = page.getByRole('feed', { name: 'Timeline' }).getByRole('article').filter({ hasText: 'A post whose author goes on a list.' });
  await card.locator(':scope > header details.card-more > summary').click();
  const menu = card.locator(':scope > header .card-menu');
  await menu.getByRole('button', { name: 'Add to list' }).click();
  await menu.getByLabel(`New list with @${author}`).fill('From the menu');
  await menu.getByLabel(`New list with @${author}`).press('Enter');
  await expect(menu.getByRole('status')).toContainText('From the menu');
  // Escape closes the innermost first: the lists, then the menu, back on "⋯".
  await page.keyboard.press('Escape');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(card.locator(':scope > header details.card-more > summary')).toBeFocused();
  // A click elsewhere closes it too.
  await card.locator(':scope > header details.card-more > summary').click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(menu).toBeHidden();

  const own = page.getByRole('feed', { name: 'Timeline' }).locator(`article[data-uuid="${mine.uuid}"]`);
  await own.locator(':scope > header details.card-more > summary').click();
  const ownMenu = own.locator(':scope > header .card-menu');
  await expect(ownMenu.getByRole('button', { name: 'Add to list' })).toHaveCount(0);
  await expect(ownMenu.getByRole('button', { name: /^Mute/ })).toHaveCount(0);
  await ownMenu.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(ownMenu).toBeHidden();
  await expect(own.getByRole('group', { name: 'Confirm deletion' })).toBeVisible();
  await expect(own.getByRole('button', { name: 'Delete post' })).toBeFocused();
  await own.getByRole('button', { name: 'Cancel' }).click();
  await expect(own.locator(':scope > header details.card-more > summary')).toBeFocused();
});
