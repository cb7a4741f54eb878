// Reading with the real server and the demo data: signing in both ways,
// profiles, threads with their ancestors, paging, back navigation, errors.
import { test, expect, expectAccessible } from './fixtures';
import { ALL_SCOPES, api, attributeWrites, expireTokenSoon, signInWithOAuth, signInWithToken, token, watchAttributeWrites } from './helpers';
import type { Page } from '@playwright/test';

test('sign in through the server consent page with PKCE, then sign out', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/oauth\/authorise\?/);
  await expect(page.getByRole('heading', { name: 'Sign in to Perch' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Username').fill('mira');
  await page.getByLabel('Password').fill('perch-demo');
  await page.getByRole('checkbox', { name: /see your email address/ }).uncheck();
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page).not.toHaveURL(/code=/);
  await expect(page.locator('.account-menu summary')).toHaveText('@mira');

  // The account menu says who and what the token may do (user.email was unticked).
  await page.locator('.account-menu summary').click();
  const panel = page.locator('.account-panel');
  await expect(panel).toContainText('post.send');
  await expect(panel).not.toContainText('user.email');
  const stored = await page.evaluate(() => localStorage.getItem('perch.session') ?? '');
  expect(stored).toContain('refresh_token');
  expect(page.url()).not.toContain(JSON.parse(stored).token);

  await panel.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('perch.session'))).toBeNull();
});

test('sign in with a token; a bad token is refused and explained', async ({ page }) => {
  await page.goto('/signin');
  await page.getByLabel('Access token', { exact: true }).fill('not-a-real-token');
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('alert')).toContainText('Sign in again');
  await expect(page.getByLabel('Access token', { exact: true })).toHaveValue('not-a-real-token');
  await signInWithToken(page, 'tomas');
  await expect(page.locator('.account-menu summary')).toHaveText('@tomas');
  await page.reload();
  await expect(page.locator('.account-menu summary')).toHaveText('@tomas');
});

test('a profile by @name and by uuid, with its posts and counts', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/user/@leila');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ليلى حداد (Leila)');
  await expect(page.getByText('Translator between three languages and two cats.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Badges' })).toContainText('verified');
  const feed = page.getByRole('feed', { name: 'Posts' });
  await expect(feed.getByRole('article')).toHaveCount(15);
  await expect(feed.getByRole('article').first()).toHaveAttribute('aria-posinset', '1');
  await expectAccessible(page);

  const leila = await api(page, token('mira'), '/user/@leila');
  await page.goto(`/user/${leila.uuid}`);
  await expect(page).toHaveURL(/\/user\/@leila$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ليلى حداد (Leila)');

  await page.getByRole('link', { name: /followers?$/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followers of @leila');
  await expect(page.locator('.user-card').first()).toBeVisible();
  await expect(page.locator('.user-card')).toHaveCount(leila.follow_count);
});

test('the own profile shows the email only with user.email', async ({ page }) => {
  await signInWithToken(page, 'ines');
  await page.goto('/user/@ines');
  await expect(page.getByText('Email: ines@perch.example')).toBeVisible();
  await expect(page.getByText('(verified)')).toBeVisible();
  await signInWithToken(page, 'ines', ALL_SCOPES.filter((s) => s !== 'user.email'));
  await page.goto('/user/@ines');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inês Carvalho');
  await expect(page.getByText('Email:')).toHaveCount(0);
});

test('a deep reply shows its ancestors up to the root', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const tok = token('mira');
  // Walk the demo's long thread down from a post with replies to the deepest reply.
  const me = await api(page, tok, '/user');
  const posts = (await api(page, tok, `/user/${me.uuid}/posts/1`)).posts as any[];
  let deepest = posts.find((p) => String(p.content).includes('level 6 of the long thread'));
  for (let page_ = 2; !deepest && page_ < 15; page_++) {
    const more = (await api(page, tok, `/user/${me.uuid}/posts/${page_}`)).posts as any[];
    deepest = more.find((p) => String(p.content).includes('level 6 of the long thread'));
  }
  expect(deepest, 'the demo has a six-level thread ending with mira').toBeTruthy();
  await page.goto(`/post/${deepest.uuid}`);
  const focused = page.locator('article.focused');
  await expect(focused).toContainText('level 6 of the long thread');
  await expect(focused).toContainText('Replying to @');
  const ancestors = page.locator('.ancestors article');
  await expect(ancestors).toHaveCount(6);
  await expect(focused).toBeFocused();
  await expect(focused).toBeInViewport();
  await expect(ancestors.nth(5)).toContainText('level 5');
  await expect(ancestors.first()).not.toContainText('Replying to');
  await expectAccessible(page);
});

