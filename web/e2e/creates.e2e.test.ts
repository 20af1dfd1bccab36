/// <reference lib="dom" />

import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

/** What a builder makes through the forms: made once, and as it was typed and chosen. */
let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let projectId: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  context = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, uniqueUsername('maker'));
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

const api = <T>(path: string) => page.evaluate(async (url) => (await fetch(url)).json(), path) as Promise<T>;

describe('creating in the browser', () => {
  it('makes one project of a quick double click on Create Project, the button busy from the first', async () => {
    // A first visit: the form schemas' chunk loads with the first submit, and is held here, so the second
    // click comes while the first is still being checked (on a slow line, as the reviewer's was).
    const fresh = await context.newPage();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await fresh.route('**/assets/form-schemas-*.js', async (route) => {
      await held;
      await route.continue();
    });
    const posts: Request[] = [];
    fresh.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/projects') posts.push(request);
    });
    await fresh.goto('/new-project');
    await fresh.getByRole('heading', { name: 'Create a New Project' }).waitFor();
    await fresh.getByLabel('Project name').fill('Twice Clicked');
    const button = fresh.getByRole('button', { name: 'Create Project' });
    await button.click({ clickCount: 2, delay: 30 });
    // Busy from the first click, before any request has started.
    await fresh.getByRole('button', { name: 'Saving...' }).waitFor();
    expect(await fresh.getByRole('button', { name: 'Saving...' }).isDisabled()).toBe(true);
    expect(posts).toHaveLength(0);
    release();
    await fresh.waitForURL(/\/projects$/);
    await fresh.getByText('Project created successfully!', { exact: true }).waitFor();
    const names = (await api<{ name: string }[]>('/api/projects')).map((p) => p.name);
    expect(names.filter((name) => name === 'Twice Clicked')).toHaveLength(1);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    await fresh.close();
  });

  it('keeps what Repeat says: a weekly reminder is stored weekly, and an edit to monthly is stored', async () => {
    await page.goto(`/projects/${projectId}`);
    await page.getByText('Project Reminders').waitFor();
    await page.getByRole('button', { name: 'Add Reminder' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title', { exact: true }).fill('Check the backups');
    await dialog
      .getByLabel('Due date', { exact: true })
      .fill(new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('sv-SE'));
    await dialog.getByLabel('Repeat').selectOption({ label: 'Every week' });
    await dialog.getByRole('button', { name: 'Add Reminder' }).click();
    const item = page
      .getByTestId('project-reminders')
      .getByTestId('reminder-item')
      .filter({ hasText: 'Check the backups' });
    await item.getByText('Repeats every week').waitFor();
    const stored = async () =>
      (await api<{ title: string; frequency: string }[]>('/api/reminders')).find((r) => r.title === 'Check the backups')
        ?.frequency;
    expect(await stored()).toBe('weekly');

    await item.getByRole('button', { name: 'Edit Check the backups' }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel('Repeat').inputValue()).toBe('weekly');
    await edit.getByLabel('Repeat').selectOption({ label: 'Every month' });
    await edit.getByRole('button', { name: 'Save Reminder' }).click();
    await item.getByText('Repeats every month').waitFor();
    expect(await stored()).toBe('monthly');
  });

  it('records the change typed into Record Release but not yet added with Enter or +', async () => {
    await page.goto(`/projects/${projectId}`);
    await page.getByText('Project Events').waitFor();
    await page.getByRole('button', { name: 'Record Version' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Version', { exact: true }).fill('2.0.0');
    await dialog.getByLabel('Changes').fill('Dark mode');
    await dialog.getByRole('button', { name: 'Add change' }).click();
    await dialog.getByLabel('Changes').fill('Faster search');
    await dialog.getByRole('button', { name: 'Record Release' }).click();
    await page.getByText('Version release recorded', { exact: true }).waitFor();
    const releases = (
      await api<{ eventType: string; metadata: { changes?: string[] } }[]>(`/api/projects/${projectId}/activities`)
    ).filter((a) => a.eventType === 'version_release');
    expect(releases.map((a) => a.metadata.changes)).toEqual([['Dark mode', 'Faster search']]);
  });
});
