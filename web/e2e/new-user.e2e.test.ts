/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

/** What a builder meets in their first minutes: the keyboard from the first moment. */
let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await context?.close();
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 850 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
});

describe('a new builder', () => {
  it('has the keys pressed in the first second after the page shows answered', async () => {
    await registerThroughForm(page, uniqueUsername('early'));
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const after of [0, 300, 700])
      for (const [keys, answered] of [
        [['Control+k'], () => palette.waitFor()],
        [['Shift+?'], () => sheet.waitFor()],
        [['g', 'p'], () => page.waitForURL(/\/projects$/)],
      ] as const) {
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        // The moment the keys are pressed is what is tested here.
        if (after > 0) await page.waitForTimeout(after);
        for (const key of keys) await page.keyboard.press(key);
        await answered();
      }
  });
});
