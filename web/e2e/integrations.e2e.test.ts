/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, recordProgress, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

let api: E2EApp['domains'];
/** Where alert channels post (Slack's shape here). */
let hooks: E2EApp['hooks'];
let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  ({ domains: api, hooks } = app);
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, uniqueUsername('domains'));
});
afterAll(async () => {
  await browser?.close();
});

describe('integrations in the browser', () => {
  it('validates, tests, diagnoses and saves a connection', async () => {
    await page.goto('/integrations');
    await page.getByText('No integrations configured yet.').waitFor();
    expect(await page.getByLabel('Base URL').inputValue()).toBe(app.url);
    await page.getByLabel('Base URL').fill('not a url');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    for (const message of [
      'Site name must be at least 3 characters',
      'Please enter a valid URL including http:// or https://',
      'API key appears to be too short',
    ]) {
      await page.getByText(message).waitFor();
    }
    expect(api.requests).toHaveLength(0);

    await page.getByLabel('Site name').fill('Stand-in Registrar');
    await page.getByLabel('Base URL').fill(api.url);
    await page.getByLabel('API key').fill(api.apiKey);
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await page.getByText(/^Connection successful! Found 30 domains\./).waitFor();
    expect(await page.getByTestId('test-message').textContent()).toContain('Content-Type: application/json');
    await page.getByRole('button', { name: 'Advanced Diagnostics' }).click();
    await page.getByText('Recommended authentication method: Bearer token (Authorization: Bearer <key>).').waitFor();

    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText('Integration configured successfully', { exact: true }).waitFor();
    const saved = page.getByRole('article', { name: 'Stand-in Registrar' });
    await saved.getByText('Active').waitFor();
    expect(await saved.getByText('Last used: Never').isVisible()).toBe(true);
    // The key is not kept in the form, nor anywhere on the page.
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(api.apiKey);
  });

  it('lists the domains in a 400 px scrolling area, imports the selected ones, and they are on the dashboard', async () => {
    await page.getByRole('button', { name: 'View Domains' }).click();
    const dialog = page.getByRole('dialog', { name: 'Domains from Stand-in Registrar' });
    await dialog.getByRole('cell', { name: 'project-1.example.com', exact: true }).waitFor();
    for (const header of ['Domain Name', 'Status', 'Hosting Provider', 'Expiry Date', 'Last Checked']) {
      expect(await dialog.getByRole('columnheader', { name: header }).isVisible()).toBe(true);
    }
    // Reading the domains used the integration: the list behind the dialog says so.
    const saved = page.getByRole('article', { name: 'Stand-in Registrar', includeHidden: true });
    await expect.poll(() => saved.textContent()).toMatch(/Last used: [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    const list = dialog.getByTestId('domain-list');
    expect(await list.evaluate((element) => getComputedStyle(element).maxHeight)).toBe('400px');
    expect((await list.boundingBox())!.height).toBeLessThanOrEqual(400);

    await expect.poll(() => dialog.getByRole('button', { name: 'Import Selected Domains' }).isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Select project-1.example.com' }).click();
    await dialog.getByRole('checkbox', { name: 'Select project-2.example.com' }).click();
    await dialog.getByText('2 domains selected').waitFor();
    // Every state of the import's progress bar, as the page draws it.
    const progress = await recordProgress(page, 'Domain import progress');
    await dialog.getByRole('button', { name: 'Import Selected Domains' }).click();
    await page.getByText('Domains imported successfully', { exact: true }).waitFor();
    // Counted against the two selected, never past them.
    const seen = await progress();
    expect(seen.length).toBeGreaterThan(0);
    for (const state of seen) expect(state).toMatch(/^[012]\/2$/);
    await page.getByText('Imported 2 of 2 domains', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The toast sits over the list's buttons: closed, as a person would.
    await page.getByRole('button', { name: 'Close' }).first().click();
    // Opened again: the imported ones are marked, and nothing is selected.
    await page.getByRole('button', { name: 'View Domains' }).click();
    await dialog.getByText('0 domains selected').waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'Select project-1.example.com' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/');
    await page.getByText('project-1.example.com').first().waitFor();
    await page.getByText('project-2.example.com').first().waitFor();
  });

  it('deletes an integration after its confirmation, keeping the imported projects', async () => {
    await page.goto('/integration-config');
    await page.getByRole('button', { name: 'Delete Stand-in Registrar' }).click();
    await page
      .getByText(
        'This will delete the integration configuration permanently. Your imported projects will remain in your dashboard.',
      )
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Integration deleted', { exact: true }).waitFor();
    await page.getByText('No integrations configured yet.').waitFor();
    await page.goto('/projects');
    await page.getByText('project-1.example.com').first().waitFor();
  });

  it('adds a Slack channel in Settings › Notifications, sends it a test alert, and shows it in the delivery log', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByText('No channels yet: alerts are emailed to your proven address only.').waitFor();
    // No address and no channel: the card says nobody would be told, rather than promise an email.
    await page.getByTestId('alert-reach').getByText('Nobody will be told when a monitor goes down').waitFor();
    expect(await page.getByTestId('alert-reach').textContent()).toContain('your account has no email address');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByLabel('Name').fill('Team Slack');
    await page.getByLabel('URL').fill(`${hooks.url}/services/T1/B2/secret-path`);
    await page.getByRole('button', { name: 'Add channel' }).click();
    const channels = page.getByRole('list', { name: 'Alert channels' });
    await channels.getByText('Team Slack').waitFor();
    expect(await channels.textContent()).not.toContain('secret-path');
    await expect.poll(() => page.getByTestId('alert-reach').count()).toBe(0);
    await page.getByRole('button', { name: 'Send a test alert to Team Slack' }).click();
    await page.getByText('Test alert sent', { exact: true }).waitFor();
    expect(JSON.parse(hooks.received.at(-1)!.body).text).toContain('Test alert from Shiplog');
    await page
      .getByTestId('alert-delivery')
      .filter({ hasText: 'Test alert from Shiplog → Team Slack' })
      .getByText(/^Sent/)
      .waitFor();

    // A generic webhook shows its signing secret once.
    await page.getByLabel('Send to').selectOption('webhook');
    await page.getByLabel('Name').fill('My endpoint');
    await page.getByLabel('URL').fill(`${hooks.url}/in`);
    await page.getByRole('button', { name: 'Add channel' }).click();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);

    await page.getByRole('button', { name: 'Remove Team Slack' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove channel' }).click();
    await page.getByText('Alerts no longer go to “Team Slack”.', { exact: true }).waitFor();
  });
});
