/// <reference lib="dom" />

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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
/** Two tabs of one user, in two browser contexts (two sessions), and a stranger's. */
let watching: Page;
let acting: Page;
let stranger: Page;
const username = uniqueUsername('live');

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  const page = async () => {
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const opened = await context.newPage();
    opened.on('pageerror', (error) => {
      throw error;
    });
    return opened;
  };
  [watching, acting, stranger] = await Promise.all([page(), page(), page()]);
  await registerThroughForm(watching, username);
  await signInThroughForm(acting, username);
  await registerThroughForm(stranger, uniqueUsername('other'));
});
afterAll(async () => {
  await browser?.close();
});

/** A call as the page makes it, with its session. */
const api = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([method, path, body]) => {
      const response = await fetch(path, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    [method, path, body] as const,
  );

/** Resolves once the text shows on the page, without a reload (an idle tab polls nothing while its stream is open). */
const appears = (page: Page, text: string) => page.getByText(text).first().waitFor({ timeout: 10_000 });

describe('live updates', () => {
  it("shows another tab's changes on the dashboard, the project list, the bell and the project page, without a reload", async () => {
    await watching.goto('/');
    await watching.getByRole('heading', { name: 'My Projects' }).waitFor();
    await stranger.goto('/');
    const created = await api(acting, 'POST', '/api/projects', { name: 'Made in the other tab' });
    expect(created.status).toBe(201);
    await appears(watching, 'Made in the other tab');

    await watching.goto('/projects');
    await appears(watching, 'Made in the other tab');
    await api(acting, 'PUT', `/api/projects/${created.body.id}`, { name: 'Renamed in the other tab' });
    await appears(watching, 'Renamed in the other tab');

    const dueSoon = new Date(Date.now() + 2 * 3600_000).toISOString();
    const before = await watching.getByText(/^Notifications \(\d+\)$/).textContent();
    await api(acting, 'POST', '/api/reminders', {
      projectId: created.body.id,
      title: 'Renew the domain',
      dueDate: dueSoon,
    });
    await expect
      .poll(() => watching.getByText(/^Notifications \(\d+\)$/).textContent(), { timeout: 10_000 })
      .not.toBe(before);

    await watching.goto(`/projects/${created.body.id}`);
    await watching.getByText('Project Events').waitFor();
    // A deploy webhook, from outside any browser.
    const hook = await api(acting, 'POST', `/api/projects/${created.body.id}/deploy-hook`);
    await fetch(new URL(new URL(hook.body.url).pathname, app.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deploymentId: 'run-7', version: '3.1.0' }),
    });
    // Under a full run's load the delivery, the read models and the page's refetch have taken over 10 s.
    await watching.getByTestId('project-timeline').getByText('Deployed to production').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => watching.getByRole('checkbox', { name: 'Deployed' }).getAttribute('aria-checked'), {
        timeout: 30_000,
      })
      .toBe('true');

    // The stranger's dashboard never heard of any of it.
    expect(await stranger.getByText('Renamed in the other tab').count()).toBe(0);
    expect(await stranger.getByText('Made in the other tab').count()).toBe(0);
  });

  it('keeps a tick that is still being saved when another tab changes the project, and shows both once saved', async () => {
    const created = await api(acting, 'POST', '/api/projects', { name: 'Ticked while renamed' });
    await watching.goto('/projects');
    const card = watching
      .getByTestId('project-card')
      .filter({ has: watching.getByRole('link', { name: 'Ticked while renamed', exact: true }) });
    const box = card.getByRole('checkbox', { name: 'Database added' });
    await box.waitFor();
    // The tick's save is slow: it is on screen, not yet on the server.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await watching.route('**/api/projects/*', async (route) => {
      if (route.request().method() === 'PUT') await held;
      await route.continue();
    });
    onTestFinished(() => release());
    await box.click();
    await expect.poll(() => box.getAttribute('aria-checked')).toBe('true');

    // The other tab renames it; this tab hears of it (a second stream of its own session tells when,
    // open before the change is made, or a busy machine can make the change before it listens)…
    await watching.evaluate(
      () =>
        new Promise<void>((opened) => {
          const probe = new EventSource('/api/events');
          (window as unknown as { heard: Promise<void> }).heard = new Promise<void>((resolve) =>
            probe.addEventListener('change', () => {
              probe.close();
              resolve();
            }),
          );
          probe.addEventListener('open', () => opened(), { once: true });
        }),
    );
    await api(acting, 'PUT', `/api/projects/${created.body.id}`, { name: 'Renamed while ticking' });
    await watching.evaluate(() => (window as unknown as { heard: Promise<void> }).heard);
    // …and reads nothing again while its own change is on the way, so the tick is not undone.
    const isListRead = (request: { url(): string; method(): string }) =>
      request.method() === 'GET' && new URL(request.url()).pathname === '/api/projects';
    await expect(watching.waitForRequest(isListRead, { timeout: 1000 })).rejects.toThrow(/Timeout/);
    expect(await box.getAttribute('aria-checked')).toBe('true');

    release();
    await watching.unrouteAll({ behavior: 'wait' });
    const renamed = watching
      .getByTestId('project-card')
      .filter({ has: watching.getByRole('link', { name: 'Renamed while ticking', exact: true }) });
    await renamed.waitFor({ timeout: 10_000 });
    expect(await renamed.getByRole('checkbox', { name: 'Database added' }).getAttribute('aria-checked')).toBe('true');
  });
});
