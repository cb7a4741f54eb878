// Like and follow against the real server: optimistic, folded under fast
// clicks, equal to what a fresh load shows, and not offered without scope.
import { test, expect } from './fixtures';
import { api, signInWithOAuth, signInWithToken, token, ALL_SCOPES } from './helpers';

async function freshPost(page: any, author: string, text: string) {
  const res = await page.request.post('/api/v1/post', {
    headers: { Authorization: `Bearer ${token(author)}` },
    data: { content: text },
  });
  return (await res.json()).uuid as string;
}

test('like and unlike a post; the count follows and a reload agrees', async ({ page }) => {
  const uuid = await freshPost(page, 'sam', 'a post to like');
  await signInWithToken(page, 'olga');
  await page.goto(`/post/${uuid}`);
  const like = page.locator('article.focused').getByRole('button', { name: /^Like/ });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveAccessibleName('Like 0');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('Like 1');
  await expect(like).toBeFocused();
  await expect.poll(async () => (await api(page, token('olga'), `/post/${uuid}`)).like_count).toBe(1);
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveAccessibleName('Like 0');
  await expect.poll(async () => (await api(page, token('olga'), `/post/${uuid}`)).like_count).toBe(0);
});

test('a read asked before a like and answered after it does not set the button back', async ({ page }) => {
  const uuid = await freshPost(page, 'sam', `a post read while liked ${Date.now()}`);
  await signInWithToken(page, 'olga');
  await page.goto(`/post/${uuid}`);
  const focused = page.locator('article.focused');
  const like = focused.getByRole('button', { name: /^Like/ });
  await expect(like).toHaveAccessibleName('Like 0');
  // The author edits the post, so the page can be seen taking the read.
  const edited = `edited before the like ${Date.now()}`;
  const patched = await page.request.patch(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${token('sam')}` }, data: { content: edited } });
  expect(patched.ok()).toBeTruthy();
  // The page reads the post again (back online). The server answers at
  // once, not liked yet; the answer reaches the page only after the like.
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const asked = new Promise<void>((r) => { arrived = r; });
  // In place before the page is told it is online (on a busy machine the
  // read could otherwise pass before the route is there).
  await page.route(`**/api/v1/post/${uuid}`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const before = await route.fetch();
    arrived();
    await new Promise<void>((r) => { release = r; });
    await route.fulfill({ response: before });
  });
  // The replies read that follows it (its answer has the post too, read
  // after the like) gets no answer during the test: only the older answer
  // can show the edit.
  await page.route(`**/api/v1/post/${uuid}/replies/**`, () => {});
  await page.evaluate(() => dispatchEvent(new Event('online')));
  await asked;

  const liked = page.waitForResponse((r) => r.url().endsWith(`/api/v1/post/${uuid}/like`));
  await like.click();
  await liked;
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  release();
  // The older answer is taken (its edit shows), the like is kept.
  await expect(focused).toContainText(edited);
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('Like 1');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // A read asked after the like is the server's word.
  await page.reload();
  await expect(like).toHaveAccessibleName('Like 1');
  await expect(like).toHaveAttribute('aria-pressed', 'true');
});

test('eight fast clicks end with the screen equal to a fresh load', async ({ page }) => {
  const uuid = await freshPost(page, 'sam', 'a post clicked many times');
  await signInWithToken(page, 'olga');
  await page.goto(`/post/${uuid}`);
  const like = page.locator('article.focused').getByRole('button', { name: /^Like/ });
  for (let i = 0; i < 8; i++) await like.click({ delay: 0 });
  await expect(like).toHaveAttribute('aria-pressed', 'false'); // an even number of clicks
  await page.waitForTimeout(500);
  const server = await api(page, token('olga'), `/post/${uuid}`);
  expect(server.liked).toBe(false);
  expect(server.like_count).toBe(0);
  for (let i = 0; i < 7; i++) await like.click({ delay: 0 });
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await api(page, token('olga'), `/post/${uuid}`)).like_count).toBe(1);
  const shown = await like.getAttribute('aria-pressed');
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', shown!);
  await expect(like).toHaveAccessibleName('Like 1');
});

test('follow and unfollow from a profile; the counts move with it', async ({ page }) => {
  await signInWithToken(page, 'arjun');
  const before = await api(page, token('arjun'), '/user/@yuki');
  await page.goto('/user/@yuki');
  const follow = page.getByRole('button', { name: /^Follow/ });
  const followers = page.getByRole('link', { name: /followers?$/ });
  // The first state is the server's, not whatever the page shows.
  const startPressed = before.followed === true;
  expect(typeof before.followed).toBe('boolean');
  await expect(follow).toHaveAttribute('aria-pressed', String(startPressed));
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', String(!startPressed));
  const expected = before.follow_count + (startPressed ? -1 : 1);
  await expect(followers).toHaveText(new RegExp(`^${expected} followers?$`));
  await expect.poll(async () => (await api(page, token('arjun'), '/user/@yuki')).follow_count).toBe(expected);
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', String(startPressed));
  await expect.poll(async () => (await api(page, token('arjun'), '/user/@yuki')).follow_count).toBe(before.follow_count);
});

test('no follow button on one\'s own profile', async ({ page }) => {
  await signInWithToken(page, 'sam');
  await page.goto('/user/@sam');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sam Reed');
  await expect(page.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
});

test('a sign-in without post.like sees no working like button', async ({ page }) => {
  const uuid = await freshPost(page, 'sam', 'look, do not like');
  await signInWithOAuth(page, 'olga', [/like and unlike posts/]);
  await page.goto(`/post/${uuid}`);
  const like = page.locator('article.focused').getByRole('button', { name: /^Like/ });
  await expect(like).toBeDisabled();
  // Pressable all the same (aria-disabled): it says why in words.
  await like.click({ force: true });
  await expect(page.locator('article.focused').getByRole('status')).toContainText('post.like');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
});

test('a pasted token without post.like: the first like rolls back and says why', async ({ page }) => {
  const uuid = await freshPost(page, 'sam', 'look again, do not like');
  await signInWithToken(page, 'olga', ALL_SCOPES.filter((s) => s !== 'post.like'));
  await page.goto(`/post/${uuid}`);
  const like = page.locator('article.focused').getByRole('button', { name: /^Like/ });
  await like.click();
  await expect(page.getByRole('alert')).toContainText('post.like');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveAccessibleName('Like 0');
  await expect(like).toBeDisabled();
  expect((await api(page, token('sam'), `/post/${uuid}`)).like_count).toBe(0);
});

test('without the optional followed field, one following-list request sets every Follow button', async ({ page }) => {
  // Like a server that implements only the seed: no `followed` on users,
  // from the first page on (a `followed` read at sign-in would be in the
  // local copy after the reload, and the buttons would need no list).
  const strip = (v: any): any => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const { followed, ...rest } = v;
      return Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, strip(x)]));
    }
    return v;
  };
  await page.route('**/api/v1/user/**', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: strip(await response.json()) });
  });
  await signInWithToken(page, 'mira');
  const me = await api(page, token('mira'), '/user');
  const following = new Set(((await api(page, token('mira'), `/user/${me.uuid}/following`)).following as any[]).map((u) => u.username));
  const listRequests: string[] = [];
  page.on('request', (r) => { if (r.url().endsWith(`/user/${me.uuid}/following`)) listRequests.push(r.url()); });

  await page.goto('/user/@olga/followers');
  const cards = page.locator('.user-card');
  await expect(cards.first()).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(2);
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const name = (await card.locator('.handle').innerText()).slice(1);
    const button = card.getByRole('button', { name: /^Follow/ });
    if (name === 'mira') {
      await expect(button).toHaveCount(0);
    } else {
      await expect(button).toHaveAttribute('aria-pressed', String(following.has(name)));
    }
  }
  expect(listRequests).toHaveLength(1);
});
