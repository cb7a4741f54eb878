// A thread's replies as a tree (issue 35, point 1): expand and collapse in
// place, the author's follow-ups first and open, "Continue this thread"
// below level 3, the state kept on Back and a reload, levels named for
// assistive technology, one request per page of replies.
// Every actor is a new account (`perch-server user add`).
import { test, expect, expectAccessible } from './fixtures';
import { call, newAccount, ownAction, signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';

function person(label: string): { name: string; tok: string; label: string } {
  const name = newAccount(label.toLowerCase(), label);
  return { name, tok: token(name), label };
}

async function post(page: Page, tok: string, content: string, parent?: string): Promise<string> {
  return (await call(page, tok, 'POST', '/post', parent ? { content, parent } : { content })).uuid;
}

/** Ana's post with Ben's reply three levels deep (and a fourth below),
 *  and Ana's own follow-up, answered by Ana again. */
async function conversation(page: Page) {
  const [ana, ben, cai, dee, eve] = ['Ana', 'Ben', 'Cai', 'Dee', 'Eve'].map(person);
  const root = await post(page, ana.tok, 'Where do herons sleep?');
  const ben1 = await post(page, ben.tok, 'In trees, mostly.', root);
  const follow = await post(page, ana.tok, 'Asking for a map I am drawing.', root);
  const follow2 = await post(page, ana.tok, 'The map is of the delta.', follow);
  const cai2 = await post(page, cai.tok, 'Not always: I saw one on a roof.', ben1);
  const dee3 = await post(page, dee.tok, 'Which roof?', cai2);
  const eve4 = await post(page, eve.tok, 'The old mill, I bet.', dee3);
  return { ana, ben, root, ben1, follow, follow2, cai2, dee3, eve4 };
}

const card = (page: Page, uuid: string) => page.locator(`article.post[data-uuid="${uuid}"]`);
const toggleOf = (page: Page, uuid: string) => card(page, uuid).locator(':scope > .branch-toggle');

test('replies expand in place to level 3, then Continue this thread; the author\'s follow-ups come first and open; the state holds on Back and a reload', async ({ page }) => {
  const t = await conversation(page);
  await signInWithToken(page, t.ana.name);
  await page.goto(`/post/${t.root}`);
  const replies = page.getByRole('feed', { name: 'Replies' });
  // The author's follow-up first, already open with its own follow-up.
  await expect(replies.locator(':scope > article')).toHaveCount(2);
  await expect(replies.locator(':scope > article').first()).toHaveAttribute('data-uuid', t.follow);
  await expect(page.getByRole('group', { name: 'Replies to Ana, level 2' })).toContainText('The map is of the delta.');
  await expect(toggleOf(page, t.follow)).toHaveAttribute('aria-expanded', 'true');

  // Ben's reply: 1 reply, collapsed; expand two levels.
  await expect(toggleOf(page, t.ben1)).toHaveText('1 reply');
  await expect(toggleOf(page, t.ben1)).toHaveAttribute('aria-expanded', 'false');
  await toggleOf(page, t.ben1).click();
  const level2 = page.getByRole('group', { name: 'Replies to Ben, level 2' });
  await expect(level2.getByRole('article')).toHaveAttribute('data-uuid', t.cai2);
  await expect(level2.getByRole('article')).toHaveAttribute('aria-posinset', '1');
  await expect(level2.getByRole('article')).toHaveAttribute('aria-setsize', '1');
  await toggleOf(page, t.cai2).click();
  const level3 = page.getByRole('group', { name: 'Replies to Cai, level 3' });
  await expect(level3.getByRole('article').first()).toHaveAttribute('data-uuid', t.dee3);
  // Level 3 is the deepest drawn: its replies are on the reply's own page.
  await expect(card(page, t.dee3).getByRole('link', { name: 'Continue this thread' })).toBeVisible();
  await expect(card(page, t.eve4)).toHaveCount(0);
  await expectAccessible(page);
  // As assistive technology reads it: the group's name says the level, the
  // reply its position and the level's size (Chromium's accessibility tree).
  const cdp = await page.context().newCDPSession(page);
  const { root: doc } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: doc.nodeId, selector: `article.post[data-uuid="${t.cai2}"]` });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: true });
  const reply = nodes.find((n: any) => n.role?.value === 'article' && !n.ignored)!;
  expect(reply.description?.value).toBe('Reply, level 2, 1 of 1');
  const groupNode = await cdp.send('DOM.querySelector', { nodeId: doc.nodeId, selector: `[id="replies-of-${t.ben1}"]` });
  const { nodes: around } = await cdp.send('Accessibility.getPartialAXTree', { nodeId: groupNode.nodeId, fetchRelatives: false });
  expect([around[0].role?.value, around[0].name?.value]).toEqual(['group', 'Replies to Ben, level 2']);

  // j walks the posts as drawn, nested ones included.
  await card(page, t.root).focus();
  const order: string[] = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('j');
    order.push((await page.evaluate(() => document.activeElement?.getAttribute('data-uuid'))) ?? '');
  }
  expect(order).toEqual([t.follow, t.follow2, t.ben1, t.cai2, t.dee3]);

  // Collapse the follow-up; the state holds after a reload.
  await toggleOf(page, t.follow).click();
  await expect(card(page, t.follow2)).toHaveCount(0);
  await page.reload();
  await expect(card(page, t.dee3)).toBeVisible();
  await expect(card(page, t.follow2)).toHaveCount(0);
  await expect(toggleOf(page, t.follow)).toHaveAttribute('aria-expanded', 'false');

  // Continue this thread, and Back.
  await card(page, t.dee3).getByRole('link', { name: 'Continue this thread' }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${t.dee3}$`));
  await expect(page.getByRole('feed', { name: 'Replies' }).getByRole('article')).toHaveAttribute('data-uuid', t.eve4);
  await page.goBack();
  await expect(card(page, t.dee3)).toBeVisible();
  await expect(card(page, t.follow2)).toHaveCount(0);
});

test('a reply written inside the tree shows under its parent, whose count goes up', async ({ page }) => {
  const t = await conversation(page);
  await signInWithToken(page, t.ben.name);
  await page.goto(`/post/${t.root}`);
  await toggleOf(page, t.ben1).click();
  await expect(toggleOf(page, t.cai2)).toHaveText('1 reply');
  await card(page, t.cai2).getByRole('link', { name: 'Reply', exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/post/${t.cai2}#reply$`));
  await page.getByLabel('Post text').fill('On the mill, yes.');
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(page.getByRole('feed', { name: 'Replies' })).toContainText('On the mill, yes.');
  await page.goBack();
  await expect(toggleOf(page, t.cai2)).toHaveText('2 replies');
  await toggleOf(page, t.cai2).click();
  await expect(page.getByRole('group', { name: 'Replies to Cai, level 3' })).toContainText('On the mill, yes.');
});

