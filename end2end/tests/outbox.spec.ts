// The outbox (src/store/outbox.rs): what a person does while the server
// cannot be reached waits, survives a reload, and is sent once, in order,
// when the server can be reached again; refusals stay with the reason.
import { test, expect } from './fixtures';
import { api, kept, keptByWorker, ownAction, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

// A reload while offline is answered by the service worker.
test.use({ serviceWorkers: 'allow' });

const auth = (user: string) => ({ Authorization: `Bearer ${token(user)}` });

async function post(page: Page, user: string, content: string, parent?: string): Promise<string> {
  const res = await page.request.post('/api/v1/post', { headers: auth(user), data: parent ? { content, parent } : { content } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).uuid;
}

const waitingCount = (page: Page) => page.locator('header.site-header .waiting-count');
const waitingCard = (page: Page, text: string) => page.locator('article.post.waiting', { hasText: text });

test('offline, a like, a follow, a post, a reply to it, its edit and a deletion wait, survive a reload, and are sent once, in order', async ({ page, context }) => {
  const me = await api(page, token('sam'), '/user');
  const stamp = Date.now();
  const doomed = await post(page, 'sam', `sam's post to delete ${stamp}`);
  const liked = await post(page, 'arjun', `arjun's post to like ${stamp}`);
  const arjun = await api(page, token('sam'), '/user/@arjun');
  const followedBefore = arjun.followed as boolean;
  const likeTarget = await api(page, token('sam'), `/post/${liked}`);
  expect(likeTarget.liked).toBe(false);
  await signInWithToken(page, 'sam');
  await page.goto(`/post/${liked}`);
  await expect(page.getByRole('article').first()).toContainText(`arjun's post to like ${stamp}`);
  // Sam's profile, read once in this visit, so it shows offline too.
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page.locator(`article[data-uuid="${doomed}"]`)).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('article').first()).toContainText(`arjun's post to like ${stamp}`);
  // To arjun's profile and back by the app's own navigation: offline, both
  // pages come from what the app read.
  await page.getByRole('article').first().locator('a.author').click();
  const follow = page.getByRole('main').getByRole('button', { name: followedBefore ? 'Following' : 'Follow', exact: true });
  await expect(follow).toBeVisible();

  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);
  await context.setOffline(true);
  await follow.click();
  await expect(page.getByRole('main').getByRole('button', { name: followedBefore ? 'Follow' : 'Following', exact: true })).toBeVisible();
  // Back to the post (the app's own navigation, from what it read).
  await page.goBack();
  const likeButton = page.getByRole('article').first().getByRole('button', { name: /Like/ });
  await likeButton.click();
  await expect(likeButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('article').first().locator('.waiting-mark')).toHaveText('waiting');

  // A deletion of one of sam's posts waits, marked on its card.
  const doomedCard = page.locator(`article[data-uuid="${doomed}"]`);
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(doomedCard).toBeVisible();
  await ownAction(doomedCard, 'Delete');
  await doomedCard.getByRole('button', { name: 'Delete post' }).click();
  await expect(doomedCard.locator('.waiting-mark')).toContainText('Deletion waiting to send');

  await page.getByRole('link', { name: 'Home' }).first().click();
  const box = page.getByLabel('Post text');
  await box.fill(`written on a train ${stamp}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(box).toHaveValue('');
  await expect(waitingCard(page, `written on a train ${stamp}`)).toContainText('Waiting to send');
  const key = await waitingCard(page, `written on a train ${stamp}`).getAttribute('data-waiting');
  const card = page.locator(`article[data-waiting="${key}"]`);

  // A reply to the waiting post.
  await card.getByRole('button', { name: 'Reply' }).click();
  await card.locator('#reply-text').fill(`a reply to it ${stamp}`);
  await card.getByRole('button', { name: 'Reply', exact: true }).last().click();
  const reply = waitingCard(page, `a reply to it ${stamp}`);
  await expect(reply).toContainText('Replying to a post waiting to send');

  // An edit of the waiting post changes what will be sent.
  await card.getByRole('button', { name: 'Edit' }).first().click();
  await card.getByLabel('Edit post text').fill(`written on a train, edited ${stamp}`);
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(waitingCard(page, `written on a train, edited ${stamp}`)).toBeVisible();

  await expect(waitingCount(page)).toHaveText('5 waiting');
  await expect.poll(async () => (await kept(page, 'outbox'))[me.uuid]?.[2]?.length, 'kept in IndexedDB: [version, account, actions]').toBe(5);

  // A reload while still offline: everything still waits, and shows.
  await page.reload();
  await expect(waitingCount(page)).toHaveText('5 waiting');
  await expect(waitingCard(page, `written on a train, edited ${stamp}`)).toBeVisible();
  await expect(waitingCard(page, `a reply to it ${stamp}`)).toBeVisible();
  await waitingCount(page).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting to send' })).toBeVisible();
  const list = page.locator('.outbox-list > li');
  await expect(list).toHaveCount(5);
  await expect(list.nth(0)).toContainText(followedBefore ? 'Unfollow @arjun' : 'Follow @arjun');
  await expect(list.nth(1)).toContainText('Like');
  await expect(list.nth(2)).toContainText('Deletion of a post');
  await expect(list.nth(3)).toContainText(`written on a train, edited ${stamp}`);
  await expect(list.nth(4)).toContainText(`a reply to it ${stamp}`);

  // Back online: each is sent once, in order, and the page settles.
  const writes: string[] = [];
  page.on('request', (r) => { if (r.method() !== 'GET' && r.url().includes('/api/v1/')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`); });
  await context.setOffline(false);
  await expect(page.getByText('Nothing is waiting to be sent.')).toBeVisible({ timeout: 20_000 });
  await expect(waitingCount(page)).toHaveCount(0);
  expect(writes).toEqual([
    `POST /api/v1/user/${arjun.uuid}/follow`,
    `POST /api/v1/post/${liked}/like`,
    `DELETE /api/v1/post/${doomed}`,
    'POST /api/v1/post',
    'POST /api/v1/post',
  ]);
  const mine = (await api(page, token('sam'), `/user/${me.uuid}/posts/1`)).posts;
  const sent = mine.filter((p: any) => p.content === `written on a train, edited ${stamp}`);
  expect(sent, 'the post, once, as edited').toHaveLength(1);
  const replies = mine.filter((p: any) => p.content === `a reply to it ${stamp}`);
  expect(replies, 'the reply, once').toHaveLength(1);
  expect(replies[0].parent?.uuid ?? replies[0].parent, 'sent with its parent\'s real uuid').toBe(sent[0].uuid);
  expect(mine.some((p: any) => p.uuid === doomed)).toBe(false);
  expect((await api(page, token('sam'), `/post/${liked}`)).liked).toBe(true);
  expect((await api(page, token('sam'), `/user/${arjun.uuid}`)).followed).toBe(!followedBefore);
  expect(await kept(page, 'outbox')).toEqual({});

  // Tidy up for the other tests.
  for (const uuid of [replies[0].uuid, sent[0].uuid]) await page.request.delete(`/api/v1/post/${uuid}`, { headers: auth('sam') });
  await page.request.post(`/api/v1/user/${arjun.uuid}/follow`, { headers: auth('sam') });
  await page.request.delete(`/api/v1/post/${liked}`, { headers: auth('arjun') });
});

