// @-mention completion (issue 47, point 2): typing @ and a letter in any
// composer offers the people the account has met, the most met first; the
// WAI-ARIA combobox pattern on the box (arrows, Enter or Tab, Escape, a
// click; how many match said in a status); a name not known here looked up
// once typing pauses; a name no one has marked and still sent; right to
// left, at 320 px, in the dark, with the live counter.
import { test, expect, expectAccessible } from './fixtures';
import { api, call, follows, newAccount, ownAction, signInWithToken, token } from './helpers';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

const ar = JSON.parse(readFileSync('../locales/ar.json', 'utf8'));
const list = (page: Page) => page.getByRole('listbox');
const options = (page: Page) => list(page).getByRole('option');

test('@ and a letter offers the people met, the most met first; arrows, Enter, Tab, a click, Escape; the pick is kept with the draft', async ({ page }) => {
  const me = newAccount('mn');
  // Both followed; one read three times, the other once, and one never met.
  const often = newAccount('mzo', 'Often Met');
  const once = newAccount('mzo', 'Once Met');
  const unmet = newAccount('mzo', 'Never Met');
  await follows(page, me, once, ['once, a post']);
  await follows(page, me, often, ['often 1', 'often 2', 'often 3']);
  await signInWithToken(page, me);
  await expect(page.getByText('once, a post')).toBeVisible();
  await expect(page.getByText('often 3')).toBeVisible();

  const box = page.getByLabel('Post text', { exact: true });
  await box.click();
  await box.pressSequentially('Hi @MZ');
  await expect(list(page)).toBeVisible();
  await expect(options(page)).toHaveText([new RegExp(`Often Met\\s+@${often}`), new RegExp(`Once Met\\s+@${once}`)]);
  await expect(options(page).filter({ hasText: unmet })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '2 people match' })).toHaveCount(1);
  // The box says which option is chosen, and what it controls.
  await expect(box).toHaveAttribute('aria-autocomplete', 'list');
  await expect(box).toHaveAttribute('aria-controls', await list(page).getAttribute('id') as string);
  await expect(options(page).nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', await options(page).nth(0).getAttribute('id') as string);
  await page.keyboard.press('ArrowDown');
  await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', await options(page).nth(1).getAttribute('id') as string);
  await page.keyboard.press('ArrowDown');
  await expect(options(page).nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(`Hi @${once} `);
  await expect(list(page)).toBeHidden();
  await expect(box).not.toHaveAttribute('aria-activedescendant');
  // The live counter counts the name picked.
  await expect(page.locator('#post-text-count')).toHaveText(`${500 - `Hi @${once} `.length} left`);

  // Typing goes on after the name; Tab picks the first.
  await box.pressSequentially('and @mz');
  await expect(options(page)).toHaveCount(2);
  await page.keyboard.press('Tab');
  await expect(box).toHaveValue(`Hi @${once} and @${often} `);
  await expect(box).toBeFocused();

  // Escape closes it, changing nothing, and it stays closed for that @.
  await box.pressSequentially('@mz');
  await expect(list(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list(page)).toBeHidden();
  await box.pressSequentially('o');
  await expect(list(page)).toBeHidden();
  await expect(box).toHaveValue(`Hi @${once} and @${often} @mzo`);
  // A new @ offers again; a click picks, in the middle of the text too.
  await box.pressSequentially(' x');
  await box.press('Home');
  await box.pressSequentially('@often ');
  await expect(list(page)).toBeHidden();
  await box.press('End');
  await box.pressSequentially(' @mzo');
  await options(page).filter({ hasText: 'Once Met' }).click();
  await expect(box).toHaveValue(`@often Hi @${once} and @${often} @mzo x @${once} `);
  await expect(box).toBeFocused();

  // The draft keeps what was picked, across a reload.
  await page.reload();
  await expect(page.getByLabel('Post text', { exact: true })).toHaveValue(`@often Hi @${once} and @${often} @mzo x @${once} `);
  await box.fill(`Thanks @${often}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const card = page.locator('article.post').filter({ hasText: 'Thanks' }).first();
  await expect(card.getByRole('link', { name: `@${often}` })).toHaveAttribute('href', `/user/@${often}`);

  // In the edit box of one's own post as well.
  await ownAction(card, 'Edit');
  const edit = page.getByLabel('Edit post text');
  await expect(edit).toBeFocused();
  await edit.press('End');
  await edit.pressSequentially(' and @mzo');
  await expect(options(page)).toHaveCount(2);
  await page.keyboard.press('Enter');
  await expect(edit).toHaveValue(`Thanks @${often} and @${often} `);
});

test('a name not known here is asked of the server once typing pauses; a name no one has is marked and still sent', async ({ page }) => {
  const me = newAccount('mn');
  const stranger = newAccount('mst', 'Someone Unmet');
  await signInWithToken(page, me);
  const asked: string[] = [];
  page.on('request', (r) => { const m = r.url().match(/\/api\/v1\/user\/(@[^/?]+)$/); if (m) asked.push(decodeURIComponent(m[1])); });

  const box = page.getByLabel('Post text', { exact: true });
  await box.click();
  await box.pressSequentially(`Hello @${stranger}`);
  // Asked once typing paused: then offered, though never met here.
  await expect(options(page)).toHaveText([new RegExp(`Someone Unmet\\s+@${stranger}`)]);
  expect(asked).toContain(`@${stranger}`);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(`Hello @${stranger} `);

  const nobody = `nosuch${Date.now().toString(36)}`;
  await box.pressSequentially(`and @${nobody}`);
  await expect(page.getByText(`No one is called @${nobody}: it will be sent as plain text.`)).toBeVisible();
  await expect(page.getByText(new RegExp(`No one is called @${stranger}`))).toHaveCount(0);
  // Asked once: typing a space and the name again asks nothing more.
  const before = asked.filter((a) => a === `@${nobody}`).length;
  expect(before).toBe(1);
  // (Another name after it: once it is marked, the pause after the
  // repeated name is over and anything it would ask has been asked.)
  const other = `${nobody}x`;
  await box.pressSequentially(` @${nobody} @${other}`);
  await expect(page.getByText(`No one is called @${other}: it will be sent as plain text.`)).toBeVisible();
  await expect(page.getByText(`No one is called @${nobody}: it will be sent as plain text.`)).toHaveCount(1);
  expect(asked.filter((a) => a === `@${nobody}`)).toHaveLength(1);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(box).toHaveValue('');
  const sent = await call(page, token(me), 'GET', `/user/@${me}/posts/1`);
  expect(sent.posts[0].content).toBe(`Hello @${stranger} and @${nobody} @${nobody} @${other}`);
  expect(asked.filter((a) => a === `@${nobody}`)).toHaveLength(1);
});

test.describe('Arabic', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('perch.language', 'ar'));
  });

  test('right to left at 320 px in the dark: the list sits at the box\'s start, axe finds nothing, the pick counts', async ({ page }) => {
    const me = newAccount('mn');
    const friend = newAccount('mzo', 'ليلى');
    await follows(page, me, friend, ['مرحبا']);
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/signin');
    await page.locator('#access-token').fill(token(me));
    await page.locator('section:has(#with-token) button[type=submit]').click();
    await expect(page.getByRole('heading', { level: 1, name: ar.nav_home })).toBeVisible();
    await expect(page.getByText('مرحبا', { exact: true })).toBeVisible();

    const box = page.locator('#post-text');
    await box.click();
    // A letter of the name in its own script finds the person by name.
    await box.pressSequentially('أهلا @ل');
    await expect(options(page)).toHaveText([new RegExp(`ليلى\\s+@${friend}`)]);
    const field = (await box.boundingBox())!;
    const shown = (await list(page).boundingBox())!;
    expect(shown.x + shown.width).toBeGreaterThan(field.x + field.width - 2);
    expect(shown.x).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expect(page.getByRole('status').filter({ hasText: ar.mention_matches.one })).toHaveCount(1);
    await expectAccessible(page);
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue(`أهلا @${friend} `);
    const n = 500 - `أهلا @${friend} `.length;
    const [left, form] = await page.evaluate((n) => [new Intl.NumberFormat('ar').format(n), new Intl.PluralRules('ar').select(n)], n);
    await expect(page.locator('#post-text-count')).toHaveText(ar.chars_left[form].replace('{count}', left));
  });
});

test('a new follower seen in Activity, and the author of a bookmark, are offered as mentions', async ({ page }) => {
  const me = newAccount('mf');
  const fan = newAccount('mfan', 'Faithful Fan');
  const writer = newAccount('mbk', 'Booked Writer');
  const mine = (await api(page, token(me), '/user')).uuid;
  const kept = await call(page, token(writer), 'POST', '/post', { content: 'A post worth keeping' });
  await signInWithToken(page, me);
  // Activity's first look, then a follow it notices.
  await page.goto('/activity');
  await expect(page.getByText('Perch has taken a first look at your posts and followers.')).toBeVisible();
  await call(page, token(fan), 'POST', `/user/${mine}/follow`);
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByText('Faithful Fan followed you')).toBeVisible();
  await page.goto(`/post/${kept.uuid}`);
  await page.getByRole('main').getByRole('button', { name: 'Bookmark' }).first().click();
  await expect(page.getByRole('main').getByRole('button', { name: 'Bookmark' }).first()).toHaveAttribute('aria-pressed', 'true');
  // A new visit: the store holds neither; this browser has met both.
  await page.goto('/');
  const box = page.getByLabel('Post text', { exact: true });
  await box.click();
  await box.pressSequentially(`Thanks @${fan.slice(0, 6)}`);
  await expect(options(page)).toHaveText([new RegExp(`Faithful Fan\\s+@${fan}`)]);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(`Thanks @${fan} `);
  await box.pressSequentially(`and @${writer.slice(0, 6)}`);
  await expect(options(page)).toHaveText([new RegExp(`Booked Writer\\s+@${writer}`)]);
});
