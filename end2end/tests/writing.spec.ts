// Writing against the real server: posting, replying, locking, editing,
// deleting, the counter, drafts, and keeping the text through failures.
import { test, expect } from './fixtures';
import { execFileSync, spawn } from 'node:child_process';
import { api, ownAction, signInWithToken, token, SERVER_BIN, DB_DIR } from './helpers';

test('a post from the home page appears on the own profile and clears its draft', async ({ page }) => {
  await signInWithToken(page, 'leila');
  const field = page.getByLabel('Post text');
  await field.fill('Hello from the composer 🐦');
  await expect(page.getByText('475 left')).toBeVisible();
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(field).toHaveValue('');
  // The draft's text is gone: what is left is the mark that it was sent
  // (for the other tabs, account/drafts.rs), dropped at the next start.
  const drafts = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('perch.draft.')).map((k) => localStorage.getItem(k)));
  expect(await drafts()).toEqual(['\u0000sent\u0000Hello from the composer 🐦']);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  const first = page.getByRole('feed', { name: 'Posts' }).getByRole('article').first();
  await expect(first).toContainText('Hello from the composer 🐦');
  await page.reload();
  await expect(page.getByRole('feed', { name: 'Posts' }).getByRole('article').first()).toContainText('Hello from the composer 🐦');
  expect(await drafts()).toEqual([]);
});

test('Ctrl+Enter sends once; a second press while sending sends nothing', async ({ page }) => {
  await signInWithToken(page, 'leila');
  const me = await api(page, token('leila'), '/user');
  const before = (await api(page, token('leila'), `/user/${me.uuid}/posts/1`)).posts.length;
  await page.getByLabel('Post text').fill('sent with the keyboard');
  await page.getByLabel('Post text').press('Control+Enter');
  await page.getByLabel('Post text').press('Control+Enter');
  await expect(page.getByLabel('Post text')).toHaveValue('');
  const posts = (await api(page, token('leila'), `/user/${me.uuid}/posts/1`)).posts as any[];
  expect(posts.filter((p) => p.content === 'sent with the keyboard')).toHaveLength(1);
  expect(posts.length).toBe(Math.min(before + 1, 15));
});

test('a reply appears under the post and counts', async ({ page }) => {
  await signInWithToken(page, 'sam');
  const post = await (await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('ines')}` }, data: { content: 'reply to me' } })).json();
  await page.goto(`/post/${post.uuid}`);
  await expect(page.locator('article.focused').getByRole('link', { name: '0 replies', exact: true })).toBeVisible();
  await page.locator('article.focused').getByRole('link', { name: 'Reply', exact: true }).click();
  const box = page.getByRole('region', { name: 'Reply to @ines' });
  await expect(box.getByLabel('Post text')).toBeFocused();
  await box.getByLabel('Post text').fill('here is a reply');
  await box.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(page.getByRole('feed', { name: 'Replies' }).getByRole('article')).toContainText(['here is a reply']);
  await expect(page.locator('article.focused').getByRole('link', { name: '1 reply', exact: true })).toBeVisible();
  expect((await api(page, token('sam'), `/post/${post.uuid}`)).reply_count).toBe(1);
});

test('a locked post offers no reply, and the server refuses one', async ({ page }) => {
  await signInWithToken(page, 'sam');
  const post = await (await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('ines')}` }, data: { content: 'no replies please', locked: true } })).json();
  await page.goto(`/post/${post.uuid}`);
  await expect(page.getByText('Replies are off: this post is locked.')).toBeVisible();
  await expect(page.getByLabel('Post text')).toHaveCount(0);
  await expect(page.locator('article.focused').getByRole('link', { name: 'Reply', exact: true })).toHaveCount(0);
  const refused = await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('sam')}` }, data: { content: 'sneaky', parent: post.uuid } });
  expect(refused.status()).toBe(403);
});

test('edit one\'s own post in place', async ({ page }) => {
  await signInWithToken(page, 'yuki');
  const post = await (await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('yuki')}` }, data: { content: 'before the edit' } })).json();
  await page.goto(`/post/${post.uuid}`);
  const card = page.locator('article.focused');
  await ownAction(card, 'Edit');
  await card.getByLabel('Edit post text').fill('after the edit');
  await card.getByRole('checkbox', { name: /Locked/ }).check();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('after the edit');
  await expect(card).toContainText('Locked');
  const server = await api(page, token('yuki'), `/post/${post.uuid}`);
  expect([server.content, server.locked]).toEqual(['after the edit', true]);
});

