/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2EApp,
  launchBrowser,
  registerThroughForm,
  sharedApp,
  signInThroughForm,
  uniqueUsername,
} from './app.ts';

let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const member = uniqueUsername('payer');

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, member);
});
afterAll(async () => {
  await browser?.close();
});

describe('subscription', () => {
  it('shows the plans with prices from the API and the yearly saving, and the trial', async () => {
    await page.goto('/subscription');
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    await page.getByText('Trial - 30 days remaining').waitFor();
    // The prices come from their own API call, which can answer after the trial's: wait for them.
    await page.getByTestId('plan-month').getByText('$7.00').waitFor();
    await page.getByTestId('plan-year').getByText('$49.99').waitFor();
    // 49.99 against 12 × 7.00 = 84.00.
    await page.getByTestId('plan-year').getByText('Save 40%').first().waitFor();
    await page.getByText('What happens when my trial ends?').click();
    await page.getByText(/Nothing you made is lost/).waitFor();
  });

  it('comes back from a cancelled checkout with the cancel toast', async () => {
    await page.goto('/subscription');
    await page.getByRole('button', { name: 'Choose Monthly' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${app.stripe.url}/pay/`));
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByText('Payment Cancelled', { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
  });

  it('pays through checkout and unlocks Quick Update on the first click, without a reload', async () => {
    await page.evaluate(() =>
      fetch('/api/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Paid Project' }),
      }),
    );
    await page.goto('/subscription');
    await page.getByRole('button', { name: 'Choose Yearly' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${app.stripe.url}/pay/`));
    await page.getByRole('heading', { name: 'Stand-in Checkout' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.origin === new URL(app.url).origin && url.pathname === '/');
    await page.getByText('Payment Successful!', { exact: true }).waitFor();
    const card = page.getByTestId('project-card').filter({ hasText: 'Paid Project' });
    const button = card.getByRole('button', { name: 'Quick Update' });
    await expect.poll(() => button.isDisabled(), { timeout: 10_000 }).toBe(false);
    await button.click();
    await page.getByRole('dialog').getByLabel('What changed?').fill('First paid update');
    await page.getByRole('dialog').getByRole('button', { name: 'Save Update' }).click();
    await page.getByText('Your changes have been recorded in the project timeline.', { exact: true }).waitFor();
  });

  it('shows the current plan, and cancels in the portal keeping Pro until the period ends', async () => {
    await page.getByRole('link', { name: 'Subscription' }).click();
    await page.getByText('Pro · Yearly').waitFor();
    for (const plan of ['plan-month', 'plan-year'])
      expect(await page.getByTestId(plan).getByRole('button', { name: 'Current Plan' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${app.stripe.url}/portal/`));
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page.waitForURL((url) => url.pathname === '/subscription');
    await page.getByText(/Cancelled: you keep Pro until/).waitFor();
  });
});

describe('admin dashboard', () => {
  let admin: Page;
  beforeAll(async () => {
    const adminContext = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    admin = await adminContext.newPage();
    admin.on('pageerror', (error) => {
      throw error;
    });
    await signInThroughForm(admin, 'admin', 'admin-e2e-password');
  });

  it('tells a non-admin clearly that the page is not theirs', async () => {
    await page.goto('/admin');
    await page.getByText('Administrators only').waitFor();
    await page.getByRole('link', { name: 'Back to Dashboard' }).waitFor();
  });

  it('posts a comment that a user sees in the sidebar, edits, switches it off and on, and deletes it', async () => {
    await admin.getByRole('link', { name: 'Admin Dashboard' }).click();
    await admin.getByText('Manage messages that display to all users in the sidebar').waitFor();
    expect(await admin.getByRole('heading', { level: 1 }).textContent()).toBe('Admin Dashboard');
    await admin.getByText('No admin comments yet. Create one to get started.').waitFor();
    await admin.getByRole('button', { name: 'Add Comment' }).click();
    await admin.getByText('Message is required').waitFor();
    await admin.getByLabel('Message', { exact: true }).fill('Deploy freeze on Friday');
    await admin.getByLabel('Priority', { exact: true }).selectOption('high');
    await admin.getByRole('button', { name: 'Add Comment' }).click();
    // The only comment; its text changes below, so it is found by position.
    const comment = admin.getByTestId('admin-comment').first();
    await comment.getByText('Deploy freeze on Friday').waitFor();
    expect(await comment.getByText('Admin admin').isVisible()).toBe(true);
    expect(await comment.getByText('high', { exact: true }).isVisible()).toBe(true);

    await page.goto('/');
    const panel = page.getByTestId('desktop-sidebar').getByTestId('admin-messages');
    await panel.getByText('Deploy freeze on Friday').waitFor();

    await comment.getByRole('button', { name: 'Edit' }).click();
    await comment.getByLabel('Message').fill('Deploy freeze on Saturday');
    await comment.getByRole('button', { name: 'Save' }).click();
    const edited = comment;
    await edited.getByText('Deploy freeze on Saturday').waitFor();
    await edited.getByRole('button', { name: 'Deactivate' }).click();
    await edited.getByText('Inactive', { exact: true }).waitFor();
    await page.reload();
    await page.getByTestId('desktop-sidebar').getByText('Dashboard', { exact: true }).first().waitFor();
    expect(await page.getByText('Deploy freeze on Saturday').count()).toBe(0);
    await edited.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => edited.getByText('Inactive', { exact: true }).count()).toBe(0);
    await edited.getByRole('button', { name: 'Delete comment' }).click();
    const confirm = admin.getByRole('alertdialog');
    await confirm.getByText('Are you sure you want to delete this comment?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No admin comments yet. Create one to get started.').waitFor();
  });

  it('searches users on the server and runs every user dialog', async () => {
    const target = uniqueUsername('managed');
    const other = await browser.newContext({ baseURL: app.url });
    await registerThroughForm(await other.newPage(), target);
    await other.close();

    await admin.reload();
    await admin.getByLabel('Search users').fill(target);
    const row = admin.getByTestId('admin-user-row').filter({ hasText: target });
    await row.waitFor();
    await expect.poll(() => admin.getByTestId('admin-user-row').count()).toBe(1);
    expect(await row.getByText('Trialing').isVisible()).toBe(true);
    expect(await row.getByText('30', { exact: true }).isVisible()).toBe(true);

    await row.getByRole('button', { name: 'Status' }).click();
    let dialog = admin.getByRole('dialog', { name: 'Update Subscription Status' });
    await dialog.getByLabel('Subscription status').selectOption('past_due');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await row.getByText('Past Due').waitFor();
    expect(await row.getByText('N/A').count()).toBeGreaterThan(0);

    await row.getByRole('button', { name: 'Extend Trial' }).click();
    dialog = admin.getByRole('dialog', { name: 'Extend Trial Period' });
    await dialog.getByLabel('Days to Add').fill('0');
    await dialog.getByRole('button', { name: 'Extend Trial' }).click();
    await dialog.getByText('Please enter a valid number of days').waitFor();
    await dialog.getByLabel('Days to Add').fill('5');
    await dialog.getByRole('button', { name: 'Extend Trial' }).click();
    await row.getByText('Trialing').waitFor();
    await row.getByText('35', { exact: true }).waitFor();

    await row.getByRole('button', { name: `Delete ${target}` }).click();
    const confirm = admin.getByRole('alertdialog');
    await confirm
      .getByText(
        /This action cannot be undone and will permanently delete all user data including projects and activities\./,
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No users match your search.').waitFor();

    // Their own account the server will not delete: its row does not offer it.
    await admin.getByLabel('Search users').fill('admin');
    const own = admin.getByTestId('admin-user-row').filter({ hasText: '(you)' });
    await own.waitFor();
    expect(await own.locator('td').first().textContent()).toBe('admin(you)');
    expect(await own.getByRole('button', { name: 'Status' }).isVisible()).toBe(true);
    expect(await own.getByRole('button', { name: /^Delete / }).count()).toBe(0);
  });

  it('reads a message a user sent with Contact Admin, and marks it handled', async () => {
    await page.getByTestId('desktop-sidebar').getByRole('button', { name: 'Contact Admin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Subject').fill('Invoice question');
    await dialog.getByLabel('Message').fill('Can I get a receipt for my yearly plan?');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Your message has been sent to the admin successfully.', { exact: true }).waitFor();

    // Another user's message: it reaches the inbox once identity has projected it (milliseconds).
    const inbox = admin.getByTestId('contact-inbox');
    const shown = async () => {
      await admin.goto('/admin');
      return inbox
        .getByText('Invoice question')
        .waitFor({ timeout: 2000 })
        .then(
          () => true,
          () => false,
        );
    };
    await expect.poll(shown, { timeout: 10_000 }).toBe(true);
    const message = inbox.locator('article').filter({ hasText: 'Invoice question' });
    expect(await message.getByText(`From ${member}`, { exact: false }).isVisible()).toBe(true);
    await message.getByRole('button', { name: 'Mark handled' }).click();
    await message.getByRole('button', { name: 'Mark as open' }).waitFor();
  });
});