test('a thread of 200 posts opens with one request for its replies, and each expansion is one more', async ({ page }) => {
  const [ana, ben] = ['Ana', 'Ben'].map(person);
  const root = await post(page, ana.tok, 'A busy thread.');
  const firsts: string[] = [];
  for (let i = 0; i < 14; i++) firsts.push(await post(page, ben.tok, `reply ${i}`, root));
  let made = 15;
  for (let i = 0; made < 200; i = (i + 1) % firsts.length, made++) await post(page, ana.tok, `answer ${made}`, firsts[i]);
  await signInWithToken(page, ben.name);
  const asked: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/replies/')) asked.push(new URL(r.url()).pathname); });
  await page.goto(`/post/${root}`);
  const replies = page.getByRole('feed', { name: 'Replies' });
  await expect(replies.locator(':scope > article')).toHaveCount(14);
  await expect(toggleOf(page, firsts[0])).toBeVisible();
  expect(asked).toEqual([`/api/v1/post/${root}/replies/1`]);
  await toggleOf(page, firsts[3]).click();
  await expect(page.getByRole('group', { name: 'Replies to Ben, level 2' }).getByRole('article').first()).toBeVisible();
  expect(asked).toEqual([`/api/v1/post/${root}/replies/1`, `/api/v1/post/${firsts[3]}/replies/1`]);
});

test('Arabic at 320 px: a nested reply indents from the right, with no horizontal scroll', async ({ page }) => {
  const t = await conversation(page);
  await page.setViewportSize({ width: 320, height: 800 });
  await signInWithToken(page, t.ana.name);
  await page.evaluate(() => localStorage.setItem('perch.language', 'ar'));
  await page.goto(`/post/${t.root}`);
  await toggleOf(page, t.ben1).click();
  await toggleOf(page, t.cai2).click();
  const nested = card(page, t.dee3);
  await expect(nested).toBeVisible();
  const [outer, inner] = await Promise.all([card(page, t.ben1).boundingBox(), nested.boundingBox()]);
  // Indented from the right: the nested card starts further in on the
  // right than on the left.
  const fromRight = outer!.x + outer!.width - (inner!.x + inner!.width);
  const fromLeft = inner!.x - outer!.x;
  expect(fromRight).toBeGreaterThan(fromLeft + 8);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
});

test('deleting one\'s own nested reply moves focus to the next reply of its level, past the replies under it', async ({ page }) => {
  // Issue 45, 4.5: the focus rule of Delete holds in the tree too.
  const [ana, ben, cai, dee, eve] = ['Ana', 'Ben', 'Cai', 'Dee', 'Eve'].map(person);
  const me = person('Mo');
  const root = await post(page, ana.tok, 'Which way do the geese fly?');
  const ben1 = await post(page, ben.tok, 'South, in autumn.', root);
  const mine = await post(page, me.tok, 'Mine: and north again in spring.', ben1);
  const cai2 = await post(page, cai.tok, 'Some stay all year.', ben1);
  await post(page, dee.tok, 'Under mine.', mine);
  await post(page, eve.tok, 'Under Cai\'s.', cai2);
  await signInWithToken(page, me.name);
  await page.goto(`/post/${root}`);
  await toggleOf(page, ben1).click();
  const level2 = page.getByRole('group', { name: 'Replies to Ben, level 2' });
  await expect(level2.locator(':scope > article')).toHaveCount(2);
  // Both open, so a nested card is next to each in the page's order.
  await toggleOf(page, mine).click();
  await toggleOf(page, cai2).click();
  await expect(page.getByText('Under mine.')).toBeVisible();
  await expect(page.getByText('Under Cai\'s.')).toBeVisible();

  const doomed = card(page, mine);
  await ownAction(doomed, 'Delete');
  await doomed.getByRole('button', { name: 'Delete post' }).click();
  await expect(card(page, mine)).toHaveCount(0);
  await expect(card(page, cai2)).toBeFocused();
});
