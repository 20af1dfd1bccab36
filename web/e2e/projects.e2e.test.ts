/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startApp, uniqueUsername } from './app.ts';

let app: Awaited<ReturnType<typeof startApp>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(uniqueUsername('builder'));
  await page.getByLabel('Password', { exact: true }).fill('secret1');
  await page.getByLabel('Confirm password').fill('secret1');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${app.url}/`);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const card = (name: string) =>
  page.getByTestId('project-card').filter({ has: page.getByRole('link', { name, exact: true }) });

describe('projects in the browser', () => {
  it('creates a project through the form and shows it on /projects and the dashboard', async () => {
    await page.goto('/new-project');
    await page.getByRole('heading', { name: 'Create a New Project' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Create New Project');
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Project name is required').waitFor();
    await page.getByLabel('GitHub').fill('not a url');
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Please enter a valid URL').waitFor();

    await page.getByLabel('Project name').fill('Weather API');
    await page.getByLabel('Description').fill('Forecasts for side projects');
    await page.getByLabel('Status').selectOption('development');
    await page.getByLabel('Cost estimate (USD)').fill('12.345');
    await page.getByLabel('GitHub').fill('github.com/ada/weather');
    await page.getByLabel('Twitter').fill('@ada');
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.waitForURL(/\/projects$/);
    await page.getByText('Project created successfully!', { exact: true }).waitFor();
    await card('Weather API').waitFor();
    expect(await card('Weather API').getByText('$12.35').isVisible()).toBe(true);
    expect(await card('Weather API').getByText('Development').isVisible()).toBe(true);
    expect(await page.getByTestId('projects-footer').textContent()).toBe('Showing 1 project(s)');

    await page.goto('/');
    await card('Weather API').waitFor();
    await expect.poll(() => page.getByTestId('stat-Total Projects').textContent()).toBe('1');
    expect(await page.getByTestId('stat-Active Projects').textContent()).toBe('1');
    await page.getByText('+1 from last week').first().waitFor();
    await page.getByText('Created project', { exact: true }).waitFor();
  });

  it('searches and filters down to the empty state', async () => {
    await page.goto('/projects');
    await card('Weather API').waitFor();
    await page.getByLabel('Search projects').fill('forecasts');
    await card('Weather API').waitFor();
    expect(await page.getByTestId('projects-footer').textContent()).toBe('Showing 1 project(s) matching your filters');
    await page.getByLabel('Filter by status').selectOption('blocked');
    await page.getByText('No matching projects found').waitFor();
    await page.getByText('Try adjusting your search or filters').waitFor();
    expect(await page.getByTestId('projects-footer').textContent()).toBe('Showing 0 project(s) matching your filters');
    await page.getByLabel('Filter by status').selectOption('all');
    await page.getByLabel('Search projects').fill('');
    await card('Weather API').waitFor();
  });

  it('saves a checklist tick at once, and it is still ticked after a reload', async () => {
    await page.goto('/projects');
    const box = card('Weather API').getByRole('checkbox', { name: 'Database added' });
    await box.waitFor();
    expect(await box.getAttribute('aria-checked')).toBe('false');
    await box.click();
    await expect.poll(() => box.getAttribute('aria-checked')).toBe('true');
    await page.reload();
    await expect
      .poll(() => card('Weather API').getByRole('checkbox', { name: 'Database added' }).getAttribute('aria-checked'))
      .toBe('true');
  });

  it('records a deployment and shows it on the detail page timeline', async () => {
    await page.goto('/projects');
    await card('Weather API').getByRole('link', { name: 'Weather API' }).click();
    await page.getByText('Project Events').waitFor();
    await page.getByRole('button', { name: 'Record Deployment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL (optional)').fill('nope');
    await dialog.getByRole('button', { name: 'Record Deployment' }).click();
    await dialog.getByText('Please enter a valid URL').waitFor();
    await dialog.getByLabel('URL (optional)').fill('https://weather.example.com');
    await dialog.getByLabel('Version (optional)').fill('1.2.0');
    await dialog.getByRole('button', { name: 'Record Deployment' }).click();
    const timeline = page.getByTestId('project-timeline');
    await timeline.getByText('Deployed to production').waitFor();
    expect(await timeline.getByText('1.2.0').isVisible()).toBe(true);
    // Recording a deployment ticks "Deployed".
    await expect.poll(() => page.getByRole('checkbox', { name: 'Deployed' }).getAttribute('aria-checked')).toBe('true');
  });

  it('edits the project', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/projects\/edit\//);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Edit: Weather API');
    expect(await page.getByLabel('Cost estimate (USD)').inputValue()).toBe('12.35');
    await page.getByLabel('Project name').fill('Weather API v2');
    await page.getByRole('button', { name: 'Update Project' }).click();
    await page.waitForURL(/\/projects$/);
    await page.getByText('Project updated successfully!', { exact: true }).waitFor();
    await card('Weather API v2').waitFor();
  });

  it('deletes the project after confirmation', async () => {
    await card('Weather API v2').getByRole('button', { name: 'Actions for Weather API v2' }).click();
    await page.getByRole('menuitem', { name: 'Delete Project' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Are you sure?').waitFor();
    expect(await confirm.textContent()).toContain(
      'This will permanently delete the project "Weather API v2" and all associated data. This action cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await card('Weather API v2').waitFor();
    await card('Weather API v2').getByRole('button', { name: 'Actions for Weather API v2' }).click();
    await page.getByRole('menuitem', { name: 'Delete Project' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No projects found').waitFor();
    await page.getByText('The project has been successfully deleted.', { exact: true }).waitFor();
    await page.goto('/activities');
    await page.getByText('Deleted project').waitFor();
  });
});
