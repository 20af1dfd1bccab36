import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestBusNamespace, createTestDatabase, freePort, freeServicePortBase } from '@shiplog/testing';
import { standInDomains, startDomainStandIn } from '@shiplog/testing/domains';
import { watchLog } from '@shiplog/testing/failure-logs';
import { startGitHubStandIn } from '@shiplog/testing/github';
import { startOpenAIStandIn } from '@shiplog/testing/openai';
import { startRdapStandIn } from '@shiplog/testing/rdap';
import { startSmtpStandIn } from '@shiplog/testing/smtp';
import { startStripeStandIn } from '@shiplog/testing/stripe';
import { startTargetStandIn } from '@shiplog/testing/targets';
import { startWebhookStandIn } from '@shiplog/testing/webhooks';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchApp } from '../../scripts/launch.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** What this run's databases and bus namespaces are named by (global-setup.ts drops them at the end). */
    e2eRun: string;
  }
}

/**
 * The app as `npm start` runs it (scripts/start.ts: every service and the gateway in one process),
 * on free ports with its own database and NATS namespace, and every outside provider it
 * calls as a local stand-in: Stripe, the model, SMTP, a registrar's API, webhooks, monitored sites
 * (one on https, its CA trusted as an operator's private one), RDAP and GitHub.
 */
async function startApp() {
  const run = inject('e2eRun');
  const [stripe, model, smtp, domains, hooks, target, secure, rdap, github] = await Promise.all([
    startStripeStandIn(),
    startOpenAIStandIn({ chunkDelayMs: 80 }),
    startSmtpStandIn(),
    startDomainStandIn({ domains: standInDomains(30) }),
    startWebhookStandIn(),
    startTargetStandIn(),
    startTargetStandIn({ tls: { expiresInDays: 10 } }),
    startRdapStandIn(),
    startGitHubStandIn(),
  ]);
  const roots = join(await mkdtemp(join(tmpdir(), 'shiplog-ca-')), 'roots.pem');
  await writeFile(roots, secure.ca!);
  const db = await createTestDatabase(`e2e_${run}`);
  const bus = createTestBusNamespace(`e2e_${run}`);
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
      // Checkout's return links come back here.
      APP_URL: `http://localhost:${port}`,
      ...stripe.env,
      ...model.env,
      ...smtp.env,
      INTEGRATION_ALLOWED_HOSTS: [domains.host, github.host].join(','),
      GITHUB_API_URL: github.url,
      GITHUB_APP_ID: String(github.app.id),
      GITHUB_APP_SLUG: github.app.slug,
      GITHUB_APP_CLIENT_ID: github.app.clientId,
      GITHUB_APP_CLIENT_SECRET: github.app.clientSecret,
      GITHUB_APP_WEBHOOK_SECRET: github.app.webhookSecret,
      GITHUB_APP_PRIVATE_KEY: github.app.privateKey,
      MONITOR_ALLOWED_HOSTS: [hooks.host, target.host, secure.host, rdap.host].join(','),
      NODE_EXTRA_CA_CERTS: roots,
      RDAP_URL: rdap.url,
    },
    90_000,
  );
  watchLog('app', app.output);
  const url = `http://localhost:${port}`;
  stripe.deliverTo(`${url}/api/stripe/webhook`);
  // The GitHub App as its operator registers it: its callback is the External API page.
  github.app.callbackUrl = `${url}/integrations`;
  github.app.webhookUrl = `${url}/api/hooks/github-app`;
  // An app that ends while the tests run says why (its supervisor stops everything when one process
  // exits, and when this worker does).
  app.child.once('exit', (code, signal) =>
    process.stderr.write(
      `\n[e2e] the app exited during the tests (${signal ?? code}):\n${app.output().slice(-6000)}\n`,
    ),
  );
  return {
    url,
    /** Where its sessions are kept in Redis: `<namespace>:sess:<id>`. */
    busNamespace: bus.namespace,
    stripe,
    model,
    smtp,
    /** A registrar's API (integrations import its domains). */
    domains,
    /** Where alert channels post (Slack's shape here). */
    hooks,
    /** A site to watch, on http, and one on https whose certificate ends in 10 days. */
    target,
    secure,
    /** The registry's RDAP server, for a domain typed by hand. */
    rdap,
    /** GitHub's REST API, its webhook deliveries (to the hooks its API made, at APP_URL) and the server's GitHub App. */
    github,
  };
}

export type E2EApp = Awaited<ReturnType<typeof startApp>>;

let shared: Promise<E2EApp> | undefined;

/**
 * The app every browser test file of this worker uses: started by the first, kept for the others
 * (the e2e project runs a worker's files in one process), so a run starts one a worker instead of one a file.
 * Files keep to their own users and projects; what all users see (admin messages) a file takes away
 * when done. It stops with the worker, and global-setup.ts drops its database and bus namespace.
 */
export function sharedApp(): Promise<E2EApp> {
  shared ??= startApp();
  return shared;
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
