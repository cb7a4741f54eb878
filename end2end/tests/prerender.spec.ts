// The first screen rendered at build time (docs/prerender.md): a visitor
// not signed in who opens the sign-in page reads it, in their language,
// before the wasm has arrived; the wasm draws the same page behind it and
// takes over with no change to what is read, keeping what was typed and
// the focus.
import { test, expect } from './fixtures';
import { signInWithToken, token } from './helpers';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

const catalog = (code: string) => JSON.parse(readFileSync(`../locales/${code}.json`, 'utf8'));

/** Holds back the files whose address matches `pattern` until released. */
async function holdBack(page: Page, pattern: RegExp) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  return release;
}

/** What the page reads out: its title, language and accessibility tree
 *  (roles, names, text; hidden elements are not in it). */
const readOut = async (page: Page) => ({
  title: await page.title(),
  lang: await page.locator('html').getAttribute('lang'),
  dir: await page.locator('html').getAttribute('dir'),
  // While the app draws behind the frame, the frame's ids are renamed
  // `boot-…` (one id, one element): a link to one reads the same.
  tree: (await page.locator('body').ariaSnapshot()).replace(/"#boot-/g, '"#'),
});

for (const [locale, code] of [['en-GB', 'en'], ['de-DE', 'de'], ['ar-EG', 'ar']] as const) {
  test.describe(`a browser asking for ${code}`, () => {
    test.use({ locale });
    const words = catalog(code);

    test('reads the sign-in page before the wasm arrives, and the wasm draws the same', async ({ page }) => {
      const releaseAll = await holdBack(page, /\.wasm$/);
      await page.goto('/signin');
      const frame = page.locator('#boot[data-prerendered]');
      await expect(frame.getByRole('heading', { level: 1 })).toHaveText(words.sign_in);
      await expect(frame.getByRole('button', { name: words.sign_in_with_token })).toBeVisible();
      // The server's name is this page's host (config.json's api_base is a path).
      const host = new URL(page.url()).host;
      // (Arabic's message isolates the name, FSI … PDI: compared without the marks.)
      const unmarked = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
      await expect.poll(async () => unmarked(await frame.locator('#with-server + p').innerText())).toBe(words.sign_in_on_server.replace('{server}', host));
      const rendered = await readOut(page);
      expect(rendered.title).toBe(`${words.sign_in} · Perch`);
      expect(rendered.lang).toBe(code);
      expect(rendered.dir).toBe(code === 'ar' ? 'rtl' : 'ltr');

      releaseAll();
      await expect(page.locator('#boot')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.sign_in);
      // The language menu's options are made by an effect after the first draw.
      await expect(page.getByRole('combobox')).toHaveValue(code);
      expect(await readOut(page)).toEqual(rendered);
    });
  });
}

test('the app draws behind the rendered page until its own page is there: nothing read changes meanwhile', async ({ page }) => {
  // The main module runs; the sign-in page's module is held back.
  const release = await holdBack(page, /split_page_signin\.wasm$/);
  await page.goto('/signin');
  const rendered = await readOut(page);
  // The app has started: its header is drawn, behind the frame.
  await expect(page.locator('body > header.site-header')).toHaveCount(1);
  await expect(page.locator('body > header.site-header')).toBeHidden();
  expect(await readOut(page)).toEqual(rendered);
  // One id, one element: a label or a skip link finds the frame's own.
  const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  release();
  await expect(page.locator('#boot')).toHaveCount(0);
  await expect(page.locator('body > header.site-header')).toBeVisible();
  await expect(page.getByRole('combobox')).toHaveValue('en');
  expect(await readOut(page)).toEqual(rendered);
});

test('what was typed into the rendered page before the wasm arrived is kept, with its focus, and signs in', async ({ page }) => {
  const release = await holdBack(page, /\.wasm$/);
  await page.goto('/signin');
  const field = page.locator('#boot #access-token');
  const typed = token('mira');
  await field.fill(typed);
  await field.press('End');
  release();
  await expect(page.locator('#boot')).toHaveCount(0);
  const taken = page.locator('#access-token');
  await expect(taken).toHaveValue(typed);
  await expect(taken).toBeFocused();
  // The app read it as typed: Enter signs in.
  await taken.press('Enter');
  await expect(page.locator('textarea#post-text')).toBeVisible();
});

test('Enter pressed in the rendered page before the wasm arrived reloads nothing, and signs in once the app has taken over', async ({ page }) => {
  const release = await holdBack(page, /\.wasm$/);
  await page.goto('/signin');
  const field = page.locator('#boot #access-token');
  await field.fill(token('mira'));
  await field.press('Enter');
  // The browser sent no form: the page and what was typed stay.
  await expect(page).toHaveURL(/\/signin$/);
  await expect(field).not.toHaveValue('');
  release();
  await expect(page.locator('textarea#post-text')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
});

test('a signed-in visitor gets no rendered sign-in form', async ({ page }) => {
  await signInWithToken(page, 'mira');
  const release = await holdBack(page, /\.wasm$/);
  await page.goto('/signin');
  await expect(page.locator('#boot')).toBeVisible();
  await expect(page.locator('#boot')).not.toHaveAttribute('data-prerendered');
  await expect(page.locator('#access-token')).toHaveCount(0);
  release();
  await expect(page.getByText('@mira').first()).toBeVisible();
});
