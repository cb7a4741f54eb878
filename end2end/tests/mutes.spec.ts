// Muting (issue 35, point 2) and the settings page (point 3): per account,
// kept in this browser only, shared by tabs; muted posts leave Home and
// collapse in a thread; whole words in any script; export and import.
// Each test makes new accounts of its own (`perch-server user add`).
import { test, expect, expectAccessible } from './fixtures';
import { call, follows, newAccount, signInWithToken, token } from './helpers';
import fs from 'node:fs';
import type { Page } from '@playwright/test';

const timeline = (page: Page) => page.getByRole('feed', { name: 'Timeline' });

test('a muted person leaves Home, collapses in a thread with Show, in every tab and after a reload; another account is not affected; Undo brings them back', async ({ page, context }) => {
  const me = newAccount('mu');
  const other = newAccount('ot');
  const author = newAccount('au');
  const [post] = await follows(page, me, author, ['A post from the one to mute.']);
  await follows(page, other, author, []);
  await call(page, token(me), 'POST', '/post', { content: 'My own post stays.' });
  await signInWithToken(page, me);
  await expect(timeline(page).getByText('A post from the one to mute.')).toBeVisible();

  const card = timeline(page).getByRole('article').filter({ hasText: 'A post from the one to mute.' });
  await card.getByLabel(`More for the post by @${author}`).click();
  await card.getByRole('button', { name: `Mute @${author}` }).click();
  await expect(timeline(page).getByText('A post from the one to mute.')).toHaveCount(0);
  await expect(timeline(page).getByText('My own post stays.')).toBeVisible();

  // Another tab of the same account hears it; a reload keeps it.
  const second = await context.newPage();
  await second.goto('/');
  await expect(timeline(second).getByText('My own post stays.')).toBeVisible();
  await expect(timeline(second).getByText('A post from the one to mute.')).toHaveCount(0);
  await page.reload();
  await expect(timeline(page).getByText('My own post stays.')).toBeVisible();
  await expect(timeline(page).getByText('A post from the one to mute.')).toHaveCount(0);

  // In its thread, one line with Show.
  await page.goto(`/post/${post.uuid}`);
  const line = page.locator('.muted-post').first();
  await expect(line).toHaveText(/Post by a muted person\./);
  await expect(page.getByText('A post from the one to mute.')).toHaveCount(0);
  await line.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('A post from the one to mute.')).toBeVisible();
  await expectAccessible(page);

  // Another account signed in here does not have the mute.
  await page.goto('/');
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('link', { name: 'Add an account' }).click();
  await page.getByLabel('Access token', { exact: true }).fill(token(other));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.locator('.account-menu summary')).toHaveText(`@${other}`);
  await expect(timeline(page).getByText('A post from the one to mute.')).toBeVisible();
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: `Switch to @${me}` }).click();
  await expect(page.locator('.account-menu summary')).toHaveText(`@${me}`);
  await expect(timeline(page).getByText('My own post stays.')).toBeVisible();
  await expect(timeline(page).getByText('A post from the one to mute.')).toHaveCount(0);

  // Undo on the settings page.
  await page.goto('/settings');
  const people = page.locator('.mutes ul').first();
  await expect(people).toContainText(`@${author}`);
  await expect(page.getByText('The server is never told')).toBeVisible();
  await expectAccessible(page);
  await people.getByRole('button', { name: `Unmute @${author}` }).click();
  await expect(page.getByText('No one is muted.')).toBeVisible();
  await page.goto('/');
  await expect(timeline(page).getByText('A post from the one to mute.')).toBeVisible();
});

test('a muted word hides whole words only, in German and in Arabic too', async ({ page }) => {
  const me = newAccount('wd');
  const author = newAccount('wa');
  const texts = [
    'my cat sleeps all day',
    'notes on category theory',
    'Ich mag meine Katze sehr.',
    'Katzenfutter ist teuer.',
    'رأيت قطة في الحديقة',
    'قطتي نائمة',
  ];
  await follows(page, me, author, texts);
  await signInWithToken(page, me);
  for (const text of texts) await expect(timeline(page).getByText(text)).toBeVisible();
  await page.goto('/settings');
  for (const word of ['cat', 'Katze', 'قطة']) {
    await page.getByLabel('Word or phrase to mute').fill(word);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect(page.getByRole('button', { name: `Unmute “${word}”` })).toBeVisible();
  }
  await page.goto('/');
  await expect(timeline(page).getByText('notes on category theory')).toBeVisible();
  await expect(timeline(page).getByText('Katzenfutter ist teuer.')).toBeVisible();
  await expect(timeline(page).getByText('قطتي نائمة')).toBeVisible();
  for (const hidden of ['my cat sleeps all day', 'Ich mag meine Katze sehr.', 'رأيت قطة في الحديقة']) {
    await expect(timeline(page).getByText(hidden)).toHaveCount(0);
  }
});

