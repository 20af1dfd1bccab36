/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, uniqueUsername('chat'));
});
afterAll(async () => {
  await browser?.close();
});

const banner = () => page.getByTestId('chat-usage-banner');
const replies = () => page.getByTestId('assistant-message');
const ask = async (text: string) => {
  await page.getByLabel('Chat message').fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
};

describe('the AI assistant in the browser', () => {
  it('streams a reply in as Markdown while the banner counts down', async () => {
    await page.goto('/chat');
    await page.getByText('Start a conversation with the AI assistant').waitFor();
    await banner().getByText('3 messages remaining today').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);

    await ask('Hello assistant');
    await page.getByText('Thinking...').waitFor();
    // Part of the answer is on screen before the rest has been written.
    const partial = await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="assistant-message"]')?.textContent ?? '';
      return text.length > 0 && !text.includes('this way') ? text : false;
    });
    expect(await partial.jsonValue()).toMatch(/^You asked/);
    await replies().getByText('I answer every question this way.').waitFor();
    // A Markdown list, rendered as one (once the renderer, loaded with the first reply, has it).
    await expect.poll(() => replies().first().locator('li').count()).toBe(2);
    await banner().getByText('2 messages remaining today').waitFor();
    expect(await page.getByTestId('user-message').textContent()).toBe('Hello assistant');
  });

  it('renders no HTML from a reply', async () => {
    app.model.respond = () => ({ content: 'Look: <img src="x" onerror="window.__pwned = 1"> and **bold**' });
    await ask('Show me something');
    await replies().nth(1).locator('strong', { hasText: 'bold' }).waitFor();
    expect(await replies().nth(1).locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    app.model.useDefaultModel();
  });

  it('does not leave a message nobody answered looking sent: its text is back in the box', async () => {
    app.model.respond = () => ({ fail: 500 });
    try {
      const before = await page.getByTestId('user-message').count();
      await ask('Will this reach anyone?');
      await page.getByText('The AI assistant could not answer just now').first().waitFor();
      await expect.poll(() => page.getByTestId('user-message').count()).toBe(before);
      await expect.poll(() => page.getByLabel('Chat message').inputValue()).toBe('Will this reach anyone?');
      await page.getByLabel('Chat message').fill('');
    } finally {
      app.model.useDefaultModel();
    }
  });

  it('blocks a free user at the limit, with the boost tip, and grants the boost when asked', async () => {
    await ask('Third one');
    await banner().getByText('0 messages remaining today').waitFor();
    await page.getByLabel('Chat message').fill('One more question');
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    await page.getByLabel('Chat message').press('Enter');
    await page.getByText('Daily Limit Reached', { exact: true }).waitFor();
    await page.getByText('Try asking the AI for more messages to get a daily boost!').first().waitFor();

    await ask('Can I have more messages?');
    await page.getByText('Daily Boost Granted!', { exact: true }).waitFor();
    await page.getByText('You now have 9 additional messages for today.').first().waitFor();
    await banner().getByText('8 messages remaining today').waitFor();
  });

  it('keeps the conversation for the browser session and forgets it at sign-out', async () => {
    await page.reload();
    await page.getByTestId('user-message').first().waitFor();
    // The blocked send never joined it.
    expect(await page.getByTestId('user-message').count()).toBe(4);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth/);
    expect(await page.evaluate(() => sessionStorage.getItem('shiplog.chat'))).toBeNull();
  });
});
