// Draws the PNG icons of the web app manifest from the SVGs in assets/, in
// Debian's Chromium (run once after changing an SVG; the PNGs are committed):
//   node scripts/icons.mjs     (from the repository root, after make setup)
import { chromium } from '../end2end/node_modules/@playwright/test/index.mjs';
import { readFileSync } from 'node:fs';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [source, size, out] of [
  ['assets/icon.svg', 192, 'assets/icon-192.png'],
  ['assets/icon.svg', 512, 'assets/icon-512.png'],
  ['assets/icon-maskable.svg', 512, 'assets/icon-maskable-512.png'],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const svg = readFileSync(source, 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<body style="margin:0;background:transparent">${svg}</body>`);
  await page.locator('svg').screenshot({ path: out, omitBackground: true });
  await page.close();
  console.log(`${out}: ${size}×${size} from ${source}`);
}
await browser.close();
