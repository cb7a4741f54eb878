// Search what was read (issue 46, point 3): /search, and / from anywhere;
// posts and people appear as the person types, from what this browser holds
// for the account (the local copy, bookmarks, Activity, drafts), offline
// too; whole words in any script and case, accents and Arabic vowel signs
// left out, every word; the matched words marked as text; newest first;
// muted people and words left out; only an @name asks the server.
import { test, expect, expectAccessible } from './fixtures';
import { call, copies, follows, goToPerson, hostConfig, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const box = (page: Page) => page.getByRole('searchbox', { name: 'Search posts and people read on this device' });
const posts = (page: Page) => page.locator('.search-posts .result');
const status = (page: Page) => page.locator('#search-status');

/** Types `query` in the box, as a person would, and waits for what it found. */
async function search(page: Page, query: string) {
  await box(page).fill(query);
  await expect(status(page)).toHaveAttribute('data-searched', query);
}

test('as the person types: whole words in any case and script, accents and vowel signs left out, every word, marked as text, newest first; muted ones left out; a result opens its post', async ({ page, context }) => {
  const me = newAccount('sr');
  const author = newAccount('sa', 'Saoirse Ní Bhriain');
  const [, cat] = await follows(page, me, author, [
    'Un café crème au soleil',
    'The CAT sat <b>here</b>',
    'Category theory today',
    'رأيت قِطَّة في الحديقة',
    'cat and dog, together',
  ]);
  await signInWithToken(page, me);
  await expect(page.getByText('cat and dog, together')).toBeVisible();

  // / from the home page: the search page, its box focused.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/search$/);
  await expect(box(page)).toBeFocused();
  await expect(status(page)).toContainText(/Searches 5 posts read on this device/);
  let asked = 0;
  // (Activity's checks read the account's posts and followers meanwhile.)
  page.on('request', (r) => { if (r.url().includes('/api/v1/') && !/\/(posts|followers)\b/.test(r.url())) asked += 1; });

  await search(page, 'CAFE');
  await expect(posts(page)).toHaveText(['Un café crème au soleil'].map((t) => new RegExp(t)));
  await expect(posts(page).locator('mark')).toHaveText(['café']);

  await search(page, 'cat');
  // Newest first; "Category" is not the word "cat"; markup is text.
  await expect(posts(page)).toHaveCount(2);
  await expect(posts(page).nth(0)).toContainText('cat and dog, together');
  await expect(posts(page).nth(1)).toContainText('The CAT sat <b>here</b>');
  await expect(posts(page).locator('b')).toHaveCount(0);
  await expect(posts(page).locator('mark')).toHaveText(['cat', 'CAT']);
  await expect(status(page)).toContainText('2 posts found. Searched 5 posts read on this device.');

  await search(page, 'dog cat');
  await expect(posts(page)).toHaveCount(1);
  await expect(posts(page)).toContainText('cat and dog, together');

  await search(page, 'قطة');
  await expect(posts(page)).toHaveCount(1);
  await expect(posts(page).locator('mark')).toHaveText(['قِطَّة']);

  // People: by the start of the username or a word of the name, accents left out.
  await search(page, 'nI');
  await expect(page.locator('.people-found')).toContainText(`@${author}`);
  await search(page, `@${author.slice(0, 4)}`);
  await expect(page.locator('.people-found').getByRole('link', { name: new RegExp(`@${author}`) })).toBeVisible();
  expect(asked, 'a search of what was read asks the server nothing').toBe(0);

  // Another tab mutes "dog": its post leaves the results here.
  await search(page, 'cat');
  await expect(posts(page)).toHaveCount(2);
  const other = await context.newPage();
  await other.goto('/');
  await other.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('perch.session')!);
    localStorage.setItem(`perch.mutes.${session.user.uuid}`, JSON.stringify({ people: [], words: ['DOG'] }));
  });
  await expect(posts(page)).toHaveCount(1);
  await expect(posts(page)).toContainText('The CAT sat');
  await other.close();
  await expectAccessible(page);

  // A result opens its post; Back comes to the same search.
  await posts(page).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/post/${cat.uuid}$`));
  await expect(page.getByRole('main').getByText('The CAT sat <b>here</b>')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/search\?q=cat$/);
  await expect(box(page)).toHaveValue('cat');
  await expect(posts(page)).toHaveCount(1);

  // The index grows as the store reads: a profile read after it was built,
  // in the same visit (no page load builds it again).
  const stranger = newAccount('sz');
  await call(page, token(stranger), 'POST', '/post', { content: 'A heron by the weir' });
  await box(page).fill(`@${stranger}`);
  await box(page).press('Enter');
  await expect(page.getByText('A heron by the weir')).toBeVisible();
  await page.locator('header a.search-link').click();
  await search(page, 'heron');
  await expect(posts(page)).toHaveCount(1);
  await expect(status(page)).toContainText('1 post found. Searched 6 posts read on this device.');
});

test.describe('offline', () => {
test.use({ serviceWorkers: 'allow' });

test('offline after a reload: the local copy, a bookmark and a draft are searched; an @name is asked of the server only online, once typing pauses', async ({ page, context }) => {
  test.setTimeout(120_000);
  const me = newAccount('so');
  const author = newAccount('sb');
  const stranger = newAccount('sx');
  const [kept] = await follows(page, me, author, ['Lanterns along the river tonight']);
  const elsewhere = await call(page, token(stranger), 'POST', '/post', { content: 'Lanterns seen from the hill' });
  await signInWithToken(page, me);
  await expect(page.getByText('Lanterns along the river tonight')).toBeVisible();
  // A bookmark of a post read on its own page, and a draft.
  await page.goto(`/post/${elsewhere.uuid}`);
  await page.getByRole('main').getByRole('button', { name: 'Bookmark' }).first().click();
  await page.goto('/');
  await page.locator('#post-text').fill('A draft about lanterns, unsent');
  await expect.poll(async () => JSON.stringify(Object.values(await copies(page)))).toContain(kept.uuid);
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBeTruthy();

  await context.setOffline(true);
  await page.goto('/search?q=LANTERNS');
  await expect(box(page)).toHaveValue('LANTERNS');
  await expect(status(page)).toHaveAttribute('data-searched', 'LANTERNS');
  await expect(posts(page)).toHaveCount(2);
  await expect(posts(page).nth(0)).toContainText('Lanterns seen from the hill');
  await expect(page.locator('.search-drafts')).toContainText('A draft about lanterns, unsent');
  await page.locator('.search-drafts').getByRole('link', { name: 'Continue' }).click();
  await expect(page.locator('#post-text')).toHaveValue('A draft about lanterns, unsent');
  await page.goto('/search');
  await search(page, `@${stranger}`);
  await expect(page.locator('.people-found')).toContainText(`@${stranger}`);
  await search(page, '@nobody_here_at_all');
  await expect(page.getByText('Offline: @nobody_here_at_all was not looked up on the server.')).toBeVisible();

  // Online: a name not read here is asked of the server once typing pauses.
  await context.setOffline(false);
  const someone = newAccount('sy', 'Yusra Haddad');
  const lookups: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/v1/user/@')) lookups.push(r.url()); });
  await box(page).fill('');
  await box(page).pressSequentially(`@${someone}`, { delay: 20 });
  await expect(page.locator('.people-found').getByRole('link', { name: /Yusra Haddad/ })).toBeVisible();
  expect(lookups.filter((u) => u.endsWith(`/user/@${someone}`)), 'the whole name, once').toHaveLength(1);
  await search(page, '@nobody_here_at_all');
  await expect(page.getByText('No one is called @nobody_here_at_all on this server.')).toBeVisible();
});
});

test('5,000 posts kept: the index is built a slice at a time, holds them all and finds the one with a word', async ({ page, context }) => {
  test.setTimeout(120_000);
  const me = newAccount('sk');
  await hostConfig(context, { local_copy_posts: 6000 });
  await signInWithToken(page, me);
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user);
  const author = { uuid: '00000000-0000-4000-8000-000000000001', username: 'kept_author', display_name: 'Kept Author' };
  const made = Array.from({ length: 5000 }, (_, i) => ({
    uuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    parent: null, author, from: null, locked: false, reply_count: 0, like_count: 0,
    content: i === 4321 ? 'Only this one has the word zephyr in it' : `Post number ${i} about the weather and the river`,
    created_at: new Date(Date.now() - i * 60_000).toISOString(),
  }));
  const copy = { version: 2, account: session.uuid, saved: Date.now(), posts: made, users: [author], lists: [], following: null, home: null };
  // Written from a page of the origin that is not the app (which would write its own copy over it).
  await page.goto('/robots.txt');
  await page.evaluate(([uuid, text]) => new Promise<void>((done, fail) => {
    const open = indexedDB.open('perch', 2);
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('copies', 'readwrite');
      tx.objectStore('copies').put(text, uuid);
      tx.oncomplete = () => { open.result.close(); done(); };
    };
  }), [session.uuid, JSON.stringify(copy)]);
  await page.goto('/search');
  await expect(status(page)).toHaveAttribute('data-searched', '', { timeout: 60_000 });
  await expect(status(page)).toContainText('Searches 5,000 posts read on this device');
  await search(page, 'Zephyr');
  await expect(posts(page)).toHaveCount(1);
  await expect(posts(page)).toContainText('Only this one has the word zephyr in it');
  await search(page, 'river');
  await expect(status(page)).toContainText('4,999 posts found.');
  await expect(posts(page)).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(posts(page)).toHaveCount(40);
  await expect(posts(page).nth(0)).toContainText('Post number 0 about');
});

test('accents and marks of any script are left out: Greek tonos, Vietnamese stacked marks, Hebrew points, Devanagari as whole words', async ({ page }) => {
  const me = newAccount('sg');
  const author = newAccount('sh');
  await follows(page, me, author, [
    'Καλημέρα from Athens',
    'Tiếng Việt mỗi ngày',
    'שָׁלוֹם עֲלֵיכֶם',
    'नमस्ते दोस्त',
    'नमस्तेजी हमेशा',
  ]);
  await signInWithToken(page, me);
  await expect(page.getByText('नमस्तेजी हमेशा')).toBeVisible();
  await page.locator('header a.search-link').click();
  for (const [query, found] of [
    ['καλημερα', 'Καλημέρα from Athens'],
    ['ΚΑΛΗΜΕΡΑ', 'Καλημέρα from Athens'],
    ['tieng viet', 'Tiếng Việt mỗi ngày'],
    ['moi ngay', 'Tiếng Việt mỗi ngày'],
    ['שלום', 'שָׁלוֹם עֲלֵיכֶם'],
    ['नमस्ते', 'नमस्ते दोस्त'],
  ]) {
    await search(page, query);
    await expect(posts(page), query).toHaveCount(1);
    await expect(posts(page), query).toContainText(found);
    await expect(posts(page).locator('mark').first(), query).toBeVisible();
  }
  // Whole words: the start of a word is not the word, its marks being part of it.
  await search(page, 'दोस');
  await expect(posts(page)).toHaveCount(0);
  await expectAccessible(page);
});

test('what was read just before a reload is searched after it: the copy is written when the page is left', async ({ page }) => {
  const me = newAccount('sr');
  const stranger = newAccount('sz');
  await follows(page, me, newAccount('sf'), ['Something to read on Home']);
  await call(page, token(stranger), 'POST', '/post', { content: 'Zephyrs over the harbour at dawn' });
  await signInWithToken(page, me);
  await expect(page.getByText('Something to read on Home')).toBeVisible();
  const account = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid as string);
  await expect.poll(async () => (await copies(page))[account]?.home?.started ?? false, { timeout: 15_000 }).toBe(true);
  // Read a profile inside the app, go Home, and reload at once: no pause
  // in which the copy would be written while reading.
  await goToPerson(page, stranger);
  await expect(page.getByText('Zephyrs over the harbour at dawn')).toBeVisible();
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(page.getByText('Something to read on Home')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Something to read on Home')).toBeVisible();
  await page.keyboard.press('/');
  await search(page, 'zephyrs');
  await expect(posts(page)).toHaveCount(1);
  await expect(posts(page).first()).toContainText('Zephyrs over the harbour at dawn');
});
