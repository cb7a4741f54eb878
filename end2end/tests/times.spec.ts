// Times as a reader sees them: relative times that move on while the page
// stays open, and absolute times in the reader's own time zone, all in the
// interface's language (from the browser's languages), written exactly as
// the browser's own formatters write them.
import { test, expect } from './fixtures';
import { token } from './helpers';
import { readFileSync } from 'node:fs';

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

// Times and counts are written by the app from its catalogs (no `Intl`
// object before the first paint, issue 37): they must read exactly as the
// browser's own formatters write them, in every language, from the first
// card on.
const catalog = (code: string) => JSON.parse(readFileSync(`../locales/${code}.json`, 'utf8'));

for (const [code, locale] of [['en', 'en-US'], ['de', 'de-DE'], ['ar', 'ar']] as const) {
  test.describe(`in ${code}`, () => {
    test.use({ locale, timezoneId: 'America/Denver' });

    test('every time on Home reads as the browser writes it, from the first card on', async ({ page }) => {
      await page.goto('/signin');
      await page.locator('#access-token').fill(token('mira'));
      await page.locator('section:has(#with-token) button[type=submit]').click();
      await expect(page.locator('textarea#post-text')).toBeVisible();
      // One moment for the app and the expectations alike; timers still run.
      await page.clock.setFixedTime(Date.now());
      // Counts the Intl objects the app makes: the first loads the
      // browser's locale data, a long task on a slow phone.
      await page.addInitScript(() => {
        const w = window as any;
        w.__intlMade = 0;
        for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat'] as const) {
          const Made = (Intl as any)[name];
          (Intl as any)[name] = function (...args: unknown[]) { w.__intlMade++; return new Made(...args); };
        }
      });
      await page.reload();
      await page.locator('main article.post').first().waitFor();
      expect(await page.evaluate(() => (window as any).__intlMade), 'Intl objects made by the app').toBe(0);
      const check = () => page.evaluate((code) => {
        const now = Date.now();
        const problems: string[] = [];
        const unit = (u: string) => new Intl.NumberFormat(code, { style: 'unit', unit: u, unitDisplay: 'narrow' });
        const relative = new Intl.RelativeTimeFormat(code);
        const full = new Intl.DateTimeFormat(code, { dateStyle: 'full', timeStyle: 'short' });
        for (const time of document.querySelectorAll('main article.post time')) {
          const at = new Date(time.getAttribute('datetime')!);
          if (time.getAttribute('title') !== full.format(at)) problems.push(`${at.toISOString()}: titled "${time.getAttribute('title')}", the browser writes "${full.format(at)}"`);
          const secs = Math.max(0, Math.floor((now - at.getTime()) / 1000));
          let shown: string | null = null;
          let spoken: string | null = null;
          if (secs >= 45 && secs < 3600) {
            const n = Math.floor((secs + 30) / 60);
            [shown, spoken] = [unit('minute').format(n), relative.format(-n, 'minute')];
          } else if (secs >= 3600 && secs < 86_400) {
            const n = Math.floor(secs / 3600);
            [shown, spoken] = [unit('hour').format(n), relative.format(-n, 'hour')];
          } else if (secs >= 86_400 && secs < 604_800) {
            const n = Math.floor(secs / 86_400);
            [shown, spoken] = [unit('day').format(n), relative.format(-n, 'day')];
          } else if (secs >= 604_800) {
            const sameYear = at.getFullYear() === new Date(now).getFullYear();
            shown = new Intl.DateTimeFormat(code, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(at);
          }
          if (shown !== null && time.textContent !== shown) problems.push(`${at.toISOString()}: shows "${time.textContent}", the browser writes "${shown}"`);
          if (spoken !== null && time.getAttribute('aria-label') !== spoken) problems.push(`${at.toISOString()}: says "${time.getAttribute('aria-label')}", the browser writes "${spoken}"`);
        }
        return { problems, count: document.querySelectorAll('main article.post time').length };
      }, code);
      const first = await check();
      expect(first.count).toBeGreaterThan(0);
      expect(first.problems).toEqual([]);
      // And every card drawn after the first screen, older posts' days among them.
      await expect.poll(async () => (await check()).count, { timeout: 15_000 }).toBeGreaterThan(12);
      expect((await check()).problems).toEqual([]);
      // A reply count and the composer's counter, plural form and number alike.
      const left = page.locator('#post-text-count');
      const written = await page.evaluate((code) => new Intl.NumberFormat(code).format(500), code);
      const form = await page.evaluate((code) => new Intl.PluralRules(code).select(500), code);
      await expect(left).toHaveText(catalog(code).chars_left[form].replace('{count}', written));
      // A day, from a week on: the day mira joined, weeks before the demo's posts.
      await page.goto('/user/@mira');
      const joined = page.locator('.joined time');
      const day = await page.evaluate(([at, code]) => {
        const d = new Date(at);
        const sameYear = d.getFullYear() === new Date().getFullYear();
        return new Intl.DateTimeFormat(code, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(d);
      }, [(await joined.getAttribute('datetime'))!, code]);
      await expect(joined).toHaveText(day);
    });

    test('the catalog\'s times and dates are the browser\'s, for every count, month, weekday and hour', async ({ page }) => {
      await page.goto('/signin');
      const words = catalog(code);
      const wrong = await page.evaluate(({ code, words }) => {
        const rules = new Intl.PluralRules(code);
        const number = new Intl.NumberFormat(code);
        const relative = new Intl.RelativeTimeFormat(code);
        const problems: string[] = [];
        for (const [unit, max] of [['minute', 59], ['hour', 23], ['day', 6]] as const) {
          const narrow = new Intl.NumberFormat(code, { style: 'unit', unit, unitDisplay: 'narrow' });
          for (let n = 1; n <= max; n++) {
            const write = (forms: Record<string, string>) => forms[rules.select(n)].replace('{count}', number.format(n));
            const short = write(words[`ago_${unit}s_short`]);
            const spoken = write(words[`ago_${unit}s`]);
            if (short !== narrow.format(n)) problems.push(`${n} ${unit}: "${short}", the browser writes "${narrow.format(n)}"`);
            if (spoken !== relative.format(-n, unit)) problems.push(`${n} ${unit} ago: "${spoken}", the browser writes "${relative.format(-n, unit)}"`);
          }
        }
        const day = new Intl.DateTimeFormat(code, { month: 'short', day: 'numeric' });
        const dayAndYear = new Intl.DateTimeFormat(code, { month: 'short', day: 'numeric', year: 'numeric' });
        for (let month = 0; month < 12; month++) {
          const at = new Date(2025, month, 23);
          const fill = (text: string) => text.replace('{month}', words[`month_${month + 1}`]).replace('{day}', '23').replace('{year}', '2025');
          if (fill(words.day_of_month) !== day.format(at)) problems.push(`"${fill(words.day_of_month)}", the browser writes "${day.format(at)}"`);
          if (fill(words.day_of_year) !== dayAndYear.format(at)) problems.push(`"${fill(words.day_of_year)}", the browser writes "${dayAndYear.format(at)}"`);
        }
        // The full date, at every hour of a day, on each day of a week.
        const full = new Intl.DateTimeFormat(code, { dateStyle: 'full', timeStyle: 'short' });
        for (let hour = 0; hour < 24; hour++) {
          const at = new Date(2026, 10, 22 + (hour % 7), hour, hour % 2 ? 5 : 59);
          const minutes = String(at.getMinutes()).padStart(2, '0');
          const time = code === 'de'
            ? `${String(hour).padStart(2, '0')}:${minutes}`
            : words[hour < 12 ? 'time_am' : 'time_pm'].replace('{time}', `${(hour + 11) % 12 + 1}:${minutes}`);
          const ours = words.full_date.replace('{weekday}', words[`weekday_${at.getDay() + 1}`]).replace('{month}', words[`month_long_${at.getMonth() + 1}`])
            .replace('{day}', String(at.getDate())).replace('{year}', String(at.getFullYear())).replace('{time}', time);
          if (ours !== full.format(at)) problems.push(`"${ours}", the browser writes "${full.format(at)}"`);
        }
        return problems;
      }, { code, words });
      expect(wrong).toEqual([]);
    });
  });
}