test('a thread pages its replies with Load more', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const tok = token('mira');
  // The demo has one post with more than a page of replies; find it through its author.
  let popular: any;
  for (const name of ['mira', 'tomas', 'yuki', 'leila', 'sam', 'ines', 'arjun', 'olga']) {
    const user = await api(page, tok, `/user/@${name}`);
    for (let p = 1; p <= 10 && !popular; p++) {
      const list = (await api(page, tok, `/user/${user.uuid}/posts/${p}`)).posts as any[];
      popular = list.find((post) => post.reply_count > 15);
      if (list.length < 15) break;
    }
    if (popular) break;
  }
  expect(popular).toBeTruthy();
  await page.goto(`/post/${popular.uuid}`);
  // The feed's own cards: the author's follow-ups open below theirs (the
  // reply tree), and those nested cards are not the feed's.
  const replies = page.getByRole('feed', { name: 'Replies' }).locator(':scope > article');
  await expect(replies).toHaveCount(15);
  // Load more is also pressed by itself once it scrolls into view, so a
  // click that first scrolls to it may find it gone (the next page is
  // loading, or loaded): press it where it is, which does nothing then.
  await page.locator('.load-more button').evaluate((button: HTMLButtonElement) => button.click());
  await expect(replies).toHaveCount(popular.reply_count);
  await expect(page.getByRole('button', { name: 'Load more' })).toBeHidden();
});

test('back navigation restores the page and its scroll position at once, then reads the profile and its first page again, at once', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/user/@tomas');
  const feed = page.getByRole('feed', { name: 'Posts' });
  await expect(feed.getByRole('article')).toHaveCount(15);
  const target = feed.getByRole('article').nth(10);
  await target.scrollIntoViewIfNeeded();
  const y = await page.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(200);
  await target.getByRole('link', { name: /repl(y|ies)$/ }).click();
  await expect(page).toHaveURL(/\/post\//);
  await expect(page.locator('article.focused')).toBeVisible();

  // Every API answer is held back on the way back: what shows comes from
  // the store, without waiting for the network.
  let release = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  const asked: string[] = [];
  await page.route('**/api/**', async (route) => {
    asked.push(new URL(route.request().url()).pathname);
    await released;
    await route.continue();
  });
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tomás Herrera');
  await expect(feed.getByRole('article')).toHaveCount(15);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 50);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 50);
  // Then, in the background, the profile and the first page of posts only,
  // both at once: the posts do not wait for the profile's answer.
  await expect.poll(() => asked.length).toBe(2);
  const [profile, posts] = [...asked].sort();
  expect(profile).toMatch(/^\/api\/v1\/user\/[0-9a-f-]{36}$/);
  expect(posts).toMatch(/^\/api\/v1\/user\/[0-9a-f-]{36}\/posts\/1$/);
  release();
  // Nothing new: nothing moves.
  await page.waitForTimeout(300);
  expect(asked).toHaveLength(2);
  await expect(feed.getByRole('article')).toHaveCount(15);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - y)).toBeLessThan(50);
  await expect(page.getByRole('button', { name: /Show \d+ new post/ })).toHaveCount(0);
});

test('unknown posts and users have their own pages', async ({ page }) => {
  await signInWithToken(page, 'mira');
  await page.goto('/post/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Post not found');
  await expectAccessible(page);
  await page.goto('/user/@nobody_here');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('User not found');
});