test('delete one\'s own post after confirming; others get no such buttons', async ({ page }) => {
  await signInWithToken(page, 'yuki');
  const post = await (await page.request.post('/api/v1/post', { headers: { Authorization: `Bearer ${token('yuki')}` }, data: { content: 'soon gone' } })).json();
  await page.goto('/user/@yuki');
  const card = page.getByRole('feed', { name: 'Posts' }).getByRole('article').filter({ hasText: 'soon gone' });
  await ownAction(card, 'Delete');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toBeVisible();
  await ownAction(card, 'Delete');
  await card.getByRole('button', { name: 'Delete post' }).click();
  await expect(page.getByText('soon gone')).toHaveCount(0);
  const gone = await page.request.get(`/api/v1/post/${post.uuid}`, { headers: { Authorization: `Bearer ${token('yuki')}` } });
  expect(gone.status()).toBe(404);
  // Someone else's post: no Edit or Delete.
  await page.goto('/user/@sam');
  const theirs = page.getByRole('feed', { name: 'Posts' }).getByRole('article').first();
  await expect(theirs).toBeVisible();
  await theirs.locator(':scope > header details.card-more > summary').click();
  const menu = theirs.locator(':scope > header .card-menu');
  await expect(menu.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(menu.getByRole('button', { name: 'Delete' })).toHaveCount(0);
});

test('a draft survives a reload', async ({ page }) => {
  await signInWithToken(page, 'olga');
  await page.getByLabel('Post text').fill('half-written thought');
  await page.reload();
  await expect(page.getByLabel('Post text')).toHaveValue('half-written thought');
});

test('501 characters are blocked with the counter saying 1 over', async ({ page }) => {
  await signInWithToken(page, 'olga');
  const text = 'é漢🙂'.repeat(167); // 501 characters, multi-byte
  await page.getByLabel('Post text').fill(text);
  await expect(page.locator('.composer .counter')).toHaveText('1 over');
  // Why it cannot be sent is read with the field, not only seen below it.
  await expect(page.getByLabel('Post text')).toHaveAccessibleDescription(/1 character over the limit of 500/);
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  await page.getByLabel('Post text').press('Control+Enter');
  await expect(page.getByLabel('Post text')).toHaveValue(text);
  await page.getByLabel('Post text').press('Backspace');
  await expect(page.locator('.composer .counter')).toHaveText('0 left');
  await expect(page.getByLabel('Post text')).not.toHaveAccessibleDescription(/over the limit/);
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeEnabled();
});

test('invisible characters alone cannot be sent, and a NUL is refused with the reason, as the server does', async ({ page }) => {
  await signInWithToken(page, 'olga');
  const box = page.getByLabel('Post text');
  const send = page.getByRole('button', { name: 'Post', exact: true });
  await box.fill('\u200B\uFEFF \u2060');
  await expect(send).toBeDisabled();
  await expect(page.locator('.composer .error')).toHaveCount(0);
  await box.fill('a\u0000b');
  await expect(box).toHaveValue('a\u0000b');
  await expect(page.locator('.composer .error')).toContainText('NUL');
  await expect(send).toBeDisabled();
  await box.fill('ab');
  await expect(page.locator('.composer .error')).toHaveCount(0);
  await expect(send).toBeEnabled();
});

test('a post sent while the server is stopped waits in the outbox, marked, and is sent once it is back', async ({ page }) => {
  // A server of this test's own, so it can be stopped and started again.
  const port = 8200 + Math.floor(Math.random() * 500);
  const db = `${DB_DIR}/stopped-${port}.db`;
  const start = () => {
    const child = spawn(SERVER_BIN, ['--db', db, 'serve', '--demo', '--addr', `127.0.0.1:${port}`, '--static', '../dist'], { stdio: 'ignore' });
    return child;
  };
  const up = async () => {
    await expect.poll(async () => (await page.request.get(`http://127.0.0.1:${port}/api/v1/ping`).catch(() => null))?.ok() ?? false, { timeout: 20_000 }).toBe(true);
  };
  let server = start();
  try {
    await up();
    const tok = execFileSync(SERVER_BIN, ['--db', db, 'token', 'olga'], { encoding: 'utf8' }).trim().split('\n').pop()!;
    await page.goto(`http://127.0.0.1:${port}/signin`);
    await page.getByLabel('Access token', { exact: true }).fill(tok);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.getByLabel('Post text').fill('written while the server was down');

    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    // It waits, shown under the composer; the box is free again.
    const waiting = page.locator('article.post.waiting', { hasText: 'written while the server was down' });
    await expect(waiting).toContainText('Waiting to send');
    await expect(page.getByLabel('Post text')).toHaveValue('');
    await expect(page.locator('.waiting-count')).toHaveText('1 waiting');

    server = start();
    await up();
    // Tried again with backoff: sent once the server answers.
    await expect(waiting).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('.waiting-count')).toHaveCount(0);
    const me = await (await page.request.get(`http://127.0.0.1:${port}/api/v1/user`, { headers: { Authorization: `Bearer ${tok}` } })).json();
    const posts = await (await page.request.get(`http://127.0.0.1:${port}/api/v1/user/${me.uuid}/posts/1`, { headers: { Authorization: `Bearer ${tok}` } })).json();
    expect(posts.posts[0].content).toBe('written while the server was down');
  } finally {
    server.kill('SIGTERM');
  }
});

