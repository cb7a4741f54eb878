// Times as a reader sees them: relative times that move on while the page
// stays open, and absolute times in the reader's own time zone, all in the
// interface's language (German here, from the browser's languages).
import { test, expect } from './fixtures';
import { token } from './helpers';

test.use({ timezoneId: 'Asia/Tokyo', locale: 'de-DE' });

test('relative times move on while the page is open, and dates are the reader\'s own', async ({ page }) => {
  await page.clock.install();
  await page.goto('/signin');
  await page.locator('#access-token').fill(token('mira'));
  await page.locator('section:has(#with-token) button[type=submit]').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Startseite' })).toBeVisible();
  const unit = (n: number, unit: string) =>
    page.evaluate(([n, unit]) => new Intl.NumberFormat('de', { style: 'unit', unit: unit as string, unitDisplay: 'narrow' }).format(n as number), [n, unit]);
  const mira = token('mira');
  const res = await page.request.post('/api/v1/post', {
    headers: { Authorization: `Bearer ${mira}` },
    data: { content: 'A post to watch the clock on.' },
  });
  expect(res.ok()).toBeTruthy();
  const post = await res.json();
  try {
    await page.goto(`/post/${post.uuid}`);
    const time = page.locator('article.focused .post-head time');
    await expect(time).toHaveText('jetzt');
    await expect(time).toHaveAttribute('aria-label', 'gerade eben');
    await page.clock.fastForward('05:00');
    await expect(time).toHaveText(await unit(5, 'minute'));
    await expect(time).toHaveAttribute('aria-label', 'vor 5 Minuten');
    await page.clock.fastForward('02:00:00');
    await expect(time).toHaveText(await unit(2, 'hour'));

    // The title is the full date and time in Tokyo, in German.
    const iso = await time.getAttribute('datetime');
    const full = await page.evaluate(
      (at) => new Date(at!).toLocaleString('de-DE', { timeZone: 'Asia/Tokyo', dateStyle: 'full', timeStyle: 'short' }),
      iso,
    );
    await expect(time).toHaveAttribute('title', full);
    expect(full).not.toContain('UTC');

    // From a week on, the day is shown, also in the reader's language: the
    // day mira joined is weeks before the demo's first post.
    await page.goto('/user/@mira');
    const old = page.locator('.joined time');
    await expect(old).toBeVisible();
    const oldIso = await old.getAttribute('datetime');
    const day = await page.evaluate((at) => {
      const d = new Date(at!);
      const sameYear = d.getFullYear() === new Date().getFullYear();
      return d.toLocaleString('de-DE', { timeZone: 'Asia/Tokyo', month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) });
    }, oldIso);
    await expect(old).toHaveText(day);
  } finally {
    await page.request.delete(`/api/v1/post/${post.uuid}`, { headers: { Authorization: `Bearer ${mira}` } });
  }
});
