// What a person meets when the store loads and writes for the pages: a
// profile opened again shows what reading again brought, Back between two
// threads gives focus back to the post that was opened, a sign-in from an
// address with a query comes back to it, and moving on while something is
// being sent neither crashes the app (the fixtures fail a test on any panic)
// nor offers the sent text again.
import { test, expect } from './fixtures';
import { api, ownAction, signInWithToken, token } from './helpers';
import type { Page, Route } from '@playwright/test';

const auth = (user: string) => ({ Authorization: `Bearer ${token(user)}` });

async function post(page: Page, user: string, content: string, parent?: string): Promise<string> {
  const res = await page.request.post('/api/v1/post', { headers: auth(user), data: { content, parent } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).uuid;
}

/** Holds the next request matching `method` and `url` until the returned
 *  function is called, then lets it through to the real server. */
async function hold(page: Page, method: string, url: RegExp): Promise<{ seen: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let seen!: () => void;
  const arrived = new Promise<void>((r) => (seen = r));
  let held = false;
  const handler = async (route: Route) => {
    if (held || route.request().method() !== method) return route.fallback();
    held = true;
    seen();
    await released;
    await route.continue();
  };
  await page.route(url, handler);
  return { seen: arrived, release };
}

test('a profile opened again shows the bio that reading it again brought', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/user/@sam');
  await expect(page.getByRole('heading', { level: 1, name: /Sam/ })).toBeVisible();
  await expect(page.getByRole('feed', { name: 'Posts' }).locator('article').first()).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // From now on the server answers a new bio, as after an edit elsewhere:
  // in the user, and in the author of each of the user's posts (reading
  // again reads both, and whichever answers last is kept).
  const since = (u: any) => (u && u.username === 'sam' ? { ...u, bio: 'A bio written since' } : u);
  await page.route(/\/api\/v1\/user\/[^/]+(\/posts\/\d+)?$/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const json = Array.isArray(body.posts)
      ? { ...body, posts: body.posts.map((p: any) => ({ ...p, author: since(p.author) })) }
      : since(body);
    await route.fulfill({ response: res, json });
  });
  await page.goBack();
  await expect(page.locator('.bio')).toHaveText('A bio written since');
});

test('Back from a reply to its thread gives focus back to the reply that was opened', async ({ page }) => {
  const root = await post(page, 'sam', 'a thread to go back to');
  const reply = await post(page, 'ines', 'a reply to open and come back from', root);
  await signInWithToken(page, 'mira');
  await page.goto(`/post/${root}`);
  const replies = page.getByRole('feed', { name: 'Replies' });
  const card = replies.locator(`article[data-uuid="${reply}"]`);
  await card.locator('a.time-link').click();
  await expect(page).toHaveURL(new RegExp(`/post/${reply}$`));
  await expect(page.getByRole('heading', { level: 1, name: /^Post by / })).toBeVisible();
  await expect(page.locator('article.focused')).toHaveAttribute('data-uuid', reply);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/post/${root}$`));
  await expect(card).toBeFocused();
});

test('signing in from an address with a query comes back to it, query and all', async ({ page }) => {
  await page.goto('/user/@sam/following?from=x');
  const signIn = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' });
  const href = await signIn.getAttribute('href');
  expect(new URL(href!, 'http://x').searchParams.get('next')).toBe('/user/@sam/following?from=x');
  await signIn.click();
  await page.getByLabel('Access token', { exact: true }).fill(token('mira'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(/\/user\/@sam\/following\?from=x$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Followed by @sam' })).toBeVisible();
});

test('moving on while a post is sent: it arrives once, nothing crashes, the box is empty after', async ({ page }) => {
  await signInWithToken(page, 'tomas');
  const text = `sent while moving on ${Date.now()}`;
  const box = page.getByLabel('Post text');
  await box.fill(text);
  const send = await hold(page, 'POST', /\/api\/v1\/post$/);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await send.seen;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Tom/ })).toBeVisible();
  send.release();
  // The post reaches the profile it was sent from, once.
  await expect(page.getByRole('feed', { name: 'Posts' }).getByText(text)).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(box).toHaveValue('');
  const me = await api(page, token('tomas'), '/user/@tomas');
  const mine = await api(page, token('tomas'), `/user/${me.uuid}/posts/1`);
  expect(mine.posts.filter((p: any) => p.content === text)).toHaveLength(1);
});

test('coming back while a post is sent shows it sending, then an empty box', async ({ page }) => {
  await signInWithToken(page, 'tomas');
  const text = `sent while away and back ${Date.now()}`;
  const box = page.getByLabel('Post text');
  await box.fill(text);
  const send = await hold(page, 'POST', /\/api\/v1\/post$/);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await send.seen;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  // The composer made anew shows the same send under way: no second Post.
  await expect(page.getByRole('button', { name: 'Sending…' })).toBeDisabled();
  send.release();
  await expect(box).toHaveValue('');
  await expect(page.locator('form.composer button[type=submit]')).toHaveText('Post');
});

test('moving on while an edit is saved, a like or a follow is sent, or a post deleted: no crash', async ({ page }) => {
  const edited = `edited while moving on ${Date.now()}`;
  const mine = await post(page, 'tomas', 'to be edited while moving on');
  const doomed = await post(page, 'tomas', 'to be deleted while moving on');
  const theirs = await post(page, 'sam', 'to be liked while moving on');
  await signInWithToken(page, 'tomas');
  const away = async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  };

  await page.goto(`/post/${mine}`);
  const card = page.locator('article.focused');
  await ownAction(card, 'Edit');
  await card.getByLabel('Edit post text').fill(edited);
  const save = await hold(page, 'PATCH', /\/api\/v1\/post\/[^/]+$/);
  await card.getByRole('button', { name: 'Save' }).click();
  await save.seen;
  await away();
  save.release();
  await expect.poll(async () => (await api(page, token('tomas'), `/post/${mine}`)).content).toBe(edited);

  await page.goto(`/post/${theirs}`);
  const like = await hold(page, 'POST', /\/like$/);
  await page.locator('article.focused').getByRole('button', { name: /^Like/ }).click();
  await like.seen;
  await away();
  like.release();
  await expect.poll(async () => (await api(page, token('tomas'), `/post/${theirs}`)).like_count).toBe(1);

  const ines = await api(page, token('tomas'), '/user/@ines');
  await page.goto('/user/@ines');
  const follow = await hold(page, 'POST', /\/follow$/);
  await page.getByRole('button', { name: /^Follow/ }).click();
  await follow.seen;
  await away();
  follow.release();
  await expect.poll(async () => (await api(page, token('tomas'), '/user/@ines')).followed).toBe(!ines.followed);
  await page.request.post(`/api/v1/user/${ines.uuid}/follow`, { headers: auth('tomas') });

  await page.goto(`/post/${doomed}`);
  const card2 = page.locator('article.focused');
  await ownAction(card2, 'Delete');
  const del = await hold(page, 'DELETE', /\/api\/v1\/post\/[^/]+$/);
  await card2.getByRole('button', { name: 'Delete post' }).click();
  await del.seen;
  await away();
  del.release();
  await expect.poll(async () => (await page.request.get(`/api/v1/post/${doomed}`, { headers: auth('tomas') })).status()).toBe(404);
  // The app still works after all of it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('feed', { name: 'Posts' }).getByText(edited)).toBeVisible();
});
