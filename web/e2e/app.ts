import { createTestBusNamespace, createTestDatabase, freePort, freeServicePortBase } from '@shiplog/testing';
import type { Page } from 'playwright-core';
import { launchApp } from '../../scripts/launch.ts';

/**
 * The app as `npm start` runs it (scripts/start.ts: every service and the gateway as processes of
 * their own), on free ports with its own database and NATS namespace.
 */
export async function startApp(options: { env?: Record<string, string> } = {}) {
  const db = await createTestDatabase('e2e');
  const bus = createTestBusNamespace('e2e');
  const port = await freePort();
  const serviceBase = await freeServicePortBase();
  const app = await launchApp(
    {
      PORT: String(port),
      SERVICE_PORT_BASE: String(serviceBase),
      DATABASE_URL: db.url,
      BUS_NAMESPACE: bus.namespace,
      SKIP_WEB_BUILD: '1',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'admin-e2e-password',
      // The browser tests sign up many users from one address.
      RATE_LIMITS: 'off',
      // Two apps run side by side: small pools keep them within PostgreSQL's 100 connections.
      DATABASE_POOL_MAX: '5',
      // Checkout's return links come back here.
      APP_URL: `http://localhost:${port}`,
      ...options.env,
    },
    90_000,
  );
  // An app that ends while its tests run says why (its supervisor stops everything when one process exits).
  let stopping = false;
  app.child.once('exit', (code, signal) => {
    if (!stopping)
      process.stderr.write(
        `\n[e2e] the app exited during the tests (${signal ?? code}):\n${app.output().slice(-6000)}\n`,
      );
  });
  return {
    url: `http://localhost:${port}`,
    /** Where its sessions are kept in Redis: `<namespace>:sess:<id>`. */
    busNamespace: bus.namespace,
    async stop() {
      stopping = true;
      await app.stop();
      await bus.drop();
      await db.drop();
    },
  };
}

/** The browser the tests drive (@shiplog/testing/browser). */
export { launchChromium as launchBrowser } from '@shiplog/testing/browser';

let counter = 0;
export function uniqueUsername(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/** Registers `username` (password secret-pass-1) through the Register tab of /auth, and waits for the dashboard. */
export async function registerThroughForm(page: Page, username: string, options: { email?: string } = {}) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  if (options.email) await page.getByLabel('Email (optional)').fill(options.email);
  await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
  await page.getByLabel('Confirm password').fill('secret-pass-1');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

export async function signInThroughForm(page: Page, username: string, password = 'secret-pass-1') {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Starts noting every state the page draws of the progress bar named `label` (`valuenow/valuemax`);
 * answers what reads the states noted so far.
 */
export async function recordProgress(page: Page, label: string): Promise<() => Promise<string[]>> {
  await page.evaluate((name) => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector(`[role=progressbar][aria-label="${name}"]`);
      if (bar) seen.push(`${bar.getAttribute('aria-valuenow')}/${bar.getAttribute('aria-valuemax')}`);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  }, label);
  return () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
}