test('a token without user.followers.get sees which permission is missing', async ({ page }) => {
  await signInWithToken(page, 'mira', ALL_SCOPES.filter((s) => s !== 'user.followers.get'));
  await page.goto('/user/@sam/followers');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('user.followers.get');
  // It offers to sign in again for that permission (accounts.spec follows it through).
  await expect(alert.getByRole('button', { name: 'Sign in again to allow user.followers.get' })).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('signed out, a page says to sign in to read it, and signing in comes back to it', async ({ page }) => {
  const post = (await api(page, token('sam'), '/user/@sam/posts/1')).posts[0];
  await page.goto(`/post/${post.uuid}`);
  const alert = page.getByRole('alert').first();
  await expect(alert).toContainText('Sign in to read this.');
  await expect(alert).not.toContainText('expired');
  await alert.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/signin\?next=/);
  await page.getByLabel('Access token', { exact: true }).fill(token('tomas'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.uuid}$`));
  await expect(page.locator('article.focused')).toBeVisible();

  // Through the server's sign-in page, from the header's Sign in link.
  await page.locator('.account-menu summary').click();
  await page.locator('.account-panel').getByRole('button', { name: 'Sign out' }).click();
  // The sign-out ends in a reload: a navigation started before it would be cut off.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.goto('/user/@sam/followers');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Perch' })).toBeVisible();
  await page.getByLabel('Username', { exact: true }).fill('mira');
  await page.getByLabel('Password').fill('perch-demo');
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Followers of @sam');
  expect(new URL(page.url()).pathname).toBe('/user/@sam/followers');
});

test('a sign-in link that names another site returns home instead', async ({ page }) => {
  await page.goto('/signin?next=' + encodeURIComponent('//evil.example/steal'));
  await page.getByLabel('Access token', { exact: true }).fill(token('tomas'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
});

test('the token is refreshed once on a 401 and shortly before it expires', async ({ page }) => {
  await signInWithOAuth(page);
  const session = () => page.evaluate(() => JSON.parse(localStorage.getItem('perch.session') ?? 'null'));
  const first = await session();

  // A token the server no longer knows: the 401 leads to one refresh and a retry.
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('perch.session')!);
    s.token = 'revoked-or-unknown';
    localStorage.setItem('perch.session', JSON.stringify(s));
  });
  await page.goto('/user/@sam');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sam Reed');
  // The profile may be drawn from the local copy before the refresh's answer is in.
  await expect.poll(async () => (await session()).token).not.toBe('revoked-or-unknown');
  const second = await session();
  expect(second.refresh_token).not.toBe(first.refresh_token);

  // A token about to expire is refreshed before it is used.
  await expireTokenSoon(page);
  const refreshes: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/oauth/refreshtoken')) refreshes.push(r.url()); });
  await page.goto('/user/@olga');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Olga/);
  // Olga may be drawn from the local copy before the refresh is asked.
  await expect.poll(async () => (await session()).token).not.toBe(second.token);
  expect(refreshes).toHaveLength(1);
});

test('a deleted ancestor shows as a tombstone and the thread still reads', async ({ page }) => {
  await signInWithToken(page, 'arjun');
  const tok = token('arjun');
  const headers = { Authorization: `Bearer ${tok}` };
  const send = async (content: string, parent?: string) =>
    (await (await page.request.post('/api/v1/post', { headers, data: parent ? { content, parent } : { content } })).json()).uuid as string;
  const root = await send('root of a thread that loses its middle');
  const middle = await send('the middle, soon deleted', root);
  const leaf = await send('the leaf still stands', middle);
  expect((await page.request.delete(`/api/v1/post/${middle}`, { headers })).ok()).toBeTruthy();
  await page.goto(`/post/${leaf}`);
  await expect(page.locator('article.focused')).toContainText('the leaf still stands');
  await expect(page.locator('.ancestors')).toContainText('This post was deleted.');
  await expect(page.getByRole('main')).not.toContainText('the middle, soon deleted');
});

for (const path of ['/user/@yuki', '/signin']) {
  test(`${path} fits a 320 px wide screen`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await signInWithToken(page, 'mira');
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('right-to-left names, posts and typing read right to left without breaking the layout', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signInWithToken(page, 'mira');
  // An Arabic post of Leila's (whose display name is Arabic), removed afterwards.
  const leila = token('leila');
  const res = await page.request.post('/api/v1/post', {
    headers: { Authorization: `Bearer ${leila}` },
    data: { content: 'مرحبا بالجميع، هذا منشور باللغة العربية مع كلمة English في وسطه.' },
  });
  expect(res.ok()).toBeTruthy();
  const post = await res.json();
  try {
    await page.goto(`/post/${post.uuid}`);
    const content = page.locator('article.focused .post-content');
    await expect(content).toContainText('مرحبا');
    expect(await content.evaluate((el) => el.matches(':dir(rtl)'))).toBe(true);
    const name = page.locator('article.focused .display-name');
    expect(await name.evaluate((el) => el.matches(':dir(rtl)'))).toBe(true);
    // The handle beside the name stays left to right.
    expect(await page.locator('article.focused .handle').evaluate((el) => el.matches(':dir(ltr)'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    await page.goto('/user/@leila');
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toContainText('ليلى');
    expect(await heading.evaluate((el) => el.matches(':dir(rtl)'))).toBe(true);
    // Leila's bio is English: it stays left to right.
    expect(await page.locator('.bio').evaluate((el) => el.matches(':dir(ltr)'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // Typing Arabic in the composer turns the box right to left.
    await page.goto('/');
    const box = page.getByLabel('Post text');
    await box.fill('اختبار');
    expect(await box.evaluate((el) => el.matches(':dir(rtl)'))).toBe(true);
    await box.fill('');
  } finally {
    await page.request.delete(`/api/v1/post/${post.uuid}`, { headers: { Authorization: `Bearer ${leila}` } });
  }
});

test('a follow list of bare uuids shows names, read a few at a time and only once', async ({ page }) => {
  await signInWithToken(page, 'mira');
  // The interface allows followers as uuid strings: make this server's list so.
  await page.route('**/api/v1/user/*/followers', async (route) => {
    const res = await route.fetch();
    const json = await res.json();
    json.followers = json.followers.map((u: any) => (typeof u === 'string' ? u : u.uuid));
    await route.fulfill({ response: res, json });
  });
  let inFlight = 0, most = 0;
  const asked: string[] = [];
  await page.route(/\/api\/v1\/user\/[0-9a-f-]{36}$/, async (route) => {
    asked.push(route.request().url());
    inFlight++;
    most = Math.max(most, inFlight);
    const res = await route.fetch();
    await new Promise((r) => setTimeout(r, 150));
    inFlight--;
    await route.fulfill({ response: res });
  });
  await page.goto('/user/@mira/followers');
  const cards = page.locator('ul.user-list .user-card');
  // The cards already named stay as they are while the others' names
  // arrive (each arrival drew every card again, once).
  await expect(page.locator('ul.user-list .display-name').first()).toBeVisible();
  await watchAttributeWrites(page, 'ul.user-list .user-card:has(.display-name)', true);
  const count = await cards.count();
  expect(count).toBeGreaterThan(4);
  await expect(page.locator('ul.user-list .display-name')).toHaveCount(count);
  await expect(page.locator('ul.user-list')).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  expect(await attributeWrites(page)).toBe(0);
  expect(most, 'at most 4 at once').toBeLessThanOrEqual(4);
  expect(new Set(asked).size).toBe(asked.length);
  // Back on the page later in the visit: nobody is asked for again.
  const before = asked.length;
  await page.getByRole('link', { name: 'Home' }).first().click();
  await page.goBack();
  await expect(page.locator('ul.user-list .display-name')).toHaveCount(count);
  expect(asked.length).toBe(before);
});

test('a thread opened again shows an edit and new replies made elsewhere, without a reload', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const ines = token('ines'), tomas = token('tomas');
  const made = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'swr: before the edit' } });
  const uuid = (await made.json()).uuid;
  let reply = '';
  try {
    await page.goto(`/post/${uuid}`);
    const focused = page.locator('article.focused');
    await expect(focused.locator('.post-content')).toHaveText('swr: before the edit');
    await expect(page.getByText('No replies yet.')).toBeVisible();
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

    // Elsewhere: the author edits, someone replies.
    expect((await page.request.patch(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'swr: after the edit' } })).ok()).toBeTruthy();
    const r = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${tomas}` }, data: { content: 'a reply from elsewhere', parent: uuid } });
    reply = (await r.json()).uuid;

    await page.goBack();
    await expect(focused.locator('.post-content')).toHaveText('swr: after the edit');
    const replies = page.getByRole('region', { name: 'Replies' });
    // The new reply waits behind a button; nothing moved by itself.
    await expect(replies.getByRole('article')).toHaveCount(0);
    await replies.getByRole('button', { name: 'Show 1 new reply' }).click();
    await expect(replies.getByRole('article')).toHaveCount(1);
    await expect(replies.getByRole('article')).toContainText('a reply from elsewhere');
  } finally {
    if (reply) await page.request.delete(`/api/v1/post/${reply}`, { headers: { Authorization: `Bearer ${tomas}` } });
    await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${ines}` } });
  }
});

test('a profile opened again offers the posts written since, on top, without moving the list', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const ines = token('ines');
  await page.goto('/user/@ines');
  const feed = page.getByRole('feed', { name: 'Posts' });
  const first = await feed.getByRole('article').first().getAttribute('data-uuid');
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  const made = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'written while mira was away' } });
  const uuid = (await made.json()).uuid;
  try {
    await page.goBack();
    const show = page.getByRole('button', { name: 'Show 1 new post' });
    await expect(show).toBeVisible();
    await expect(feed.getByRole('article').first()).toHaveAttribute('data-uuid', first!);
    await show.click();
    await expect(feed.getByRole('article').first()).toHaveAttribute('data-uuid', uuid);
    await expect(feed.getByRole('article').first()).toContainText('written while mira was away');
  } finally {
    await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${ines}` } });
  }
});