test('"Your Perch data": mutes and bookmarks exported from one profile and imported in a fresh one are the same; a broken file changes nothing; sign-out asks about them', async ({ page, browser }) => {
  const me = newAccount('ex');
  const author = newAccount('ea');
  await follows(page, me, author, ['A post to keep, from someone muted.']);
  await signInWithToken(page, me);
  await page.goto(`/user/@${author}`);
  await page.getByRole('article').filter({ hasText: 'A post to keep' }).getByRole('button', { name: 'Bookmark' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'A post to keep' }).getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: `Mute @${author}` }).click();
  await expect(page.getByRole('button', { name: `Unmute @${author}` })).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/settings');
  for (const word of ['spoilers', 'Straßenbahn']) {
    await page.getByLabel('Word or phrase to mute').fill(word);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
  }
  await expect(page.getByRole('heading', { name: 'Your Perch data' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export your Perch data' }).click()]);
  const file = test.info().outputPath('perch-data.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(exported.perch_data).toBe(1);
  expect(exported.mutes.people.map((p: any) => p.username)).toEqual([author]);
  expect(exported.mutes.words.sort()).toEqual(['Straßenbahn', 'spoilers']);
  expect(exported.bookmarks.map((b: any) => b.post.content)).toEqual(['A post to keep, from someone muted.']);

  const fresh = await browser.newContext({ serviceWorkers: 'block' });
  const tab = await fresh.newPage();
  await signInWithToken(tab, me);
  await tab.goto('/settings');
  await expect(tab.getByText('No one is muted.')).toBeVisible();
  await tab.getByLabel('Import Perch data').setInputFiles(file);
  await expect(tab.getByRole('status').filter({ hasText: '3 mutes read from the file. 1 bookmark read from the file.' })).toBeVisible();
  const keptHere = () => tab.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('perch.session')!);
    return [
      JSON.parse(localStorage.getItem(`perch.mutes.${session.user.uuid}`)!),
      JSON.parse(localStorage.getItem(`perch.bookmarks.${session.user.uuid}`)!),
    ];
  });
  expect(await keptHere()).toEqual([exported.mutes, exported.bookmarks]);
  // A file that is not Perch data, or whose bookmarks cannot be read, is refused, and changes nothing.
  for (const broken of ['{"people": 5}', JSON.stringify({ perch_data: 1, mutes: exported.mutes, bookmarks: [{ post: { uuid: 'x' }, at: 'soon' }] })]) {
    await tab.getByLabel('Import Perch data').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await expect(tab.getByRole('alert').filter({ hasText: 'This file is not Perch data' })).toBeVisible();
    expect(await keptHere()).toEqual([exported.mutes, exported.bookmarks]);
  }
  await tab.goto('/bookmarks');
  // Its author is muted: the bookmark folds to one line, as in a thread.
  await expect(tab.getByRole('feed', { name: 'Bookmarks' })).toContainText('Post by a muted person.');
  await tab.goto('/settings');

  // Signing out asks, as it does for drafts; Discard forgets them.
  await tab.locator('.account-menu summary').click();
  await tab.locator('.account-panel').getByRole('button', { name: `Sign out of @${me}` }).click();
  await expect(tab.getByText('3 mutes would go with it.')).toBeVisible();
  await expect(tab.getByText('1 bookmark would go with it.')).toBeVisible();
  await tab.getByRole('button', { name: 'Discard them' }).click();
  await expect(tab.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await signInWithToken(tab, me);
  await tab.goto('/settings');
  await expect(tab.getByText('No one is muted.')).toBeVisible();
  await fresh.close();
});

test('mutes kept at sign-out are back at the next sign-in in the same tab, and the question is named for them', async ({ page }) => {
  // Issue 45, 4.2 and 4.4.
  const me = newAccount('kp');
  const author = newAccount('ka');
  await follows(page, me, author, ['A post from someone muted.']);
  await call(page, token(me), 'POST', '/post', { content: 'My own post, always here.' });
  await signInWithToken(page, me);
  await page.goto(`/user/@${author}`);
  await page.getByRole('button', { name: `Mute @${author}` }).click();
  await expect(page.getByRole('button', { name: `Unmute @${author}` })).toHaveAttribute('aria-pressed', 'true');

  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: `Sign out of @${me}` }).click();
  // Only mutes would go: the question says so, not "Unsent drafts".
  const question = page.getByRole('group', { name: 'Muted people and words' });
  await expect(question).toContainText('1 mute would go with it.');
  await question.getByRole('button', { name: 'Keep them for the next sign-in' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();

  // Signed in again in this tab, without a reload.
  await signInWithToken(page, me);
  await expect(timeline(page).getByText('My own post, always here.')).toBeVisible();
  await expect(timeline(page).getByText('A post from someone muted.')).toHaveCount(0);
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByText('No one is muted.')).toHaveCount(0);
  await expect(page.getByText(`@${author}`).first()).toBeVisible();
});

test('the account menu closes when a page is chosen in it, on Escape and on a click outside', async ({ page }) => {
  // Issue 45, 4.3: at 1280 px it covered Settings' Mute button.
  await page.setViewportSize({ width: 1280, height: 800 });
  const me = newAccount('mn');
  await signInWithToken(page, me);
  const menu = page.locator('.account-menu');
  await menu.locator('summary').click();
  await expect(menu).toHaveAttribute('open', '');
  await page.locator('.account-panel').getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(menu).not.toHaveAttribute('open', '');
  // Nothing covers the page: the Mute button takes the click.
  await page.getByLabel('Word or phrase to mute').fill('thunder');
  await page.getByRole('button', { name: 'Mute', exact: true }).click({ trial: true });

  await menu.locator('summary').click();
  await expect(menu).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(menu).not.toHaveAttribute('open', '');
  await expect(menu.locator('summary')).toBeFocused();

  await menu.locator('summary').click();
  await expect(menu).toHaveAttribute('open', '');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).click();
  await expect(menu).not.toHaveAttribute('open', '');
});
