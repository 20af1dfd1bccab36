/**
 * The installed app's icons (web/public/icons), drawn from the favicon in Chromium: 192 and 512 px
 * for the manifest and Apple's home screen, and a maskable 512 px whose mark sits inside the safe
 * zone (the middle 80%) on the brand colour, so a launcher's circle or squircle never cuts it.
 * Run after changing web/public/favicon.svg: `node web/scripts/generate-icons.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '@shiplog/testing/browser';

const publicDir = join(import.meta.dirname, '..', 'public');
const svg = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');
const mark = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const icons = [
  { file: 'icon-192.png', size: 192, inset: 0, background: 'transparent' },
  { file: 'icon-512.png', size: 512, inset: 0, background: 'transparent' },
  { file: 'maskable-512.png', size: 512, inset: 0.2, background: '#4f46e5' },
];

const browser = await launchChromium({ full: true });
try {
  for (const { file, size, inset, background } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const pad = Math.round(size * inset);
    await page.setContent(
      `<html><body style="margin:0;background:${background}"><img src="${mark}" style="display:block;margin:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px"></body></html>`,
    );
    await page.screenshot({ path: join(publicDir, 'icons', file), omitBackground: background === 'transparent' });
    await page.close();
    process.stdout.write(`web/public/icons/${file}\n`);
  }
} finally {
  await browser.close();
}
