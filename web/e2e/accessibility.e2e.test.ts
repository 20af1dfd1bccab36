/// <reference lib="dom" />

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';
import { violations, watchForViolations } from './axe.ts';

/**
 * axe-core's checks (WCAG 2 A and AA: contrast, names, labels, headings, landmarks, ARIA) on every
 * screen of the app, with data on it, open dialogs and menus included: all of them in the light theme,
 * the colour rules again in the dark one, on the same screen; and nothing on any of them refused by the
 * page's Content-Security-Policy.
 */

let app: E2EApp;
let browser: Browser;
let cookies: Awaited<ReturnType<import('playwright-core').BrowserContext['cookies']>>;
let projectId: string;
const username = uniqueUsername('a11y');

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  await registerThroughForm(page, username);
  // Data on every screen: a project with a description, links, a deployment, and more reminders than
  // the bell lists (overdue, today, upcoming).
  projectId = await page.evaluate(async () => {
    const post = (path: string, body: unknown) =>
      fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const project = await (
      await post('/api/projects', {
        name: 'Weather API',
        description: 'Forecasts for my town',
        status: 'development',
        costEstimate: 1250,
        metadata: { socialLinks: { github: 'https://github.com/example/weather' } },
      })
    ).json();
    await post(`/api/projects/${project.id}/deployment`, { environment: 'production', version: '1.0.0' });
    // A monitor: on the project page, the dashboard's cards and the public status page.
    await post(`/api/projects/${project.id}/monitors`, { kind: 'backup', intervalSeconds: 86_400 });
    for (let day = -1; day < 6; day++) {
      await post('/api/reminders', {
        projectId: project.id,
        title: `Renew the domain ${day + 2}`,
        dueDate: new Date(Date.now() + day * 86_400_000 + 3_600_000).toISOString(),
        reminderTimes: ['1_day_before'],
      });
    }
    return project.id as string;
  });
  cookies = await context.cookies();
  await context.close();
});
afterAll(async () => {
  await browser?.close();
});

