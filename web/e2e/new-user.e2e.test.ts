/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

/** What a builder meets in their first minutes: the keyboard from the first moment, the first steps. */
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

  it('is asked only who they are while signed out, and for their dashboard at once once signed in', async () => {
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    // Signed out, the page asks who is signed in and nothing bound to be refused (decision 063).
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByRole('tab', { name: 'Register' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual(['/api/user']);
    expect(await page.locator('link[rel=modulepreload][href*="/dashboard-page-"]').count()).toBe(0);
    // Signed in, a visit to the dashboard asks for its data and its code before the app has started.
    await registerThroughForm(page, uniqueUsername('hint'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    asked.length = 0;
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.locator('link[rel=modulepreload][href*="/dashboard-page-"]').count()).toBe(1);
    expect(asked.filter((path) => path === '/api/graphql')).toEqual(['/api/graphql']);
  });

  it('is led through the first steps, each marked done by doing it, until all are done', async () => {
    await registerThroughForm(page, uniqueUsername('steps'));
    const card = page.getByRole('region', { name: 'Get started' });
    const progress = async (done: string, steps: string[]) => {
      await page.goto('/');
      await card.getByText(done, { exact: true }).waitFor();
      expect(await card.getByRole('listitem').allTextContents()).toEqual(
        steps.map((step) => expect.stringContaining(step)),
      );
    };
    await progress('0 of 3 done', ['To do: Create a project', 'To do: Record a deployment', 'To do: Add a monitor']);
    await card.getByRole('link', { name: 'New Project' }).click();
    await page.getByLabel('Project name').fill('Weather API');
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.waitForURL(/\/projects$/);
    await progress('1 of 3 done', ['Done: Create a project', 'To do: Record a deployment', 'To do: Add a monitor']);
    // The CLI and a deploy webhook record a deployment as the page does: through the same call.
    const projectId = await page.evaluate(async () => {
      const [project] = (await (await fetch('/api/projects')).json()) as { id: string }[];
      await fetch(`/api/projects/${project!.id}/deployment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ environment: 'production', version: '1.0.0' }),
      });
      return project!.id;
    });
    await progress('2 of 3 done', ['Done: Create a project', 'Done: Record a deployment', 'To do: Add a monitor']);
    await card.getByRole('link', { name: 'Add monitor on its page' }).click();
    await page.waitForURL(new RegExp(`/projects/${projectId}$`));
    await page.getByRole('button', { name: 'Expect backups or deployments', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Expect it' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // All done: the dashboard is the builder's own. The steps come after the first screen, a second
    // after it as the shell's keyboard does (its button says so): by then they would have asked for
    // the account's settings.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/notifications/settings')) asked.push(request.url());
    });
    await page.goto('/');
    await page.getByTestId('project-card').waitFor();
    await page.locator('button[aria-keyshortcuts]').waitFor();
    expect(asked).toEqual([]);
    expect(await card.count()).toBe(0);
  });

  it('hides the first steps when asked, on every device', async () => {
    await registerThroughForm(page, uniqueUsername('hide'));
    const card = page.getByRole('region', { name: 'Get started' });
    await card.getByText('0 of 3 done').waitFor();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/settings') && r.request().method() === 'POST',
    );
    await card.getByRole('button', { name: 'Hide getting started' }).click();
    expect(await card.count()).toBe(0);
    // Kept with the account: another browser signed in as the same builder does not show them.
    expect((await saved).ok()).toBe(true);
    const other = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 850 } });
    await other.addCookies(await context.cookies());
    const elsewhere = await other.newPage();
    const read = elsewhere.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/settings') && r.request().method() === 'GET',
    );
    await elsewhere.goto('/');
    await elsewhere.getByText('No projects yet. Create your first project to get started.').waitFor();
    // The steps have read that they are hidden, and the page has drawn what it read.
    expect((await read).ok()).toBe(true);
    await elsewhere.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    expect(await elsewhere.getByRole('region', { name: 'Get started' }).count()).toBe(0);
    await other.close();
  });

  it('is told offline that a page never opened is not available offline, with the way back', async () => {
    await registerThroughForm(page, uniqueUsername('offline'));
    // The service worker controls the page and has kept it and the dashboard (lib/service-worker.ts):
    // its install fetches the shell's files, which beside the other browsers and apps on two cores has
    // taken more than 30 s.
    await expect
      .poll(
        () =>
          page.evaluate(async () =>
            Boolean(
              navigator.serviceWorker.controller &&
                (await (await caches.open('shiplog-page')).match('/')) &&
                (await (await caches.open('shiplog-data')).match('/api/user')) &&
                // The dashboard's data, which the offline page shows.
                (await (await caches.open('shiplog-data')).keys()).some(
                  (request) => new URL(request.url).pathname === '/api/graphql',
                ),
            ),
          ),
        { timeout: 50_000 },
      )
      .toBe(true);
    await context.setOffline(true);
    await page.goto('/');
    // Its first paint from the service worker's copies has taken over 30 s under a full run's load, as
    // in shell.e2e.test.ts.
    await page.getByText('You are offline', { exact: false }).waitFor({ timeout: 100_000 });
    // Never opened on this device: its code was never downloaded.
    await page.getByTestId('desktop-sidebar').getByRole('link', { name: 'External API' }).click();
    await page.getByRole('heading', { name: 'This page is not available offline' }).waitFor();
    expect(await page.getByText('Failed to fetch', { exact: false }).count()).toBe(0);
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // Opened from its address too; back online, it opens by itself.
    await page.goto('/integrations');
    await page.getByRole('heading', { name: 'This page is not available offline' }).waitFor();
    // Back online before its code can be fetched (Playwright gives the page its connection back
    // before the service worker, which fetches for it): it waits, and does not reload into a failure.
    const code = /\/assets\/integrations-page-[^/]+\.js$/;
    let refused = 0;
    await context.route(code, (route) => {
      refused++;
      return route.abort('internetdisconnected');
    });
    await context.setOffline(false);
    await expect.poll(() => refused, { timeout: 45_000 }).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'This page could not be loaded' }).waitFor();
    // Once its code answers, the page loads itself afresh at its next try (told the connection is back,
    // it tries at once): on two busy cores that has taken more than 30 s.
    await context.unroute(code);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await page.getByText('No integrations configured yet.').waitFor({ timeout: 45_000 });
  }, 180_000);
});