// The tab hidden and shown again, as when the reader switches back after a
// while: Chromium keeps a headless page visible, so the test sets the
// document's visibility itself and sends the event the browser would.
async function hideAndShow(page: Page) {
  for (const state of ['hidden', 'visible']) {
    await page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    }, state);
  }
}

test('a thread and a profile read again when the tab comes back after a while, not on a quick switch', async ({ page }) => {
  await page.clock.install();
  await signInWithToken(page, 'mira');
  const ines = token('ines');
  const made = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'visible: first words' } });
  const uuid = (await made.json()).uuid;
  let later = '';
  try {
    await page.goto(`/post/${uuid}`);
    const focused = page.locator('article.focused');
    await expect(focused.locator('.post-content')).toHaveText('visible: first words');
    await expect(page.getByText('No replies yet.')).toBeVisible();
    await page.request.patch(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'visible: second words' } });
    const asked: string[] = [];
    page.on('request', (r) => { if (r.url().includes(`/api/v1/post/${uuid}`)) asked.push(r.url()); });
    // A quick switch away and back reads nothing.
    await hideAndShow(page);
    await page.waitForTimeout(300);
    expect(asked).toHaveLength(0);
    await expect(focused.locator('.post-content')).toHaveText('visible: first words');
    // After a while away, the edit shows.
    await page.clock.fastForward('00:30');
    await hideAndShow(page);
    await expect(focused.locator('.post-content')).toHaveText('visible: second words');

    await page.goto('/user/@ines');
    const feed = page.getByRole('feed', { name: 'Posts' });
    await expect(feed.getByRole('article').first()).toContainText('visible: second words');
    const r = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${ines}` }, data: { content: 'visible: written while away' } });
    later = (await r.json()).uuid;
    await page.clock.fastForward('00:30');
    await hideAndShow(page);
    await page.getByRole('button', { name: 'Show 1 new post' }).click();
    await expect(feed.getByRole('article').first()).toContainText('visible: written while away');
  } finally {
    if (later) await page.request.delete(`/api/v1/post/${later}`, { headers: { Authorization: `Bearer ${ines}` } });
    await page.request.delete(`/api/v1/post/${uuid}`, { headers: { Authorization: `Bearer ${ines}` } });
  }
});