test('a like and an unlike while offline fold into nothing: no request at all', async ({ page, context }) => {
  const liked = await post(page, 'tomas', `fold me ${Date.now()}`);
  await signInWithToken(page, 'yuki');
  await page.goto(`/post/${liked}`);
  const like = page.getByRole('article').first().getByRole('button', { name: /Like/ });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  const likes: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/like')) likes.push(r.url()); });
  await context.setOffline(true);
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(waitingCount(page)).toHaveText('1 waiting');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(waitingCount(page)).toHaveCount(0);
  await context.setOffline(false);
  // Something answered again, which is when the outbox would send.
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await page.waitForTimeout(500);
  expect(likes).toEqual([]);
  await page.request.delete(`/api/v1/post/${liked}`, { headers: auth('tomas') });
});

test('two tabs back online together send each waiting action once', async ({ page, context }) => {
  const stamp = Date.now();
  await signInWithToken(page, 'leila');
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // What reached the server: a try made before the tab heard it was offline
  // fails in the browser (net::ERR_INTERNET_DISCONNECTED) and sends nothing.
  const posts: string[] = [];
  context.on('response', (r) => {
    const q = r.request();
    if (q.method() === 'POST' && q.url().endsWith('/api/v1/post')) posts.push(q.headers()['idempotency-key']);
  });
  await context.setOffline(true);
  await page.getByLabel('Post text').fill(`from the first tab ${stamp}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await other.getByLabel('Post text').fill(`from the second tab ${stamp}`);
  await other.getByRole('button', { name: 'Post', exact: true }).click();
  // Each tab shows both: they share one outbox.
  await expect(waitingCount(page)).toHaveText('2 waiting');
  await expect(waitingCount(other)).toHaveText('2 waiting');
  await context.setOffline(false);
  await expect(waitingCount(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(waitingCount(other)).toHaveCount(0, { timeout: 20_000 });
  expect(posts, 'two posts, each sent once').toHaveLength(2);
  expect(new Set(posts).size).toBe(2);
  const me = await api(page, token('leila'), '/user');
  const mine = (await api(page, token('leila'), `/user/${me.uuid}/posts/1`)).posts;
  for (const text of [`from the first tab ${stamp}`, `from the second tab ${stamp}`]) {
    const found = mine.filter((p: any) => p.content === text);
    expect(found, text).toHaveLength(1);
    await page.request.delete(`/api/v1/post/${found[0].uuid}`, { headers: auth('leila') });
  }
});

test('a 503 is tried again after a pause and a 429 after its Retry-After, and the post is sent once', async ({ page, context }) => {
  const text = `answered 503, then 429 ${Date.now()}`;
  await signInWithToken(page, 'sam');
  await context.setOffline(true);
  await page.getByLabel('Post text').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(waitingCard(page, text)).toContainText('Waiting to send');
  const tries: number[] = [];
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    tries.push(Date.now());
    if (tries.length === 1) return route.fulfill({ status: 503, json: { _message: 'busy' } });
    if (tries.length === 2) return route.fulfill({ status: 429, headers: { 'Retry-After': '6' }, json: { _message: 'slow down' } });
    return route.fallback();
  });
  await context.setOffline(false);
  await expect.poll(() => tries.length, { timeout: 20_000 }).toBe(2);
  // Still waiting, not refused: neither answer is a refusal.
  await expect(waitingCard(page, text).locator('.waiting-mark')).toHaveText('Waiting to send');
  await expect(waitingCard(page, text)).toHaveCount(0, { timeout: 20_000 });
  expect(tries).toHaveLength(3);
  expect(tries[1] - tries[0], 'the first pause after a 5xx is 2 s').toBeGreaterThanOrEqual(1_900);
  // Longer than the 4 s a second 5xx would wait: the header is what counts.
  expect(tries[2] - tries[1], 'Retry-After: 6 is waited for').toBeGreaterThanOrEqual(5_900);
  const me = await api(page, token('sam'), '/user');
  const posts = (await api(page, token('sam'), `/user/${me.uuid}/posts/1`)).posts as any[];
  const sent = posts.filter((p) => p.content === text);
  expect(sent).toHaveLength(1);
  await expect(page.getByRole('feed').getByRole('article').first()).toContainText(text);
  await page.request.delete(`/api/v1/post/${sent[0].uuid}`, { headers: auth('sam') });
});

test('a 401 keeps the action waiting until the account signs in again, then it is sent once', async ({ page, context }) => {
  const text = `waits for a new sign-in ${Date.now()}`;
  await signInWithToken(page, 'tomas');
  await context.setOffline(true);
  await page.getByLabel('Post text').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(waitingCard(page, text)).toContainText('Waiting to send');
  // The sign-in ends just as the post is sent (revoked elsewhere): the
  // post's own request is the one answered 401.
  let refused = 0;
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST' || refused++ > 0) return route.fallback();
    return route.fulfill({ status: 401, json: { _message: 'the token was revoked' } });
  });
  await context.setOffline(false);
  await expect.poll(() => refused).toBe(1);
  await expect(page.locator('.account-menu summary')).toHaveClass(/ended/, { timeout: 20_000 });
  // Not refused: it waits for the account, and survives a reload.
  await page.reload();
  await expect(waitingCard(page, text).locator('.waiting-mark')).toHaveText('Waiting to send');
  await expect(waitingCount(page)).toHaveText('1 waiting');
  await page.goto('/signin');
  await page.getByLabel('Access token', { exact: true }).fill(token('tomas'));
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(waitingCard(page, text)).toHaveCount(0, { timeout: 20_000 });
  const me = await api(page, token('tomas'), '/user');
  const sent = ((await api(page, token('tomas'), `/user/${me.uuid}/posts/1`)).posts as any[]).filter((p) => p.content === text);
  expect(sent).toHaveLength(1);
  await page.request.delete(`/api/v1/post/${sent[0].uuid}`, { headers: auth('tomas') });
});

test('a waiting reply whose post gets locked elsewhere is refused with the reason, kept, and can be discarded', async ({ page, context }) => {
  const parent = await post(page, 'ines', `lock me later ${Date.now()}`);
  await signInWithToken(page, 'olga');
  await page.goto(`/post/${parent}`);
  await expect(page.getByRole('article').first()).toBeVisible();
  await context.setOffline(true);
  await page.locator('#reply-text').fill('a reply that will be refused');
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(waitingCard(page, 'a reply that will be refused')).toContainText('Waiting to send');
  const locked = await page.request.patch(`/api/v1/post/${parent}`, { headers: auth('ines'), data: { locked: true } });
  expect(locked.ok()).toBeTruthy();
  await context.setOffline(false);
  const card = waitingCard(page, 'a reply that will be refused');
  await expect(card.locator('.waiting-mark')).toContainText('Not sent:', { timeout: 20_000 });
  await expect(waitingCount(page)).toHaveText('1 waiting');
  // Kept across a reload, with the reason.
  await page.reload();
  await expect(card.locator('.waiting-mark')).toContainText('Not sent:');
  await card.getByRole('button', { name: 'Discard' }).click();
  await expect(card).toHaveCount(0);
  await expect(waitingCount(page)).toHaveCount(0);
  await page.request.delete(`/api/v1/post/${parent}`, { headers: auth('ines') });
});

test('with Undo send on, a new post is held 5 s: Undo puts its text back and nothing is sent; left alone, it goes', async ({ page }) => {
  const stamp = Date.now();
  await signInWithToken(page, 'tomas');
  await page.locator('.account-menu summary').click();
  await page.getByLabel(/Undo send/).check();
  await page.locator('.account-menu summary').click();
  const sent: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/v1/post')) sent.push(r.url()); });
  const box = page.getByLabel('Post text');
  await box.fill(`take it back ${stamp}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(box).toHaveValue('');
  const card = waitingCard(page, `take it back ${stamp}`);
  await card.getByRole('button', { name: 'Undo' }).click();
  await expect(card).toHaveCount(0);
  await expect(box).toHaveValue(`take it back ${stamp}`);
  await expect(waitingCount(page)).toHaveCount(0);

  // Left alone, it is sent once the 5 s are over.
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(card).toContainText('Waiting to send');
  expect(sent, 'held, not sent yet').toEqual([]);
  await expect(card).toHaveCount(0, { timeout: 15_000 });
  expect(sent).toHaveLength(1);
  const me = await api(page, token('tomas'), '/user');
  const found = (await api(page, token('tomas'), `/user/${me.uuid}/posts/1`)).posts.filter((p: any) => p.content === `take it back ${stamp}`);
  expect(found, 'one post: the undone one was never sent').toHaveLength(1);
  await page.request.delete(`/api/v1/post/${found[0].uuid}`, { headers: auth('tomas') });
  await page.evaluate(() => localStorage.removeItem('perch.undo_send'));
});

test('actions waiting when the browser is closed are sent when it is opened again', async ({ playwright }, testInfo) => {
  const stamp = Date.now();
  const dir = testInfo.outputPath('profile');
  const { baseURL, launchOptions } = testInfo.project.use as any;
  const open = () => playwright.chromium.launchPersistentContext(dir, { ...launchOptions, baseURL });
  let browser = await open();
  let page = browser.pages()[0] ?? await browser.newPage();
  await signInWithToken(page, 'ines');
  await browser.setOffline(true);
  await page.getByLabel('Post text').fill(`written before closing ${stamp}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(waitingCount(page)).toHaveText('1 waiting');
  await browser.close();

  browser = await open();
  page = browser.pages()[0] ?? await browser.newPage();
  await page.goto('/');
  const me = await api(page, token('ines'), '/user');
  await expect.poll(async () => (await api(page, token('ines'), `/user/${me.uuid}/posts/1`)).posts
    .filter((p: any) => p.content === `written before closing ${stamp}`).length, { timeout: 20_000 }).toBe(1);
  await expect(waitingCount(page)).toHaveCount(0);
  const found = (await api(page, token('ines'), `/user/${me.uuid}/posts/1`)).posts.find((p: any) => p.content === `written before closing ${stamp}`);
  await page.request.delete(`/api/v1/post/${found.uuid}`, { headers: auth('ines') });
  await browser.close();
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('a long backlog draws its first 20 waiting posts on Home and links to the rest', async ({ page, context }) => {
    const stamp = Date.now();
    await signInWithToken(page, 'olga');
    // The outbox list is in the pages' module, kept by the worker.
    await keptByWorker(page);
    await context.setOffline(true);
    const box = page.getByLabel('Post text');
    for (let i = 1; i <= 22; i++) {
      await box.fill(`backlog ${i} ${stamp}`);
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await expect(box).toHaveValue('');
    }
    await expect(waitingCount(page)).toHaveText('22 waiting');
    await expect(page.locator('article.post.waiting')).toHaveCount(20);
    const more = page.getByRole('link', { name: 'and 2 more waiting: see them all' });
    await more.click();
    await expect(page.locator('.outbox-list > li')).toHaveCount(22);
    // Not sent: discarded, one by one from the list.
    for (let left = 22; left > 0; left--) {
      await page.locator('.outbox-list > li').first().getByRole('button', { name: 'Discard' }).click();
      await expect(page.locator('.outbox-list > li')).toHaveCount(left - 1);
    }
    await expect(page.getByText('Nothing is waiting to be sent.')).toBeVisible();
    await context.setOffline(false);
    expect(await kept(page, 'outbox')).toEqual({});
  });

  test('signing out with actions waiting asks first, and keeping them sends them at the next sign-in', async ({ page, context }) => {
    const stamp = Date.now();
    await signInWithToken(page, 'yuki');
    // The account menu's panel is a module of its own, kept by the worker.
    await keptByWorker(page);
    await context.setOffline(true);
    await page.getByLabel('Post text').fill(`kept through a sign-out ${stamp}`);
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(waitingCount(page)).toHaveText('1 waiting');
    await page.locator('.account-menu summary').click();
    await page.getByRole('button', { name: 'Sign out of @yuki' }).click();
    await expect(page.getByText('1 action waiting to be sent would go with it.')).toBeVisible();
    await page.getByRole('button', { name: 'Keep them for the next sign-in' }).click();
    // The sign-out ends in a reload: a navigation started before it would be cut off.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
    await context.setOffline(false);
    await signInWithToken(page, 'yuki');
    const me = await api(page, token('yuki'), '/user');
    await expect.poll(async () => (await api(page, token('yuki'), `/user/${me.uuid}/posts/1`)).posts
      .filter((p: any) => p.content === `kept through a sign-out ${stamp}`).length, { timeout: 20_000 }).toBe(1);
    const found = (await api(page, token('yuki'), `/user/${me.uuid}/posts/1`)).posts.find((p: any) => p.content === `kept through a sign-out ${stamp}`);
    await page.request.delete(`/api/v1/post/${found.uuid}`, { headers: auth('yuki') });
  });

  test('an edit made offline waits marked on its card, can be changed from the list, and one request sends the last text', async ({ page, context }) => {
    const stamp = Date.now();
    const mine = await post(page, 'arjun', `before the edit ${stamp}`);
    await signInWithToken(page, 'arjun');
    await page.goto(`/post/${mine}`);
    const card = page.locator(`article[data-uuid="${mine}"]`);
    await expect(card).toContainText(`before the edit ${stamp}`);
    // Offline as a returning reader is: the service worker keeps every
    // module of the app (docs/split.md), so editing and the outbox list open
    // with no network though this visit has not loaded them yet.
    await keptByWorker(page);
    await context.setOffline(true);
    await ownAction(card, 'Edit');
    await card.getByLabel('Edit post text').fill(`edited offline ${stamp}`);
    await card.getByRole('button', { name: 'Save' }).click();
    // The card shows the text it will have, marked, with Undo.
    await expect(card.locator('.post-content')).toHaveText(`edited offline ${stamp}`);
    await expect(card.locator('.waiting-mark')).toHaveText('Edit waiting to send');
    await expect(card.getByRole('button', { name: 'Undo' })).toBeVisible();

    await waitingCount(page).click();
    const line = page.locator('.outbox-list > li').first();
    await expect(line).toContainText('Edit of a post');
    await line.getByRole('button', { name: 'Edit' }).click();
    await line.getByLabel('Edit post text').fill(`edited twice offline ${stamp}`);
    await line.getByRole('button', { name: 'Save' }).click();
    await expect(line).toContainText(`edited twice offline ${stamp}`);
    await expect(waitingCount(page)).toHaveText('1 waiting');

    const patches: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
    await context.setOffline(false);
    await expect(page.getByText('Nothing is waiting to be sent.')).toBeVisible({ timeout: 20_000 });
    expect(patches, 'one request, with the last text').toHaveLength(1);
    expect(JSON.parse(patches[0]).content).toBe(`edited twice offline ${stamp}`);
    expect((await api(page, token('arjun'), `/post/${mine}`)).content).toBe(`edited twice offline ${stamp}`);
    await page.request.delete(`/api/v1/post/${mine}`, { headers: auth('arjun') });
  });
});

test('a post is shown waiting only once it is on disk; a write the browser refuses keeps the text in the box, with why', async ({ page, context }) => {
  await signInWithToken(page, 'sam');
  const sam = await page.evaluate(() => JSON.parse(localStorage.getItem('perch.session')!).user.uuid as string);
  await context.setOffline(true);
  // The browser refuses to keep anything more (its storage is full).
  await page.evaluate(() => {
    const outbox = (window as any).perchOutbox;
    outbox.realPut = outbox.put;
    outbox.put = () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
  });
  const refused = `not kept, so not shown waiting ${Date.now()}`;
  await page.getByLabel('Post text').fill(refused);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('region', { name: 'New post' }).getByRole('alert')).toContainText('Your text is kept');
  await expect(page.getByLabel('Post text')).toHaveValue(refused);
  await expect(waitingCard(page, refused)).toHaveCount(0);
  expect(Object.keys(await kept(page, 'outbox'))).not.toContain(sam);

  // Storage back: the moment the card says "Waiting to send", IndexedDB holds it.
  await page.evaluate(() => { const o = (window as any).perchOutbox; o.put = o.realPut; });
  const waits = `kept, then shown waiting ${Date.now()}`;
  await page.getByLabel('Post text').fill(waits);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(waitingCard(page, waits)).toBeVisible();
  const onDisk = await kept(page, 'outbox');
  expect(JSON.stringify(onDisk[sam])).toContain(waits);
  await context.setOffline(false);
});

test('a draft typed just before the tab closes is kept whole', async ({ page, context }) => {
  await signInWithToken(page, 'sam');
  const writer = await context.newPage();
  await writer.goto('/');
  const text = `typed, then the tab closed at once ${Date.now()}`;
  await writer.getByLabel('Post text').pressSequentially(text, { delay: 0 });
  await writer.close({ runBeforeUnload: true });
  await page.reload();
  // Measured: every character typed is there (the draft is written on each input).
  await expect(page.getByLabel('Post text')).toHaveValue(text);
});

test('a 409 for a key still being answered is not a refusal: the post waits, goes again with its key, and is made once', async ({ page }) => {
  await signInWithToken(page, 'sam');
  const me = await api(page, token('sam'), '/user');
  const text = `answered 409 first ${Date.now()}`;
  const keys: string[] = [];
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key']);
    if (keys.length === 1) {
      return route.fulfill({ status: 409, json: { code: 409, _message: 'A request with this Idempotency-Key is still being answered.' } });
    }
    return route.continue();
  });
  await page.getByLabel('Post text').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.locator('article.post:not(.waiting)', { hasText: text })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.composer .error')).toHaveCount(0);
  expect(keys.length).toBeGreaterThanOrEqual(2);
  expect(new Set(keys).size, 'sent again with the same key').toBe(1);
  const posts = (await api(page, token('sam'), `/user/${me.uuid}/posts/1`)).posts as any[];
  expect(posts.filter((p) => p.content === text)).toHaveLength(1);
});
