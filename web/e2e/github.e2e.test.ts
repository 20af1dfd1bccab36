/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';
import { violations, watchForViolations } from './axe.ts';

/**
 * GitHub in the browser, as a new user meets it: connect the GitHub stand-in with a token on the
 * External API page, import two repositories as projects, then publish a release and a deployment
 * status on GitHub, and see them on the project's timeline and its repository card.
 */
let app: E2EApp;
let browser: Browser;
let page: Page;
const suffix = Date.now().toString(36);
const site = `site-${suffix}`;
const docs = `docs-${suffix}`;
const username = uniqueUsername('github');

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  await watchForViolations(context);
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  app.github.addRepository(site, { description: 'The marketing site', homepage: 'https://site.example.com' });
  app.github.addRepository(docs, { private: true });
  await registerThroughForm(page, username);
});
afterAll(async () => {
  await browser?.close();
});

describe('GitHub in the browser', () => {
  it('connects, imports two repositories, and shows a release and a deployment from GitHub on the project', async () => {
    await page.goto('/integrations');
    await page.getByLabel('Personal access token').fill('not-a-token');
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByText('GitHub does not accept this token', { exact: true }).waitFor();
    await page.getByLabel('Personal access token').fill(app.github.token);
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByTestId('github-connected').getByText(app.github.login).waitFor();
    // The webhook's address and secret, for a repository whose webhook is added by hand: shown now.
    await page.getByLabel('Webhook secret', { exact: true }).waitFor();
    const found = await violations(page, 'GitHub connected');

    await page.getByRole('button', { name: 'Import repositories' }).click();
    const list = page.getByTestId('github-repositories');
    for (const name of [site, docs]) await list.getByRole('checkbox', { name: new RegExp(name) }).click();
    await page.getByRole('button', { name: 'Import 2 as projects' }).click();
    await page.getByText('Imported 2 of 2 repositories').first().waitFor();
    await expect.poll(() => list.getByRole('link', { name: 'Imported' }).count()).toBeGreaterThanOrEqual(2);
    found.push(...(await violations(page, 'GitHub repositories')));

    // GitHub publishes a release and deploys.
    const repository = `${app.github.login}/${site}`;
    const [release] = await app.github.publishRelease(repository, 'v2.0.0', '- New pricing page\n- Faster images');
    expect(release?.status).toBe(202);
    for (const state of ['in_progress', 'success'])
      await app.github.deliver(repository, 'deployment_status', {
        deployment: { id: 7001, sha: 'feedface1234', ref: 'main', environment: 'production' },
        deployment_status: { state, environment_url: 'https://site.example.com' },
      });

    await page.goto('/projects');
    await page.getByRole('link', { name: site, exact: true }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    const repositoryCard = page.getByTestId('project-repository');
    await repositoryCard.getByText(repository).waitFor();
    await repositoryCard.getByTestId('latest-release').getByText('v2.0.0').waitFor();
    await repositoryCard.getByTestId('last-commit').getByText('Initial commit').waitFor();
    const timeline = page.getByTestId('activity-card');
    // The release shipped the repository's commits up to its tag, folded under their count.
    const released = timeline.filter({ hasText: 'v2.0.0' }).first();
    await released.getByText('What shipped: 1 commit').click();
    await released.getByTestId('what-shipped').getByText('Initial commit').waitFor();
    await timeline
      .filter({ hasText: /deploy/i })
      .first()
      .waitFor();
    // Deployed is ticked by the deployment's success.
    await expect.poll(() => page.getByRole('checkbox', { name: 'Deployed' }).getAttribute('aria-checked')).toBe('true');
    found.push(...(await violations(page, 'project with its repository')));
    expect(found).toEqual([]);
  });

  it('publishes the public project’s releases as a changelog with its Atom feed, from the public profile', async () => {
    const made = await page.evaluate(
      async () =>
        (
          await fetch('/api/profile', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ displayName: 'Octo Builder', projectVisibility: 'public' }),
          })
        ).status,
    );
    expect(made).toBe(200);
    await page.goto(`/u/${username}`);
    await page.getByRole('link', { name: `${site} changelog: v2.0.0` }).click();
    await page.waitForURL(/\/changelog$/);
    await page.getByRole('heading', { level: 1, name: `${site} changelog` }).waitFor();
    const releases = page.getByRole('list', { name: 'Releases' });
    await releases.getByRole('heading', { name: /v2\.0\.0/ }).waitFor();
    await releases.getByText('New pricing page').waitFor();
    const feed = await page.getByRole('link', { name: 'Atom feed' }).getAttribute('href');
    const xml = await page.evaluate(async (href) => (await fetch(href!)).text(), feed);
    expect(xml).toContain('<title>v2.0.0</title>');
    expect(await violations(page, 'changelog')).toEqual([]);
  });

  it('connects by installing the server’s GitHub App on GitHub and coming back, and records a release through the app, until the repository is out of its reach', async () => {
    const notes = `notes-${suffix}`;
    app.github.addRepository(notes);
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
    const installer = await context.newPage();
    await registerThroughForm(installer, uniqueUsername('ghapp'));
    await installer.goto('/integrations');
    await installer.getByRole('button', { name: 'Install the GitHub App' }).click();
    // GitHub's install page, then back to the External API page, which finishes the connection.
    await installer.waitForURL(new RegExp(`/apps/${app.github.app.slug}/installations/new`));
    await installer.getByRole('button', { name: 'Install' }).click();
    await installer.getByTestId('github-connected').getByText('through the GitHub App').waitFor();
    // What GitHub handed back is off the address.
    expect(new URL(installer.url()).search).toBe('');
    await installer.getByRole('button', { name: 'Import repositories' }).click();
    await installer
      .getByTestId('github-repositories')
      .getByRole('checkbox', { name: new RegExp(notes) })
      .click();
    await installer.getByRole('button', { name: 'Import 1 as projects' }).click();
    await installer.getByText('Imported 1 of 1 repositories').first().waitFor();

    // The release reaches the project through the app's one webhook.
    const deliveries = await app.github.publishRelease(`${app.github.login}/${notes}`, 'v0.1.0', '- First notes');
    expect(deliveries.map((d) => JSON.parse(d.body).recorded)).toContain(true);
    await installer.goto('/projects');
    await installer.getByRole('link', { name: notes, exact: true }).click();
    await installer.getByTestId('project-repository').getByTestId('latest-release').getByText('v0.1.0').waitFor();
    // Taken out of the app's reach on GitHub: the card says that nothing from it arrives.
    await app.github.reach(`${app.github.login}/${notes}`, false);
    await installer.reload();
    await installer
      .getByTestId('project-repository')
      .getByText('Shiplog’s GitHub App no longer has access to this repository', { exact: false })
      .waitFor();
    await context.close();
  });
});