test('a post whose answer was lost waits and is made once when sent again: the retry carries the same Idempotency-Key', async ({ page }) => {
  await signInWithToken(page, 'arjun');
  const tok = token('arjun');
  const me = await api(page, tok, '/user');
  const content = `the answer to this one is lost ${Date.now()}`;
  const keys: string[] = [];
  let first = true;
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key']);
    if (first) {
      first = false;
      // The server stores the post; the answer never reaches the page.
      await route.fetch();
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  // The look at the first page before sending again finds nothing here
  // (it fails), so the retry is sent: the key must make it the same write.
  await page.route(`**/api/v1/user/${me.uuid}/posts/1`, (route) => route.abort());
  await page.getByLabel('Post text').fill(content);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  // No answer: it waits in the outbox, and the outbox tries again.
  await expect(page.getByLabel('Post text')).toHaveValue('');
  await expect.poll(() => keys.length, { timeout: 20_000 }).toBe(2);
  await expect(page.locator('article.post.waiting')).toHaveCount(0, { timeout: 10_000 });
  await page.unroute(`**/api/v1/user/${me.uuid}/posts/1`);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1], 'the retry is the same write').toBe(keys[0]);
  const posts = (await api(page, tok, `/user/${me.uuid}/posts/1`)).posts.filter((p: any) => p.content === content);
  expect(posts, 'one post, not two').toHaveLength(1);
  await expect(page.locator('.post-content', { hasText: content })).toHaveCount(1);
  await page.request.delete(`/api/v1/post/${posts[0].uuid}`, { headers: { Authorization: `Bearer ${tok}` } });
});

test('against a server that ignores Idempotency-Key, a post whose answer was lost is found, not sent again', async ({ page }) => {
  await signInWithToken(page, 'leila');
  const tok = token('leila');
  const me = await api(page, tok, '/user');
  const content = `lost answer, keyless server ${Date.now()}`;
  let sent = 0;
  await page.route('**/api/v1/post', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    sent += 1;
    // A server without the extension: the header never reaches it.
    const headers = { ...route.request().headers() };
    delete headers['idempotency-key'];
    await route.fetch({ headers });
    if (sent === 1) return route.abort('connectionreset');
    return route.continue({ headers });
  });
  await page.getByLabel('Post text').fill(content);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByLabel('Post text')).toHaveValue('');
  // The outbox's next try looks first, finds it made, and sends nothing.
  await expect(page.locator('article.post.waiting')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('.post-content', { hasText: content })).toHaveCount(1);
  expect(sent, 'the retry looked first, and found it made').toBe(1);
  const posts = (await api(page, tok, `/user/${me.uuid}/posts/1`)).posts.filter((p: any) => p.content === content);
  expect(posts).toHaveLength(1);
  await page.request.delete(`/api/v1/post/${posts[0].uuid}`, { headers: { Authorization: `Bearer ${tok}` } });
});

test('the Locked switch shows whether it is on, and a ring while it has focus', async ({ page }) => {
  await signInWithToken(page, 'leila');
  // The composer's options show once something is written.
  await page.getByLabel('Post text').fill('a thought, maybe locked');
  const box = page.getByRole('checkbox', { name: /Locked/ });
  const label = page.locator('label.lock-switch');
  const look = () => label.evaluate((l) => { const s = getComputedStyle(l); return { border: s.borderTopColor, weight: s.fontWeight, ring: s.outlineStyle }; });
  const off = await look();
  await box.check();
  const on = await look();
  expect(on.border).not.toBe(off.border);
  expect(Number(on.weight)).toBeGreaterThan(Number(off.weight));
  await page.getByLabel('Post text').focus();
  expect((await look()).ring).toBe('none');
  // From the keyboard: Tab from the text onto it, Space turns it off.
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  const again = await look();
  expect([again.border, again.weight]).toEqual([off.border, off.weight]);
  expect(again.ring, 'the ring of the keyboard focus').not.toBe('none');
  await page.getByLabel('Post text').fill('');
});
