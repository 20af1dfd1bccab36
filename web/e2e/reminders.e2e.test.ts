/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const username = uniqueUsername('remind');
let projectId: string;
let reminderId: string;

async function signIn(target: Page) {
  await target.getByLabel('Username').fill(username);
  await target.getByLabel('Password').fill('secret-pass-1');
  await target.getByRole('button', { name: 'Login' }).click();
}

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  // No service worker: a request it makes is out of `page.route`'s reach, and one test fails the list on purpose.
  context = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, username);
  projectId = await page.evaluate(async () => {
    const response = await fetch('/api/projects', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Domain Watch' }),
    });
    return ((await response.json()) as { id: string }).id;
  });
});
afterAll(async () => {
  await browser?.close();
});

describe('reminders in the browser', () => {
  it('emails reminders only once the address is proven: Settings says so, and the mailed link proves it', async () => {
    const address = `${username}@example.com`;
    await page.goto('/settings');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText(`We sent a link to ${address}: open it to get your reminders by email.`)
      .waitFor();
    await page.getByTestId('email-status').getByText('Not verified yet').waitFor();
    let link: string | undefined;
    await expect
      .poll(() => {
        const mail = app.smtp.received.find((m) => m.to.includes(address));
        link = mail && /http:\/\/localhost:\d+\/verify-email#[\w-]{64}/.exec(mail.raw)?.[0];
        return link;
      })
      .toBeTruthy();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Email address verified' }).waitFor();
    await page.getByText(`Reminders will be emailed to ${address}.`).waitFor();
    // The secret is gone from the address bar and the history.
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('link', { name: 'Go to Settings' }).click();
    await page.getByTestId('email-status').getByText('Verified: reminders are emailed to this address.').waitFor();
  });

  it('adds a reminder on the project page and shows it in the bell and on the dashboard', async () => {
    await page.goto(`/projects/${projectId}`);
    await page.getByText('Project Reminders').waitFor();
    await page.getByRole('button', { name: 'Add Reminder' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add Reminder' }).click();
    await dialog.getByText('Title must be at least 3 characters').waitFor();
    await dialog.getByText('Due date is required').waitFor();
    // Defaults: 12:00 and one day before.
    expect(await dialog.getByLabel('Time', { exact: true }).inputValue()).toBe('12:00');
    expect(await dialog.getByRole('checkbox', { name: '1 day before' }).getAttribute('aria-checked')).toBe('true');
    // Past dates are not selectable.
    const min = await dialog.getByLabel('Due date', { exact: true }).getAttribute('min');
    expect(min).toBe(new Date().toLocaleDateString('sv-SE'));

    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('sv-SE');
    await dialog.getByLabel('Title', { exact: true }).fill('Renew the domain');
    await dialog.getByLabel('Due date', { exact: true }).fill(inThreeDays);
    await dialog.getByLabel('Time', { exact: true }).fill('09:30');
    await dialog.getByRole('button', { name: 'Add Reminder' }).click();
    const item = page.getByTestId('project-reminders').getByTestId('reminder-item');
    await item.getByText('Renew the domain').waitFor();
    expect(await item.getAttribute('data-state')).toBe('upcoming');
    reminderId = await page.evaluate(
      async () => ((await (await fetch('/api/reminders')).json()) as { id: string }[])[0]!.id,
    );

    await page.goto('/');
    await page.getByTestId('upcoming-reminders').getByText('Renew the domain').waitFor();
    await page.getByTestId('upcoming-reminders').getByText('Domain Watch').waitFor();
    await expect.poll(() => page.getByTestId('bell-count').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Notifications (1)' }).click();
    await page.getByText('You have 1 active reminders').waitFor();
    // Whole days from now, rounded up.
    const days = Math.ceil(
      (new Date(`${new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('sv-SE')}T09:30`).getTime() - Date.now()) /
        86_400_000,
    );
    await page.getByText(`Due: In ${days} days`).waitFor();
    await page.keyboard.press('Escape');

    // The reminders page groups them; this one is upcoming.
    await page.goto('/reminders');
    await page
      .getByRole('region', { name: /Upcoming/ })
      .getByText('Renew the domain')
      .waitFor();
    expect(await page.getByRole('region', { name: /Overdue|Due today|Completed/ }).count()).toBe(0);
  });

  it('completes it with the one-tap link, after asking a signed-out visitor to log in', async () => {
    const stranger = await browser.newContext({ baseURL: app.url });
    const other = await stranger.newPage();
    await other.goto(`/reminders/${reminderId}/complete`);
    await other.getByText('Please log in', { exact: true }).waitFor();
    await other.waitForURL(/\/auth\?redirect=/);
    await signIn(other);
    await other.waitForURL(`${app.url}/projects/${projectId}`);
    const item = other.getByTestId('project-reminders').getByTestId('reminder-item');
    await expect.poll(() => item.getAttribute('data-state')).toBe('completed');
    await other.goto('/reminders');
    await other
      .getByRole('region', { name: /Completed/ })
      .getByText('Renew the domain')
      .waitFor();
    expect(await other.getByRole('region', { name: /Upcoming/ }).count()).toBe(0);
    await stranger.close();

    await page.goto('/reminders/not-a-reminder/complete');
    await page.getByText('Invalid reminder ID format').waitFor();
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await page.waitForURL(`${app.url}/`);
  });

  it('reactivates and deletes the reminder', async () => {
    await page.goto(`/projects/${projectId}`);
    const item = page.getByTestId('project-reminders').getByTestId('reminder-item');
    await expect.poll(() => item.getAttribute('data-state')).toBe('completed');
    await item.getByRole('button', { name: 'Reactivate Renew the domain' }).click();
    await expect.poll(() => item.getAttribute('data-state')).toBe('upcoming');
    // Deleted at once, with an Undo that brings it back before anything reaches the server.
    await item.getByRole('button', { name: 'Delete Renew the domain' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No reminders for this project yet.').waitFor();
    await page.getByText('Reminder deleted', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => item.getAttribute('data-state')).toBe('upcoming');
    // Deleted again, and sent when its toast is closed.
    await item.getByRole('button', { name: 'Delete Renew the domain' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No reminders for this project yet.').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(() => page.evaluate(async () => ((await (await fetch('/api/reminders')).json()) as unknown[]).length))
      .toBe(0);
    await page.goto('/reminders');
    await page
      .getByText("You don't have any upcoming reminders. Add reminders to your projects to stay on track.")
      .waitFor();
    await page.getByRole('button', { name: 'Notifications (0)' }).click();
    await page.getByText('No active reminders').waitFor();
  });

  it('shows Error Loading Reminders with Retry when the list cannot be fetched, and Retry loads it', async () => {
    // The browser loses the network for this one call (a fault, not a made-up answer).
    await page.route('**/api/reminders', (route) => route.abort('connectionfailed'));
    await page.goto('/reminders');
    await page.getByRole('heading', { name: 'Error Loading Reminders' }).waitFor();
    await page.getByText('Please try refreshing the page.').waitFor();
    await page.unroute('**/api/reminders');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByText("You don't have any upcoming reminders. Add reminders to your projects to stay on track.")
      .waitFor();
  });
});