// Each test walks a dozen screens and dialogs through axe in both themes: about 25 s on its own, and
// more than twice that while the other browser tests share the machine's two cores.
describe('accessibility and content security, light and dark themes', { timeout: 150_000 }, () => {
  async function open(signedIn: boolean, viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ baseURL: app.url, viewport });
    await watchForViolations(context);
    if (signedIn) await context.addCookies(cookies);
    const page = await context.newPage();
    return { page, close: () => context.close() };
  }

  it('finds nothing on the sign-in and registration page, the public profile page and the status page', async () => {
    const { page, close } = await open(false);
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).waitFor();
    const found = await violations(page, 'login');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('button', { name: 'Register' }).click(); // the validation messages
    await page.getByText('Username must be at least 3 characters').waitFor();
    found.push(...(await violations(page, 'register')));
    // The public profile page, as anyone sees it.
    await page.goto(`/u/${username}`);
    await page.getByTestId('public-project').first().waitFor();
    found.push(...(await violations(page, 'public profile')));
    // And the status page of their projects.
    await page.goto(`/u/${username}/status`);
    await page.getByTestId('status-monitor').first().waitFor();
    found.push(...(await violations(page, 'public status')));
    expect(found).toEqual([]);
    await close();
  });

  /** A signed-in page, what axe found on it so far, and a visit that checks a screen once it is ready. */
  async function signedInScreens() {
    const { page, close } = await open(true);
    const found: string[] = [];
    const visit = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(path);
      await ready();
      found.push(...(await violations(page, path)));
    };
    return { page, close, found, visit };
  }

  it('finds nothing on the dashboard, the bell, the card menu and Contact Admin', async () => {
    const { page, close, found, visit } = await signedInScreens();
    await visit('/', () => page.getByText('Renew the domain 1').waitFor());
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByText('You have 7 active reminders').waitFor();
    found.push(...(await violations(page, 'bell', '[role=dialog]')));
    // Seven active reminders: the bell lists five, and links on (to /projects, as spec/core.md §2 says).
    const bell = page.getByRole('dialog');
    expect(await bell.getByRole('listitem').count()).toBe(5);
    expect(await bell.getByRole('link', { name: 'View all reminders' }).getAttribute('href')).toBe('/projects');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Actions for Weather API' }).click();
    // Menus and dialogs load on first use (lib/on-demand.tsx): wait for each to be there.
    await page.getByRole('menu').waitFor();
    found.push(...(await violations(page, 'card menu', '[role=menu]')));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Contact Admin' }).click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await violations(page, 'contact admin', '[role=dialog]')));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // The command palette, with a project found, and the keyboard shortcuts sheet.
    await page.locator('button[aria-keyshortcuts]').waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: 'Weather API' }).waitFor();
    found.push(...(await violations(page, 'command palette', 'dialog[open]')));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Shift+?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    found.push(...(await violations(page, 'shortcuts sheet', '[role=dialog]')));
    await page.keyboard.press('Escape');
    // The charts below the fold, loaded when scrolled to, each with its table open.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const charts = page.getByTestId('dashboard-charts');
    await charts.getByRole('heading', { name: 'Monthly cost' }).waitFor();
    const showTable = charts.getByRole('button', { name: 'Show table' });
    while ((await showTable.count()) > 0) await showTable.first().click();
    expect(await charts.getByRole('table').count()).toBe(3);
    found.push(...(await violations(page, 'charts', '[data-testid=dashboard-charts]')));
    expect(found).toEqual([]);
    await close();
  });

  it('finds nothing on the project screens and their dialogs', async () => {
    const { page, close, found, visit } = await signedInScreens();
    await visit('/projects', () => page.getByText('Showing 1 project').waitFor());
    // A selected project, and the actions on the selection.
    await page.getByRole('checkbox', { name: 'Select Weather API' }).click();
    await page.getByTestId('selection-bar').waitFor();
    found.push(...(await violations(page, 'selection')));
    // A deletion's toast with its Undo (taken back: nothing is sent).
    await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    const undo = page.getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    found.push(...(await violations(page, 'the Undo toast')));
    await undo.click();
    await page.getByText('Showing 1 project').waitFor();
    await visit('/new-project', () => page.getByRole('heading', { name: 'Create a New Project' }).waitFor());
    await visit(`/projects/${projectId}`, () =>
      page.getByTestId('project-reminders').getByText('Renew the domain 1').waitFor(),
    );
    for (const [button, title] of [
      ['Record Backup', 'Record Backup'],
      ['Record Deployment', 'Record Deployment'],
      ['Record Version', 'Record Version Release'],
      ['Add Reminder', 'Add Reminder'],
      ['Add monitor', 'Add Monitor'],
      ['Expect backups or deployments', 'Expect Backups or Deployments'],
      ['Delete', 'Are you sure?'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page
        .getByRole(button === 'Delete' ? 'alertdialog' : 'dialog')
        .getByText(title)
        .first()
        .waitFor();
      found.push(...(await violations(page, button, button === 'Delete' ? '[role=alertdialog]' : '[role=dialog]')));
      await page.keyboard.press('Escape');
    }
    await visit(`/projects/edit/${projectId}`, () => page.getByRole('button', { name: 'Update Project' }).waitFor());
    await visit('/activities', () => page.getByText('Weather API').first().waitFor());
    await visit('/reminders', () => page.getByText('Renew the domain 7').waitFor());
    expect(found).toEqual([]);
    await close();
  });

  it('finds nothing in Settings, the profile and the other account screens', async () => {
    const { page, close, found, visit } = await signedInScreens();
    await visit('/settings', () => page.getByRole('tab', { name: 'Notifications' }).waitFor());
    await page.getByRole('tab', { name: 'API Tokens' }).click();
    await page.getByLabel('Token name').fill('Deploy from CI');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('New API token').waitFor();
    found.push(...(await violations(page, 'API tokens')));
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('button', { name: 'Add channel' }).click(); // the validation messages
    await page.getByText('Name is required').waitFor();
    found.push(...(await violations(page, 'alerts')));
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.getByText('This device').waitFor();
    found.push(...(await violations(page, 'sessions')));
    await page.getByRole('tab', { name: 'Export' }).click();
    await page.getByText('Export your data').waitFor();
    await page.getByText('Calendar feed').waitFor();
    found.push(...(await violations(page, 'export')));
    await visit('/profile', () => page.getByRole('tab', { name: 'Edit Profile' }).waitFor());
    await visit('/replit', () => page.getByRole('heading', { name: 'Coming Soon' }).waitFor());
    await visit('/subscription', () => page.getByText('Trial - 30 days remaining').waitFor());
    await visit('/integrations', () => page.getByText('No integrations configured yet.').waitFor());
    await page.getByRole('button', { name: 'Test Connection' }).click(); // the validation messages
    await page.getByText('Site name must be at least 3 characters').waitFor();
    found.push(...(await violations(page, 'integration form')));
    await page.goto('/api-reference');
    await page.getByText('/api/projects/{id}').first().click(); // a call opened: its tables
    await page.locator('details[open] table').first().waitFor();
    found.push(...(await violations(page, 'API reference')));
    await visit('/admin', () => page.getByText('Administrators only').waitFor());
    await visit('/no-such-page', () => page.getByText('Page Not Found').waitFor());
    expect(found).toEqual([]);
    await close();
  });

  it('finds nothing on the admin dashboard and its dialogs', async () => {
    const { page, close } = await open(false);
    await page.goto('/auth');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('admin-e2e-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const comment = await page.evaluate(async () => {
      const posted = await fetch('/api/admin/comments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Maintenance tonight', priority: 'urgent' }),
      });
      return ((await posted.json()) as { id: string }).id;
    });
    // Every user of the app sees it: taken away when the test ends (the app is shared, see app.ts).
    onTestFinished(async () => {
      await page.evaluate((id) => fetch(`/api/admin/comments/${id}`, { method: 'DELETE' }), comment);
      await close();
    });
    await page.goto('/admin');
    const row = page.getByTestId('admin-user-row').first();
    await row.waitFor();
    await page.getByTestId('admin-comment').first().waitFor();
    const found = await violations(page, '/admin');
    for (const [button, title] of [
      ['Status', 'Update Subscription Status'],
      ['Extend Trial', 'Extend Trial Period'],
    ] as const) {
      await row.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('dialog', { name: title }).waitFor();
      found.push(...(await violations(page, title, '[role=dialog]')));
      await page.keyboard.press('Escape');
    }
    await row.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('alertdialog').waitFor();
    found.push(...(await violations(page, 'Delete User', '[role=alertdialog]')));
    await page.keyboard.press('Escape');
    expect(found).toEqual([]);
  });

  it('finds nothing on a phone, with the slide-in menu open', async () => {
    const { page, close } = await open(true, { width: 390, height: 844 });
    await page.goto('/');
    await page.getByText('Renew the domain 1').waitFor();
    const found = await violations(page, 'phone dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await violations(page, 'phone menu', '[role=dialog]')));
    expect(found).toEqual([]);
    await close();
  });
});
