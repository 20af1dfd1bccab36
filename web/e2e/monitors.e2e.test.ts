/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';

let app: E2EApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A site the builder shipped, for the monitors to check. */
let target: E2EApp['target'];

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  ({ target } = app);
  context = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 850 } });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await registerThroughForm(page, uniqueUsername('watcher'));
});
afterAll(async () => {
  target.mode = 'up';
  await browser?.close();
});

/** A call to the API as the signed-in page; its answer's status and body. */
const api = (method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([method, path, body]) => {
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: response.status === 204 ? null : await response.json() };
    },
    [method, path, body] as const,
  );

describe('monitors in the browser', () => {
  it('edits a monitor in place, with the rules of adding one: a private address is refused on its URL', async () => {
    const project = (await api('POST', '/api/projects', { name: 'Edit Box' })).body.id;
    await page.goto(`/projects/${project}`);
    await page.getByRole('button', { name: 'Add monitor' }).click();
    const add = page.getByRole('dialog', { name: 'Add Monitor' });
    await add.getByLabel('URL to check').fill('http://10.0.0.1/health');
    await add.getByRole('button', { name: 'Add monitor' }).click();
    await add
      .getByText(
        'Refused: 10.0.0.1 is a private, loopback or reserved address. Shiplog only connects to public addresses.',
      )
      .waitFor();
    await add.getByLabel('URL to check').fill(target.url);
    await add.getByRole('button', { name: 'Add monitor' }).click();
    await add.waitFor({ state: 'detached' });
    const monitor = page.getByRole('list', { name: 'Monitors' }).getByTestId('monitor');
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');

    await page.getByRole('button', { name: `Edit ${target.url}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Monitor' });
    expect(await edit.getByLabel('URL to check').inputValue()).toBe(target.url);
    await edit.getByLabel('URL to check').fill('http://127.0.0.1/admin');
    await edit.getByLabel('Status codes that count as up').fill('200-');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('Use status codes and ranges, such as 200-299 or 200,301').waitFor();
    await edit.getByLabel('Status codes that count as up').fill('200');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText(/^Refused: 127\.0\.0\.1 is a private/).waitFor();
    const changed = `${target.url}health?v=2`;
    await edit.getByLabel('URL to check').fill(changed);
    await edit.getByLabel('How often').selectOption('300');
    await edit.getByLabel('Open an incident after').selectOption('3');
    await edit.getByLabel('Text the page must show (optional)').fill('ok');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await monitor.getByText(changed, { exact: true }).waitFor();
    const [saved] = (await api('GET', `/api/projects/${project}/monitors`)).body;
    expect(saved).toMatchObject({
      url: changed,
      intervalSeconds: 300,
      expectedStatuses: '200',
      failureThreshold: 3,
      keyword: 'ok',
    });
    // Its history stays: the checks before the change still count.
    expect(saved.uptime.day).toBe(1);
  });

  it('lists an open incident in the bell beside the reminders, until its monitor is removed', async () => {
    const project = (await api('POST', '/api/projects', { name: 'Bell Box' })).body.id;
    target.mode = 'down';
    const made = await api('POST', `/api/projects/${project}/monitors`, {
      url: `${target.url}bell`,
      intervalSeconds: 30,
      failureThreshold: 1,
    });
    expect(made.status).toBe(201);
    await page.goto(`/projects/${project}`);
    const monitor = page.getByRole('list', { name: 'Monitors' }).getByTestId('monitor');
    // Its first check runs once the checker claims it: seconds, on a machine busy with a full run.
    await expect.poll(() => monitor.getAttribute('data-state'), { timeout: 20_000 }).toBe('down');
    const bell = page.getByRole('button', { name: /^Notifications \(0\), 1 open incident$/ });
    await bell.waitFor();
    await bell.click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.getByText('You have 0 active reminders').waitFor();
    await popover.getByText('No active reminders').waitFor();
    await popover.getByText('1 open incident').waitFor();
    await popover.getByText('Down: Bell Box').waitFor();
    await popover.getByText(new RegExp(`^${target.url}bell · since .*: HTTP 503$`)).waitFor();
    await page.keyboard.press('Escape');
    target.mode = 'up';
    // Removed while down: it leaves the bell, and nobody is told it is up again.
    expect((await api('DELETE', `/api/monitors/${made.body.id}`)).status).toBe(204);
    await page.getByRole('button', { name: /^Notifications \(0\)$/ }).waitFor();
  });

  it('says what an expected backup’s check found, and what the ping URL does with or without one', async () => {
    const project = (await api('POST', '/api/projects', { name: 'Backup Box' })).body.id;
    await page.goto(`/projects/${project}`);
    await page.getByRole('button', { name: 'Create ping URL' }).click();
    await page.getByText(/expect backups on this project \(Monitors\)/).waitFor();
    expect(
      (await api('POST', `/api/projects/${project}/monitors`, { kind: 'backup', intervalSeconds: 86_400 })).status,
    ).toBe(201);
    const monitor = page.getByRole('list', { name: 'Monitors' }).getByTestId('monitor');
    await expect.poll(() => monitor.getAttribute('data-state'), { timeout: 10_000 }).toBe('up');
    await monitor.getByText(/^Checked .* · on time$/).waitFor();
    expect(await monitor.getByText(/null/).count()).toBe(0);
    await page.getByText(/a good run counts as the expected backup, a failed one is an incident/).waitFor();
  });
});
