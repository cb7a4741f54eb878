// The card as the anchors draw it (issue 69, points 3 and 5): an action row
// of icons (Reply with its count, Like with its count, Bookmark) that keep
// their names, "⋯" at the end of the author line with Copy link, Mute and
// what the card no longer shows on its face ("via", the lock); the icons
// from one sprite in the page, no request of their own.
import { test, expect, expectAccessible } from './fixtures';
import { call, follows, newAccount, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

const timeline = (page: Page) => page.getByRole('feed', { name: 'Timeline' });

test('the action row is icons with their names; Like and Bookmark fill when pressed; "⋯" holds Copy link, Mute, via and the lock', async ({ page, context }) => {
  const me = newAccount('cd');
  const author = newAccount('ca');
  const [post] = await follows(page, me, author, ['A card to look at.']);
  await call(page, token(author), 'POST', '/post', { content: 'A reply under it.', parent: post.uuid });
  const locked = await call(page, token(author), 'POST', '/post', { content: 'No replies here.', locked: true });
  const icons: string[] = [];
  page.on('request', (r) => { if (/\.svg(\?|$)/.test(r.url()) && !r.url().endsWith('/icon.svg')) icons.push(r.url()); });
  await signInWithToken(page, me);

  const card = timeline(page).getByRole('article').filter({ hasText: 'A card to look at.' });
  await expect(card).toBeVisible();
  // The sprite itself takes no room on the page.
  expect(await page.locator('#perch-icons').evaluate((e) => e.getBoundingClientRect().height)).toBe(0);
  const reply = card.getByRole('link', { name: 'Reply', exact: true });
  const count = card.getByRole('link', { name: '1 reply', exact: true });
  const like = card.getByRole('button', { name: 'Like 0' });
  const bookmark = card.getByRole('button', { name: 'Bookmark' });
  await expect(count).toBeVisible();
  for (const control of [reply, like, bookmark]) {
    await expect(control).toBeVisible();
    // An icon drawn from the sprite, not a word: the word is for screen readers.
    await expect(control.locator('svg.icon use')).toHaveCount(1);
    const drawn = await control.evaluate((el) => {
      const href = el.querySelector('use')!.getAttribute('href')!;
      const symbol = document.querySelector(href);
      return { symbol: symbol?.tagName, inSprite: !!symbol?.closest('#perch-icons'), width: el.querySelector('svg')!.getBoundingClientRect().width };
    });
    expect(drawn).toEqual({ symbol: 'symbol', inSprite: true, width: expect.any(Number) });
    expect(drawn.width).toBeGreaterThan(10);
  }
  await expect(count).toHaveAttribute('href', `/post/${post.uuid}`);
  await expect(reply).toHaveAttribute('href', new RegExp(`/post/${post.uuid}`));
  // Not on the card's face any more: the application it came from.
  await expect(card.locator('.post-meta')).not.toContainText('via');

  // Pressed: the heart and the ribbon are filled, the names stay.
  const fill = (el: typeof like) => el.locator('svg.icon').evaluate((svg) => getComputedStyle(svg).fill);
  expect(await fill(like)).toBe('none');
  await like.click();
  const liked = card.getByRole('button', { name: 'Like 1' });
  await expect(liked).toHaveAttribute('aria-pressed', 'true');
  expect(await fill(liked)).not.toBe('none');
  await bookmark.click();
  await expect(bookmark).toHaveAttribute('aria-pressed', 'true');
  expect(await fill(bookmark)).not.toBe('none');

  // "⋯": at the end of the author line; Copy link puts the thread's address
  // on the clipboard and says so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const more = card.locator('header details.card-more');
  await card.getByLabel(`More for the post by @${author}`).click();
  await expect(more).toContainText('via');
  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(`/post/${post.uuid}`, page.url()).href);
  await expect(card.getByRole('button', { name: `Mute @${author}` })).toBeVisible();
  await expectAccessible(page);

  // A locked post: no Reply, the count still opens the thread, the lock in "⋯".
  const lockedCard = timeline(page).getByRole('article').filter({ hasText: 'No replies here.' });
  await expect(lockedCard.getByRole('link', { name: 'Reply', exact: true })).toHaveCount(0);
  const lockedCount = lockedCard.getByRole('link', { name: '0 replies', exact: true });
  await expect(lockedCount).toHaveAttribute('href', `/post/${locked.uuid}`);
  // The icon moves to the count, which is the whole Reply action now.
  await expect(lockedCount.locator('svg.icon use')).toHaveCount(1);
  await expect(lockedCard.locator('.post-meta')).not.toContainText('Locked');
  await lockedCard.getByLabel(`More for the post by @${author}`).click();
  await expect(lockedCard.locator('.card-menu')).toContainText('Locked');

  // On the thread, the focused post shows both on its face.
  await page.goto(`/post/${locked.uuid}`);
  const focused = page.locator('article.focused');
  await expect(focused.locator('.post-facts')).toContainText('Locked');
  await expect(focused.locator('.post-facts')).toContainText('via');
  expect(icons).toEqual([]);
});

test('one\'s own post: "⋯" has Copy link and no Mute', async ({ page }) => {
  const me = newAccount('co');
  await call(page, token(me), 'POST', '/post', { content: 'Mine to share.' });
  await signInWithToken(page, me);
  const card = timeline(page).getByRole('article').filter({ hasText: 'Mine to share.' });
  await card.getByLabel(`More for the post by @${me}`).click();
  await expect(card.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(card.getByRole('button', { name: /^Mute/ })).toHaveCount(0);
});

test('an avatar that cannot be loaded is asked for once: cards drawn again show the initial at once, until the browser is back online', async ({ page }) => {
  const me = newAccount('cf');
  const author = newAccount('ce', 'Esme Quill');
  await follows(page, me, author, ['A heron at dawn.']);
  // The server gives new accounts an avatar on a third-party host: here it fails.
  const asked: string[] = [];
  await page.route('https://www.gravatar.com/**', (route) => { asked.push(route.request().url()); return route.abort(); });
  await signInWithToken(page, me);
  const card = timeline(page).getByRole('article').filter({ hasText: 'A heron at dawn.' });
  await expect(card.locator('.avatar.fallback')).toHaveAttribute('data-initial', 'E');
  expect(asked.length).toBeGreaterThan(0);
  const before = asked.length;
  // Every avatar image put in the page from now on.
  await page.evaluate(() => {
    const w = window as any;
    w.__images = 0;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n instanceof Element && (n.matches('img.avatar') || n.querySelector('img.avatar'))) w.__images += 1;
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const images = () => page.evaluate(() => (window as any).__images);

  // The thread draws the card again: the initial, no image, no request.
  await card.locator('.time-link').click();
  const focused = page.locator('article.post.focused');
  await expect(focused).toContainText('A heron at dawn.');
  await expect(focused.locator('.avatar.fallback')).toHaveAttribute('data-initial', 'E');
  expect(await images()).toBe(0);
  expect(asked.length).toBe(before);

  // Back online, the next card drawn asks again.
  await page.goBack();
  await expect(card).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await card.locator('.time-link').click();
  await expect(focused).toContainText('A heron at dawn.');
  await expect.poll(images).toBeGreaterThan(0);
  await expect.poll(() => asked.length).toBeGreaterThan(before);
  await expect(focused.locator('.avatar.fallback')).toHaveAttribute('data-initial', 'E');
});
