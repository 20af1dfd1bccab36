/// <reference lib="dom" />

import { readFile } from 'node:fs/promises';
import { cookiesFrom } from '@shiplog/testing';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type E2EApp, launchBrowser, recordProgress, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A site the builder shipped, for the monitors to check; and one over https, its certificate ending in 10 days. */
let target: E2EApp['target'];
let secure: E2EApp['secure'];
/** The registry's RDAP server, for a domain typed by hand. */
let rdap: E2EApp['rdap'];
const builder = uniqueUsername('builder');

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  ({ target, secure, rdap } = app);
  rdap.expirations.set('weather.example', new Date(Date.now() + 200 * 86_400_000));
  // No service worker: these tests count the page's own requests, and the worker's first visit reads
  // the pages it keeps for offline (shell.e2e.test.ts covers that).
  context = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, builder);
});
afterAll(async () => {
  await browser?.close();
});

/** A project made through the API, as the signed-in page. */
const createProject = (name: string) =>
  page.evaluate(
    (body) => fetch('/api/projects', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    JSON.stringify({ name }),
  );
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
    // A description over its limit is marked where it was typed, as every other field is.
    await page.getByLabel('Description').fill('x'.repeat(5001));
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Description must be at most 5000 characters').waitFor();
    expect(await page.getByLabel('Description').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Project name').fill('Weather API');
    await page.getByLabel('Description').fill('Forecasts for side projects');
    await page.getByLabel('Status').selectOption('development');
    await page.getByLabel('Cost estimate (USD)').fill('12.345');
    await page.getByLabel('GitHub').fill('github.com/ada/weather');
    await page.getByLabel('Twitter').fill('@ada');
    // The reads after the create send its position back (lib/positions.ts), beside its cookie.
    const positionsSent: (string | undefined)[] = [];
    let created = false;
    const noteCreated = (response: Response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/projects')
        created = true;
    };
    const noteRead = (request: Request) => {
      const { pathname } = new URL(request.url());
      // The live stream is an EventSource, which sends cookies alone.
      if (created && request.method() === 'GET' && pathname.startsWith('/api/') && pathname !== '/api/events')
        positionsSent.push(request.headers()['x-shiplog-positions']);
    };
    page.on('response', noteCreated);
    page.on('request', noteRead);
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.waitForURL(/\/projects$/);
    await page.getByText('Project created successfully!', { exact: true }).waitFor();
    await card('Weather API').waitFor();
    page.off('request', noteRead);
    page.off('response', noteCreated);
    expect(positionsSent.length).toBeGreaterThan(0);
    for (const sent of positionsSent) expect(sent).toMatch(/^projects=\d+\/\d+\.[^,=]+$/);
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

  it('keeps the dashboard’s filter and sort in the address, so a reload or a shared link keeps them', async () => {
    await page.goto('/');
    await card('Weather API').waitFor();
    await page.locator('#dashboard-filter').selectOption('blocked');
    await page.waitForURL(/[?&]status=blocked/);
    await page.getByText('No projects match this filter.').waitFor();
    await page.locator('#dashboard-sort').selectOption('name_asc');
    await page.waitForURL(/[?&]sort=name_asc/);
    await page.reload();
    await page.getByText('No projects match this filter.').waitFor();
    expect(await page.locator('#dashboard-filter').inputValue()).toBe('blocked');
    expect(await page.locator('#dashboard-sort').inputValue()).toBe('name_asc');
    await page.goto('/?status=development');
    await card('Weather API').waitFor();
    expect(await page.locator('#dashboard-filter').inputValue()).toBe('development');
  });

  it('asks for the dashboard once a visit, and a return to it by link shows what changed meanwhile', async () => {
    const api: string[] = [];
    const graphql: string[] = [];
    const count = (request: { url(): string }) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) api.push(pathname);
      if (pathname === '/api/graphql') graphql.push(request.url());
    };
    page.on('request', count);
    try {
      const stream = page.waitForRequest((request) => request.url().includes('/api/events'));
      await page.goto('/');
      await card('Weather API').waitFor();
      await stream;
      await page.waitForLoadState('networkidle');
      // The user, the one query (the bell's reminders and the admin messages come with it) and the
      // stream, each once: the stream opens where the page's data was read, so it fetches nothing again.
      // The charts ask for their figures when they come near the screen: on a short dashboard, at once.
      expect(api.filter((path) => path !== '/api/dashboard/charts').sort()).toEqual([
        '/api/events',
        '/api/graphql',
        '/api/user',
      ]);
      expect(graphql).toHaveLength(1);

      // Made elsewhere while the dashboard's answer sits in the cache: the live feed shows it on the
      // project list, and back by the sidebar the dashboard asks once more, and it is there.
      await page.getByRole('link', { name: 'My Projects' }).click();
      await page.waitForURL(/\/projects$/);
      await createProject('Made Meanwhile');
      await card('Made Meanwhile').waitFor();
      expect(graphql).toHaveLength(1);
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await card('Made Meanwhile').waitFor();
      await page.waitForLoadState('networkidle');
      expect(graphql).toHaveLength(2);
    } finally {
      page.off('request', count);
    }
    await card('Made Meanwhile').getByRole('button', { name: 'Actions for Made Meanwhile' }).click();
    await page.getByRole('menuitem', { name: 'Delete Project' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await card('Made Meanwhile').waitFor({ state: 'detached' });
  });

  it('draws what shipped per week, the monthly cost and the reminders due, each with its figures in a table', async () => {
    const other = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const tab = await other.newPage();
    const signedUp = await tab.request.post('/api/register', {
      data: { username: uniqueUsername('charts'), password: 'secret-pass-1' },
    });
    expect(signedUp.status()).toBe(201);
    // With nothing yet, each chart says so in words and draws no empty axis.
    await tab.goto('/');
    await tab.mouse.wheel(0, 2000);
    const empty = tab.getByTestId('dashboard-charts');
    await empty.getByText('Nothing shipped in the last 12 weeks.').waitFor();
    await empty.getByText('No project has a cost estimate yet.').waitFor();
    await empty.getByText('No reminders due in the next 4 weeks.').waitFor();
    expect(await empty.getByRole('img').count()).toBe(0);
    expect(await empty.getByRole('button', { name: 'Show table' }).count()).toBe(0);
    const project = await (
      await tab.request.post('/api/projects', { data: { name: 'Chart Kite', costEstimate: 1999 } })
    ).json();
    for (const [path, data] of [
      ['deployment', { environment: 'production' }],
      ['version', { version: '1.0.0' }],
      ['backup', {}],
    ] as const)
      expect((await tab.request.post(`/api/projects/${project.id}/${path}`, { data })).status()).toBe(201);
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await tab.request.post('/api/reminders', { data: { projectId: project.id, title: 'Renew', dueDate: due } });

    await tab.goto('/');
    // Scrolled down to once the page is drawn: the charts load as they come near.
    await tab.getByText('Released 1.0.0').waitFor();
    await tab.mouse.wheel(0, 2000);
    const charts = tab.getByTestId('dashboard-charts');
    // Each picture is named by its summary, which the card also shows.
    const shipped = charts.getByRole('img', { name: /^1 deployment and 1 release in the last 12 weeks; the busiest/ });
    await shipped.waitFor();
    expect(await shipped.locator('rect').count()).toBe(2);
    await charts
      .getByRole('img', { name: '$19.99 a month now, across 1 project; $19.99 over the last 12 months.' })
      .waitFor();
    await charts.getByRole('img', { name: '1 reminder due in the next 4 weeks.' }).waitFor();

    const cost = charts.getByTestId('chart').filter({ has: tab.getByRole('heading', { name: 'Monthly cost' }) });
    await cost.getByRole('button', { name: 'Show table' }).click();
    expect(await cost.getByRole('button', { name: 'Hide table' }).getAttribute('aria-expanded')).toBe('true');
    const rows = cost.getByRole('table', { name: 'Monthly cost' }).getByRole('row');
    expect(await rows.count()).toBe(13);
    expect(await rows.nth(0).getByRole('columnheader').allTextContents()).toEqual(['Month', 'Chart Kite', 'Total']);
    expect(await rows.nth(11).getByRole('cell').allTextContents()).toEqual(['$0.00', '$0.00']);
    expect(await rows.nth(12).getByRole('cell').allTextContents()).toEqual(['$19.99', '$19.99']);
    await other.close();
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

  it('shows a tick before the server answers, keeps quick ticks in order, and puts one back that the server refuses', async () => {
    await page.goto('/projects');
    const box = (name: string) => card('Weather API').getByRole('checkbox', { name });
    await box('Authentication').waitFor();
    expect(await box('Database added').getAttribute('aria-checked')).toBe('true');
    // The server is slow: both changes are on screen while their saves are still on the way.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/projects/*', async (route) => {
      if (route.request().method() === 'PUT') await held;
      await route.continue();
    });
    // Held saves are let go however the test ends, so the next test's page is not left waiting on them.
    onTestFinished(() => release());
    // Two ticks in one go, the second before the first is drawn: each still sends what the screen
    // shows when it goes, not what the card showed when it was clicked.
    const ticks = [await box('Authentication').elementHandle(), await box('Database added').elementHandle()];
    await page.evaluate((boxes) => {
      for (const tick of boxes) (tick as HTMLElement).click();
    }, ticks);
    await expect.poll(() => box('Authentication').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => box('Database added').getAttribute('aria-checked')).toBe('false');
    // While they are saved, the boxes are disabled: a click now changes nothing.
    expect(await box('Deployed').getAttribute('aria-disabled')).toBe('true');
    await box('Deployed').click({ force: true });
    expect(await box('Deployed').getAttribute('aria-checked')).toBe('false');
    release();
    // The held saves go on their way before the route is lifted.
    await page.unrouteAll({ behavior: 'wait' });
    // Saved in the order made: the server ends with both, and so does the page after a reload.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const projects = (await (await fetch('/api/projects')).json()) as {
              name: string;
              checklist: Record<string, boolean>;
            }[];
            const { checklist } = projects.find((p) => p.name === 'Weather API')!;
            return [checklist.authenticationAdded, checklist.databaseAdded];
          }),
        { timeout: 10_000 },
      )
      .toEqual([true, false]);
    await expect.poll(() => box('Deployed').getAttribute('aria-disabled')).toBe(null);
    await page.reload();
    await expect.poll(() => box('Authentication').getAttribute('aria-checked')).toBe('true');
    expect(await box('Database added').getAttribute('aria-checked')).toBe('false');
    expect(await box('Deployed').getAttribute('aria-checked')).toBe('false');

    // The server refuses: the box goes back, and the toast says why.
    await page.route('**/api/projects/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ code: 'UNAVAILABLE', message: 'Try again shortly' }),
          })
        : route.continue(),
    );
    try {
      await box('Authentication').click();
      await page.getByText('Failed to update project: 503: Try again shortly', { exact: true }).waitFor();
      await expect.poll(() => box('Authentication').getAttribute('aria-checked')).toBe('true');
    } finally {
      await page.unroute('**/api/projects/*');
    }
    await box('Database added').click();
    await expect.poll(() => box('Database added').getAttribute('aria-checked')).toBe('true');
  });

  it('records a deployment and shows it on the detail page timeline', async () => {
    await page.goto('/projects');
    await card('Weather API').getByRole('link', { name: 'Weather API' }).click();
    await page.getByText('Project Events').waitFor();
    await expect.poll(() => page.title()).toBe('Weather API · Shiplog');
    await page.getByRole('button', { name: 'Record Deployment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL (optional)').fill('nope');
    await dialog.getByRole('button', { name: 'Record Deployment' }).click();
    await dialog.getByText('Please enter a valid URL').waitFor();
    await dialog.getByLabel('URL (optional)').fill('https://weather.example.com');
    await dialog.getByLabel('Version (optional)').fill('1.2.0');
    // The server is slow: the dialog closes and the entry is on the timeline before it answers.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/projects/*/deployment', async (route) => {
      await held;
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Record Deployment' }).click();
    const timeline = page.getByTestId('project-timeline');
    await timeline.getByText('Deployed to production').waitFor();
    expect(await timeline.getByText('1.2.0').isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
    release();
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByText('Deployment recorded', { exact: true }).waitFor();
    // Recording a deployment ticks "Deployed".
    await expect.poll(() => page.getByRole('checkbox', { name: 'Deployed' }).getAttribute('aria-checked')).toBe('true');
    expect(await timeline.getByText('1.2.0').count()).toBe(1);

    // The server refuses one: its entry leaves the timeline, and the toast says why.
    await page.route('**/api/projects/*/deployment', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Service temporarily unavailable', code: 'SERVICE_UNAVAILABLE' }),
      }),
    );
    await page.getByRole('button', { name: 'Record Deployment' }).click();
    await page.getByRole('dialog').getByLabel('Version (optional)').fill('1.3.0');
    await page.getByRole('dialog').getByRole('button', { name: 'Record Deployment' }).click();
    await page.getByText('Failed to record deployment', { exact: true }).waitFor();
    await expect.poll(() => timeline.getByText('1.3.0').count()).toBe(0);
    await page.unrouteAll({ behavior: 'wait' });
    expect(await timeline.getByText('1.2.0').count()).toBe(1);
  });

  it('makes a deploy webhook URL that a platform posts its deployments to, recorded once each', async () => {
    await page.getByRole('button', { name: 'Create webhook URL' }).click();
    const url = await page.getByRole('textbox', { name: 'Deploy webhook URL' }).inputValue();
    expect(url).toMatch(/\/api\/hooks\/deploy\/[A-Za-z0-9_-]{32}$/);
    // Vercel, from outside the browser: no session.
    const deliver = (to: string) =>
      fetch(new URL(new URL(to).pathname, app.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'whk_1',
          type: 'deployment.error',
          payload: {
            deployment: { id: 'dpl_e2e', url: 'weather-git-main.vercel.app', meta: {} },
            target: 'production',
          },
        }),
      });
    expect((await deliver(url)).status).toBe(201);
    expect((await deliver(url)).status).toBe(200);
    await page.reload();
    const timeline = page.getByTestId('project-timeline');
    await timeline.getByText('Deployment to production failed').waitFor();
    expect(await timeline.getByText('Deployment to production failed').count()).toBe(1);
    // Shown once: after a reload the card says it is on, not what it is.
    await page.getByText(/^Active since /).waitFor();
    expect(await page.getByRole('textbox', { name: 'Deploy webhook URL' }).count()).toBe(0);

    await page.getByRole('button', { name: 'New URL' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Deploy webhook URL' }).inputValue()).not.toBe(url);
    expect((await deliver(url)).status).toBe(404);
  });

  it('watches a URL of the project: checked at once, shown up with its uptime, paused and removed', async () => {
    const monitors = page.getByRole('list', { name: 'Monitors' });
    await page.getByRole('button', { name: 'Add monitor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
    await dialog.getByLabel('URL to check').fill('not a url');
    await dialog.getByRole('button', { name: 'Add monitor' }).click();
    await dialog.getByText('Please enter a valid URL including http:// or https://').waitFor();
    await dialog.getByLabel('URL to check').fill(target.url);
    await dialog.getByLabel('How often').selectOption('30');
    await dialog.getByRole('button', { name: 'Add monitor' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The first check runs within a second; the live feed brings its result to the page.
    const monitor = monitors.getByTestId('monitor');
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');
    await monitor.getByText('Uptime: 100.00% (24 h) · 100.00% (30 days)').waitFor();
    await page.getByTestId('project-timeline').getByText(`Started monitoring ${target.url}`).waitFor();
    // The project's cards say how its monitors are, on /projects and on the dashboard.
    const projectPage = page.url();
    for (const path of ['/projects', '/']) {
      await page.goto(path);
      await expect.poll(() => card('Weather API').getByTestId('monitor-state').textContent()).toBe('Monitors: Up');
    }
    await page.goto(projectPage);

    // Its incidents (none yet) open under it.
    await monitor.getByRole('button', { name: 'Incidents' }).click();
    await monitor.getByText('No incidents yet.').waitFor();

    await page.getByRole('button', { name: `Pause ${target.url}` }).click();
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('paused');
    await page.getByRole('button', { name: `Remove ${target.url}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No monitors yet.').waitFor();
  });

  it('shows when an https site’s certificate ends, and its 14-day warning on the timeline', async () => {
    await page.getByRole('button', { name: 'Add monitor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
    await dialog.getByLabel('URL to check').fill(secure.url);
    await dialog.getByRole('button', { name: 'Add monitor' }).click();
    await dialog.waitFor({ state: 'detached' });
    const monitor = page.getByRole('list', { name: 'Monitors' }).getByTestId('monitor');
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');
    await monitor.getByText(/^Certificate ends \w{3} \d{1,2}, \d{4}, in 10 days$/).waitFor();
    await page
      .getByTestId('project-timeline')
      .getByText(
        new RegExp(`^Certificate of ${secure.url.replace(/[.]/g, '\\.')} ends \\d{4}-\\d{2}-\\d{2}, in 10 days`),
      )
      .waitFor();
    await page.getByRole('button', { name: `Remove ${secure.url}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No monitors yet.').waitFor();
  });

  it('watches a domain typed by hand, and shows when its registration ends', async () => {
    await page.getByRole('button', { name: 'Watch a domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a Domain' });
    await dialog.getByLabel('Domain').fill('not a domain');
    await dialog.getByRole('button', { name: 'Watch domain' }).click();
    await dialog.getByText('Please enter a domain name, such as example.com').waitFor();
    await dialog.getByLabel('Domain').fill('Weather.example');
    await dialog.getByRole('button', { name: 'Watch domain' }).click();
    await dialog.waitFor({ state: 'detached' });
    const monitor = page.getByRole('list', { name: 'Monitors' }).getByTestId('monitor');
    await monitor.getByText('Domain weather.example').waitFor();
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');
    await monitor.getByText(/^Registration ends \w{3} \d{1,2}, \d{4}, in 200 days$/).waitFor();
    await page.getByRole('button', { name: 'Remove Domain weather.example' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No monitors yet.').waitFor();
  });

  it('gives the backup job a cron ping URL, and lists its runs with their run time', async () => {
    await page.getByRole('button', { name: 'Create ping URL' }).click();
    const url = await page.getByRole('textbox', { name: 'Cron ping URL' }).inputValue();
    expect(url).toMatch(/\/api\/ping\/[A-Za-z0-9_-]{32}$/);
    // The cron job, from outside the browser: no session.
    const ping = (path: string) => fetch(new URL(`${new URL(url).pathname}${path}`, app.url));
    expect((await ping('/start')).status).toBe(200);
    expect((await ping('')).status).toBe(200);
    expect((await ping('/fail')).status).toBe(200);
    await page.reload();
    const runs = page.getByRole('list', { name: 'Latest runs' }).getByRole('listitem');
    await expect
      .poll(() => runs.allTextContents())
      .toEqual([expect.stringMatching(/^Failed /), expect.stringMatching(/^Done .+ · \d+(\.\d)?s$/)]);
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
    /** Deleted through its card's menu, after the confirmation: gone from the list at once. */
    const deleteFromCard = async () => {
      await card('Weather API v2').getByRole('button', { name: 'Actions for Weather API v2' }).click();
      await page.getByRole('menuitem', { name: 'Delete Project' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No projects found').waitFor();
    };
    await deleteFromCard();
    // Gone at once, told with an Undo; nothing is sent while the Undo is offered.
    await page.getByText('The project has been successfully deleted.', { exact: true }).waitFor();
    const names = () =>
      page.evaluate(async () =>
        ((await (await fetch('/api/projects')).json()) as { name: string }[]).map((p) => p.name),
      );
    expect(await names()).toContain('Weather API v2');
    await page.getByRole('button', { name: 'Undo' }).click();
    await card('Weather API v2').waitFor();

    // Deleted again and taken back with the z key.
    await deleteFromCard();
    await page.keyboard.press('z');
    await card('Weather API v2').waitFor();

    // Deleted for good: closing the toast gives up the Undo and sends it.
    await deleteFromCard();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(names).not.toContain('Weather API v2');
    // The timeline holds the one deletion that was sent.
    await page.goto('/activities');
    const deleted = page
      .getByTestId('activity-card')
      .filter({ hasText: 'Weather API v2' })
      .getByText('Deleted project');
    await deleted.waitFor();
    expect(await deleted.count()).toBe(1);
  });

  it('acts on several projects at once: select with clicks, shift-click and x, change status, make private, delete', async () => {
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C']) await createProject(name);
    await page.goto('/projects?q=Bulk');
    await page.locator('button[aria-keyshortcuts]').waitFor();
    const bar = page.getByTestId('selection-bar');
    // Newest first: C, B, A. A click, then a shift-click, selects the run between.
    await page.getByRole('checkbox', { name: 'Select Bulk C' }).click();
    await page.getByRole('checkbox', { name: 'Select Bulk A' }).click({ modifiers: ['Shift'] });
    await expect.poll(() => bar.getByText(/selected$/).textContent()).toBe('3 selected');

    await bar.getByRole('combobox', { name: 'Change status' }).selectOption('deployed');
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C'])
      await expect.poll(() => card(name).getByText('Deployed', { exact: true }).first().isVisible()).toBe(true);
    await page.getByText('3 project(s) updated', { exact: true }).waitFor();

    // The selection clears after an action. `x` on a focused card ticks its box, and again clears it.
    await expect.poll(() => bar.count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Select Bulk C' }).click();
    await page.getByRole('checkbox', { name: 'Select Bulk A' }).click();
    await card('Bulk B').getByRole('link', { name: 'Bulk B', exact: true }).focus();
    await page.keyboard.press('x');
    await expect.poll(() => bar.getByText(/selected$/).textContent()).toBe('3 selected');
    await page.keyboard.press('x');
    await expect.poll(() => bar.getByText(/selected$/).textContent()).toBe('2 selected');
    // New projects are public: these two become private.
    await bar.getByRole('button', { name: 'Make private' }).click();
    await page.getByText('2 project(s) made private', { exact: true }).waitFor();
    const visibility = await page.evaluate(async () =>
      ((await (await fetch('/api/projects')).json()) as { name: string; isPublic: boolean }[])
        .filter((p) => p.name.startsWith('Bulk'))
        .map((p) => `${p.name} ${p.isPublic}`)
        .sort(),
    );
    expect(visibility).toEqual(['Bulk A false', 'Bulk B true', 'Bulk C false']);

    // All three again, deleted after a confirmation, once the last action has cleared the selection.
    await expect.poll(() => bar.count()).toBe(0);
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C'])
      await page.getByRole('checkbox', { name: `Select ${name}` }).click();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog')
      .getByText('This will delete 3 project(s) and all associated data. You can undo it for 10 seconds.')
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('3 project(s) deleted', { exact: true }).waitFor();
    await page.getByText(/^No (matching )?projects found$/).waitFor();
    // Undo brings all three back; deleted again, they go when the toast closes.
    await page.getByRole('button', { name: 'Undo' }).click();
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C']) await card(name).waitFor();
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C'])
      await page.getByRole('checkbox', { name: `Select ${name}` }).click();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/^No (matching )?projects found$/).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(() =>
        page.evaluate(async () =>
          ((await (await fetch('/api/projects')).json()) as { name: string }[]).filter((p) =>
            p.name.startsWith('Bulk'),
          ),
        ),
      )
      .toEqual([]);
  });

  it('shows the project-not-found state, inside the app, for an unknown id and for a path whose id is not one', async () => {
    for (const path of [
      '/projects/0190a1b2-0000-7000-8000-000000000000',
      '/projects/not-an-id',
      '/projects/edit/not-an-id',
    ]) {
      await page.goto(path);
      await page.getByText("The project you're looking for doesn't exist or has been deleted.").waitFor();
      // Still inside the shell, with the way back.
      await page.getByRole('link', { name: 'Back to Projects' }).waitFor();
      await page.getByRole('navigation').first().waitFor();
    }
  });
});

describe('dashboard extras and activity history', () => {
  it('shows the payment-return toasts and clears the query string', async () => {
    await page.goto('/?success=true');
    await page.getByText('Payment Successful!', { exact: true }).waitFor();
    await page.waitForURL(`${app.url}/`);
    await page.goto('/?cancelled=true');
    await page.getByText('Payment Cancelled', { exact: true }).waitFor();
    await page.waitForURL(`${app.url}/`);
  });

  it('records a Quick Update once an admin has activated the subscription', async () => {
    await page.goto('/projects');
    await page.getByText('No projects found').waitFor();
    await createProject('Quick App');
    await page.goto('/');
    await card('Quick App').waitFor();
    // Without a subscription the button is disabled, described by the spec's hint, shown once a page.
    const hint = 'Quick updates require an active subscription. Please upgrade to use this feature.';
    const disabled = card('Quick App').getByRole('button', { name: 'Quick Update' });
    expect(await disabled.isDisabled()).toBe(true);
    expect(
      await disabled.evaluate(
        (button) => document.getElementById(button.getAttribute('aria-describedby')!)?.textContent,
      ),
    ).toBe(hint);
    await createProject('Second App');
    await page.goto('/projects');
    await card('Second App').waitFor();
    expect(await page.getByText(hint).count()).toBe(1);
    await page.goto('/');

    const userId = await page.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: string }).id);
    const login = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-e2e-password' }),
    });
    const adminCookie = cookiesFrom(login);
    const activated = await fetch(`${app.url}/api/admin/users/${userId}/subscription`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({ subscriptionStatus: 'active' }),
    });
    expect(activated.status).toBe(200);

    await page.reload();
    const button = card('Quick App').getByRole('button', { name: 'Quick Update' });
    await expect.poll(() => button.isDisabled()).toBe(false);
    await button.click();
    const popover = page.getByRole('dialog');
    await popover.getByLabel('What changed?').fill('ok');
    await popover.getByRole('button', { name: 'Save Update' }).click();
    await popover.getByText('Notes must be at least 3 characters').waitFor();
    await popover.getByLabel('What changed?').fill('Shipped the login fix');
    await popover.getByRole('checkbox', { name: 'Redeployed' }).click();
    // The gate asks billing at that moment: the first click after the admin's change is accepted.
    await popover.getByRole('button', { name: 'Save Update' }).click();
    await page.getByText('Your changes have been recorded in the project timeline.', { exact: true }).waitFor();
    await page.getByText('Shipped the login fix').waitFor();
    await expect
      .poll(() => card('Quick App').getByRole('checkbox', { name: 'Deployed' }).getAttribute('aria-checked'))
      .toBe('true');
  });

  it('downloads the export from Settings, and a fresh account imports it', async () => {
    // Subscribed since the Quick Update test: the downloads are open.
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Export' }).click();
    await page.getByText('Calendar feed').waitFor();
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^shiplog-builder\w+-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await json.path())!, 'utf8'));
    expect(file.projects.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['Quick App', 'Second App']),
    );
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV (zip)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);

    const fresh = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const other = await fresh.newPage();
    await registerThroughForm(other, uniqueUsername('importer'));
    await other.goto('/settings');
    await other.getByRole('tab', { name: 'Export' }).click();
    // On the trial, export is closed (with the reason), import is not.
    await other.getByText('Export requires an active subscription. Please upgrade to use this feature.').waitFor();
    expect(await other.getByRole('button', { name: 'Download JSON' }).isDisabled()).toBe(true);
    await other.getByLabel('Export file to import').setInputFiles((await json.path())!);
    // Every state of the progress bar, as the page draws it.
    const progress = await recordProgress(other, 'Import progress');
    await other.getByRole('button', { name: 'Import', exact: true }).click();
    await other.getByText('Import complete', { exact: true }).waitFor();
    // Counted against what the file holds: its projects and reminders.
    const seen = await progress();
    const max = file.projects.length + file.reminders.length;
    expect(seen.length).toBeGreaterThan(0);
    for (const state of seen) expect(state).toMatch(new RegExp(`^(\\d+/${max}|null/null)$`));
    await other.getByText(new RegExp(`^Brought in ${file.projects.length} projects, `)).waitFor();
    // The same file again adds nothing, and says so rather than counting the file once more.
    await other.getByLabel('Export file to import').setInputFiles((await json.path())!);
    await other.getByRole('button', { name: 'Import', exact: true }).click();
    await other.getByText('Nothing new to import', { exact: true }).first().waitFor();
    const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
    await other
      .getByText(
        `This file was imported before: its ${counted(file.projects.length, 'project')}, ${counted(
          file.reminders.length,
          'reminder',
        )} and ${counted(file.activities.length, 'timeline entry', 'timeline entries')} are already here.`,
      )
      .first()
      .waitFor();
    await other.goto('/projects');
    await other.getByRole('link', { name: 'Quick App', exact: true }).waitFor();
    await other.goto('/activities');
    await other.getByText('Shipped the login fix').waitFor();
    await fresh.close();
  });

  it('shows the builder’s public page signed out, with nothing private on it', async () => {
    const visitor = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const stranger = await visitor.newPage();
    const response = await stranger.goto(`/u/${builder}`);
    expect(response?.status()).toBe(200);
    await stranger.getByRole('heading', { level: 1, name: builder }).waitFor();
    const quick = stranger.getByTestId('public-project').filter({ hasText: 'Quick App' });
    await quick.waitFor();
    // The Quick Update ticked Deployed: one of five.
    expect(await quick.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
    expect(await stranger.getByRole('link', { name: 'Sign in' }).count()).toBe(1);
    const html = await stranger.content();
    expect(html).not.toContain('Shipped the login fix');
    expect(await stranger.title()).toBe(`${builder} (@${builder}) · Shiplog`);

    const missing = await stranger.goto('/u/nobody-by-that-name');
    expect(missing?.status()).toBe(404);
    await stranger.getByRole('heading', { name: 'Profile not found' }).waitFor();
    await visitor.close();
  });

  it('shows the builder’s status page signed out: each public project’s monitors, 90 days of bars, no incidents', async () => {
    // The builder expects a daily backup of Quick App: checked at once, on time.
    const made = await page.evaluate(async () => {
      const projects = (await (await fetch('/api/projects')).json()) as { id: string; name: string }[];
      const quick = projects.find((p) => p.name === 'Quick App')!;
      const answer = await fetch(`/api/projects/${quick.id}/monitors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'backup', intervalSeconds: 86_400 }),
      });
      return { status: answer.status, id: ((await answer.json()) as { id: string }).id };
    });
    expect(made.status).toBe(201);
    // Its first look, as the builder sees it; the public pages hold what they read for 30 s, so they are
    // visited after it.
    await expect
      .poll(
        () =>
          page.evaluate(
            async (id) =>
              ((await (await fetch('/api/monitors')).json()) as { id: string; state: string }[]).find(
                (m) => m.id === id,
              )?.state,
            made.id,
          ),
        { timeout: 10_000 },
      )
      .toBe('up');
    const visitor = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const stranger = await visitor.newPage();
    await stranger.goto(`/u/${builder}`);
    await stranger.getByRole('link', { name: 'Status of their projects' }).click();
    await stranger.waitForURL(`**/u/${builder}/status`);
    await stranger.getByRole('heading', { level: 1, name: `Status of ${builder}’s projects` }).waitFor();
    const monitor = stranger.getByRole('list', { name: 'Quick App monitors' }).getByTestId('status-monitor');
    await monitor.getByText('A backup every day').waitFor();
    // The first look runs within a second; the page asks again each minute, so look again.
    await expect
      .poll(async () => {
        await stranger.reload();
        return monitor.getAttribute('data-state');
      })
      .toBe('up');
    expect(await monitor.getByRole('img').getAttribute('aria-label')).toMatch(
      /^A backup every day: 100\.00% up over 90 days/,
    );
    expect(await monitor.locator('[role="img"] > span').count()).toBe(90);
    expect(await stranger.getByTestId('overall-status').textContent()).toBe('All systems operational');
    await stranger.getByText('No incidents in the last 90 days.').waitFor();
    expect(await stranger.title()).toBe(`Status of ${builder}'s projects · Shiplog`);

    // The builder's project page hands out its README badges, which anyone can load.
    await page.goto('/projects');
    await card('Quick App').getByRole('link', { name: 'Quick App', exact: true }).click();
    await page.getByText('Status page and README badges').click();
    const markdown = await page.getByRole('textbox', { name: 'README badges' }).inputValue();
    const urls = [...markdown.matchAll(/\((http[^)]+\.svg)\)/g)].map((m) => m[1]!);
    expect(urls.map((u) => u.split('/').pop())).toEqual(['uptime.svg', 'last-deploy.svg', 'version.svg']);
    const svg = await stranger.goto(urls[1]!);
    expect(svg?.status()).toBe(200);
    expect(svg?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(await svg?.text()).toMatch(/<title>last deploy: (just now|\d+ minutes? ago)<\/title>/);
    await visitor.close();
  });

  it('pages Activity History with Load More Activities', async () => {
    const id = await page.evaluate(async () => {
      const created = await fetch('/api/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Busy Project' }),
      });
      const project = (await created.json()) as { id: string };
      for (let i = 0; i < 22; i++) {
        await fetch(`/api/projects/${project.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ description: `Revision ${i}` }),
        });
      }
      return project.id;
    });
    expect(id).toBeTruthy();
    const total = await page.evaluate(
      async () => ((await (await fetch('/api/activities?limit=100')).json()) as unknown[]).length,
    );
    expect(total).toBeGreaterThan(20);
    await page.goto('/activities');
    const cards = page.getByTestId('activity-card');
    const loadMore = page.getByRole('button', { name: 'Load More Activities' });
    await expect.poll(() => cards.count()).toBe(10);
    await loadMore.click();
    await expect.poll(() => cards.count()).toBe(20);
    // Offered while a page comes back full (so a last, empty page may follow a full one), then gone.
    for (let i = 0; i < 10 && (await loadMore.count()) > 0; i++) {
      const before = await cards.count();
      await loadMore.click();
      await expect.poll(async () => (await cards.count()) > before || (await loadMore.count()) === 0).toBe(true);
    }
    await expect.poll(() => cards.count()).toBe(total);
    expect(await loadMore.count()).toBe(0);
  });
});
