/// <reference lib="dom" />

import { cookiesFrom } from '@shiplog/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';
import { violations, watchForViolations } from './axe.ts';

/**
 * A workspace's projects in the browser: Ada makes a workspace and a project in it from the project
 * form; Bob, invited as a viewer, reads it, is offered nothing that changes it, and finds it with the
 * space filter. Until Ada has a workspace, nothing of spaces shows.
 */
let app: E2EApp;
let browser: Browser;
let ada: Page;
let bob: Page;
const adaName = uniqueUsername('ada');
const bobName = uniqueUsername('bob');
const workspaceName = `Crew ${Date.now().toString(36)}`;
let workspaceId: string;
const VIEWER_NOTE = 'You can view this team project; ask an owner or admin to change it.';

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  await watchForViolations(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

/** Makes a personal project through the API, as the page's user. */
const personalProject = (page: Page, name: string) =>
  page.evaluate(async (projectName) => {
    const response = await fetch('/api/projects', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: projectName }),
    });
    if (response.status !== 201) throw new Error(`project: ${response.status}`);
  }, name);

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
const card = (page: Page, name: string) =>
  page.getByTestId('project-card').filter({ has: page.getByRole('link', { name, exact: true }) });
const cardNames = (page: Page) =>
  page.getByTestId('project-card').evaluateAll((cards) => cards.map((c) => c.querySelector('a')?.textContent));

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  [ada, bob] = await Promise.all([newPage(), newPage()]);
  await registerThroughForm(ada, adaName);
  await registerThroughForm(bob, bobName);
  await personalProject(ada, 'Ada Solo');
  await personalProject(bob, 'Bob Solo');
});
afterAll(async () => {
  await browser?.close();
});

describe('team projects in the browser', () => {
  it('shows nothing of spaces to an account without a workspace', async () => {
    await ada.goto('/projects');
    await card(ada, 'Ada Solo').waitFor();
    expect(await ada.getByLabel('Filter by space').count()).toBe(0);
    await ada.goto('/');
    await card(ada, 'Ada Solo').waitFor();
    expect(await ada.getByLabel('Filter by space').count()).toBe(0);
    expect(await card(ada, 'Ada Solo').getByTestId('workspace-badge').count()).toBe(0);
    await ada.goto('/new-project');
    await ada.getByLabel('Project name').waitFor();
    expect(await ada.getByLabel('Space', { exact: true }).count()).toBe(0);
  });

  it('makes a project in a workspace from the form; its viewer reads it, changes nothing, and filters by space', async () => {
    // Ada makes the workspace and invites Bob as a viewer; he accepts (the pages that do it are
    // workspaces.e2e.test.ts's: here, the API as those pages call it).
    workspaceId = await ada.evaluate(
      async ([name, invitee]) => {
        const post = (path: string, body?: unknown) =>
          fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body ?? {}),
          });
        const workspace = (await (await post('/api/workspaces', { name })).json()) as { id: string };
        const invite = await post(`/api/workspaces/${workspace.id}/invites`, { username: invitee, role: 'viewer' });
        if (invite.status !== 201) throw new Error(`invite: ${invite.status}`);
        return workspace.id;
      },
      [workspaceName, bobName] as const,
    );
    await bob.evaluate(async () => {
      for (let tries = 0; tries < 100; tries++) {
        const [invite] = (await (await fetch('/api/invites')).json()) as { id: string }[];
        if (invite) {
          const accepted = await fetch(`/api/invites/${invite.id}/accept`, { method: 'POST' });
          if (accepted.status !== 200) throw new Error(`accept: ${accepted.status}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('no invite reached Bob');
    });

    // The form offers Ada's workspace, Personal first; she chooses it.
    await ada.goto('/projects');
    await ada.getByRole('link', { name: 'New Project' }).first().click();
    await ada.waitForURL(/\/new-project$/);
    const space = ada.getByLabel('Space', { exact: true });
    await space.getByRole('option', { name: workspaceName }).waitFor({ state: 'attached' });
    expect(await space.inputValue()).toBe('');
    expect(await space.locator('option').allTextContents()).toEqual(['Personal', workspaceName]);
    await space.selectOption({ label: workspaceName });
    await ada.getByLabel('Project name').fill('Team Rocket');
    await ada.getByRole('button', { name: 'Create Project' }).click();
    await ada.waitForURL(/\/projects$/);
    await toast(ada, 'Project created successfully!');
    await expect
      .poll(() => card(ada, 'Team Rocket').getByTestId('workspace-badge').textContent())
      .toBe(`Workspace: ${workspaceName}`);
    // A reminder and an expected backup on it, which Bob will read and not change. Each sent once more
    // a second later if the server was still applying the project, as the app does (lib/api.ts).
    await ada.evaluate(async () => {
      const post = async (path: string, body: unknown): Promise<Response> => {
        const send = () =>
          fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const answer = await send();
        if (answer.status !== 503 || (await answer.clone().json()).code !== 'CATCHING_UP') return answer;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return send();
      };
      const projects = (await (await fetch('/api/projects')).json()) as { id: string; name: string }[];
      const project = projects.find((p) => p.name === 'Team Rocket')!;
      const made = await Promise.all([
        post('/api/reminders', {
          projectId: project.id,
          title: 'Renew the crew domain',
          dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
          reminderTimes: ['1_day_before'],
        }),
        post(`/api/projects/${project.id}/monitors`, { kind: 'backup', intervalSeconds: 86_400 }),
      ]);
      const refused = made.filter((response) => response.status !== 201);
      if (refused.length > 0)
        throw new Error(
          `reminder or monitor not made: ${(await Promise.all(refused.map(async (r) => `${r.status} ${await r.text()}`))).join('; ')}`,
        );
    });
    // Its owner changes it: no Viewer badge, and Quick Update is there.
    expect(await card(ada, 'Team Rocket').getByText('Viewer', { exact: true }).count()).toBe(0);
    expect(await card(ada, 'Team Rocket').getByRole('button', { name: 'Quick Update' }).count()).toBe(1);
    // From the list filtered to the workspace, a new project starts there.
    await ada.goto(`/projects?space=${workspaceId}`);
    await card(ada, 'Team Rocket').waitFor();
    expect(await card(ada, 'Ada Solo').count()).toBe(0);
    await ada.getByRole('link', { name: 'New Project' }).first().click();
    await ada.waitForURL(/\/new-project$/);
    await expect.poll(() => ada.getByLabel('Space', { exact: true }).inputValue()).toBe(workspaceId);
    // The edit page says its space (and offers a move: the last test moves one).
    await ada.goto('/projects');
    await card(ada, 'Team Rocket').getByRole('link', { name: 'Team Rocket' }).click();
    await ada.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => ada.getByTestId('project-space').textContent()).toContain(workspaceName);
    expect(await ada.getByLabel('Space', { exact: true }).count()).toBe(0);

    // Bob sees it among his projects: a viewer, offered nothing that changes it.
    await bob.goto('/projects');
    const team = card(bob, 'Team Rocket');
    await team.waitFor();
    await team.getByText('Viewer', { exact: true }).waitFor();
    await expect.poll(() => team.getByTestId('workspace-badge').textContent()).toBe(`Workspace: ${workspaceName}`);
    await team.getByText(VIEWER_NOTE).waitFor();
    expect(await team.getByRole('button', { name: 'Quick Update' }).count()).toBe(0);
    expect(await team.getByRole('checkbox', { name: 'Select Team Rocket' }).count()).toBe(0);
    expect(await team.getByRole('checkbox', { name: 'Database added' }).isDisabled()).toBe(true);
    // His own project is his to change.
    expect(await card(bob, 'Bob Solo').getByText('Viewer', { exact: true }).count()).toBe(0);
    await card(bob, 'Bob Solo').getByRole('button', { name: 'Quick Update' }).waitFor();
    const found = await violations(bob, 'projects (a viewer)');
    await team.getByRole('button', { name: 'Actions for Team Rocket' }).click();
    await bob.getByRole('menuitem', { name: 'View Details' }).waitFor();
    expect((await bob.getByRole('menuitem').allTextContents()).map((item) => item.trim())).toEqual(['View Details']);
    await bob.keyboard.press('Escape');

    // The space filter: the workspace holds only the team's project, Personal only his own.
    const filter = bob.getByLabel('Filter by space');
    expect(await filter.locator('option').allTextContents()).toEqual(['All spaces', 'Personal', workspaceName]);
    await filter.selectOption({ label: workspaceName });
    await bob.waitForURL((url) => url.pathname === '/projects' && url.searchParams.get('space') === workspaceId);
    await expect.poll(() => cardNames(bob)).toEqual(['Team Rocket']);
    await filter.selectOption({ label: 'Personal' });
    await bob.waitForURL((url) => url.pathname === '/projects' && url.searchParams.get('space') === 'personal');
    await expect.poll(() => cardNames(bob)).toEqual(['Bob Solo']);
    // Kept in the address: a reload shows the same.
    await bob.reload();
    await card(bob, 'Bob Solo').waitFor();
    expect(await cardNames(bob)).toEqual(['Bob Solo']);
    expect(await bob.getByLabel('Filter by space').inputValue()).toBe('personal');

    // The dashboard filters what it lists the same way.
    await bob.goto(`/?space=${workspaceId}`);
    await card(bob, 'Team Rocket').getByText('Viewer', { exact: true }).waitFor();
    expect(await cardNames(bob)).toEqual(['Team Rocket']);
    expect(await bob.getByLabel('Filter by space').inputValue()).toBe(workspaceId);
    await bob.getByLabel('Filter by space').selectOption({ label: 'All spaces' });
    await expect.poll(async () => (await cardNames(bob)).sort()).toEqual(['Bob Solo', 'Team Rocket']);

    // The command palette switches the space.
    await bob.keyboard.press('Control+k');
    const palette = bob.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: `Switch space: ${workspaceName}` }).click();
    await bob.waitForURL((url) => url.pathname === '/' && url.searchParams.get('space') === workspaceId);
    await expect.poll(() => cardNames(bob)).toEqual(['Team Rocket']);

    // Its page: read, with nothing offered that would change it.
    await card(bob, 'Team Rocket').getByRole('link', { name: 'Team Rocket' }).click();
    await bob.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    await bob.getByTestId('viewer-note').getByText(VIEWER_NOTE).waitFor();
    // Its timeline says who did what: Ada made it.
    await bob.getByTestId('activity-card').filter({ hasText: 'Created project' }).getByText(`by ${adaName}`).waitFor();
    await bob.getByTestId('project-reminders').getByText('Renew the crew domain').waitFor();
    await bob.getByTestId('monitor').waitFor();
    expect(await bob.getByTestId('reminder-item').getByRole('button').count()).toBe(0);
    expect(
      await bob
        .getByTestId('monitor')
        .getByRole('button', { name: /^(Pause|Remove|Edit) / })
        .count(),
    ).toBe(0);
    for (const control of ['Edit', 'Delete'])
      expect(await bob.getByRole('link', { name: control, exact: true }).count()).toBe(0);
    for (const control of [
      'Delete',
      'Add Reminder',
      'Add monitor',
      'Record Backup',
      'Record Deployment',
      'Record Version',
      'Create webhook URL',
      'Create ping URL',
    ])
      expect(await bob.getByRole('button', { name: control, exact: true }).count(), control).toBe(0);
    expect(await bob.getByRole('checkbox', { name: 'Has tests' }).isDisabled()).toBe(true);
    found.push(...(await violations(bob, 'project page (a viewer)')));

    // All Reminders lists it, with nothing offered on it either.
    await bob.goto('/reminders');
    const reminder = bob.getByTestId('reminder-item').filter({ hasText: 'Renew the crew domain' });
    await reminder.getByText('Team Rocket').waitFor();
    expect(await reminder.getByRole('button').count()).toBe(0);
    expect(found).toEqual([]);
  });

  it('gives a team reminder to another member from the form: it is in their bell, not its author’s', async () => {
    const bobId = await bob.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: string }).id);
    // Bob becomes a member: one who may be given a reminder (a viewer may not).
    const promoted = await ada.evaluate(
      async ([workspace, member]) =>
        (
          await fetch(`/api/workspaces/${workspace}/members/${member}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ role: 'member' }),
          })
        ).status,
      [workspaceId, bobId] as const,
    );
    expect(promoted).toBe(200);
    await ada.goto(`/projects?space=${workspaceId}`);
    await card(ada, 'Team Rocket').getByRole('link', { name: 'Team Rocket' }).click();
    await ada.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    await ada.getByRole('button', { name: 'Add Reminder' }).click();
    const dialog = ada.getByRole('dialog');
    const assignee = dialog.getByLabel('Assigned to');
    await expect.poll(() => assignee.locator('option').allTextContents()).toEqual([`${adaName} (you)`, bobName]);
    await dialog.getByLabel('Title', { exact: true }).fill('Rotate the API keys');
    await dialog
      .getByLabel('Due date', { exact: true })
      .fill(new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('sv-SE'));
    await assignee.selectOption({ label: bobName });
    await dialog.getByRole('button', { name: 'Add Reminder' }).click();
    await ada
      .getByTestId('project-reminders')
      .getByTestId('reminder-item')
      .filter({ hasText: 'Rotate the API keys' })
      .getByText(`Assigned to ${bobName}`)
      .waitFor();

    // Bob's bell holds it (the crew's other reminder is Ada's own); Ada's does not.
    await bob.goto('/reminders');
    await bob
      .getByTestId('reminder-item')
      .filter({ hasText: 'Rotate the API keys' })
      .getByText('Assigned to you')
      .waitFor();
    await expect.poll(() => bob.getByTestId('bell-count').textContent()).toBe('1');
    await bob.getByRole('button', { name: 'Notifications (1)' }).click();
    await bob.getByRole('dialog').getByText('Rotate the API keys').waitFor();
    await bob.keyboard.press('Escape');
    await ada.getByRole('button', { name: /^Notifications/ }).click();
    await ada.getByRole('dialog').getByText('Renew the crew domain').waitFor();
    expect(await ada.getByRole('dialog').getByText('Rotate the API keys').count()).toBe(0);
    await ada.keyboard.press('Escape');

    // Ada still has the project open: Bob, opening it, sees her there; once he has left, she is alone.
    const projectUrl = new URL(ada.url()).pathname;
    const presencePath = `/api/projects${projectUrl.replace(/^\/projects/, '')}/presence`;
    // His visit in the test before ended with a page load, which says nothing (a closed tab's presence
    // lasts its 45 s): said here, so only this visit counts.
    await bob.evaluate((path) => fetch(path, { method: 'DELETE' }), presencePath);
    await bob.goto(projectUrl);
    await bob.getByTestId('present-members').getByText(`Also here: ${adaName}`).waitFor();
    await bob.getByRole('link', { name: 'Dashboard' }).first().click();
    await bob.waitForURL(new URL('/', app.url).href);
    // His page said it was left as it went.
    await expect
      .poll(() =>
        ada.evaluate(
          async (path) => ((await (await fetch(path, { method: 'POST' })).json()) as unknown[]).length,
          presencePath,
        ),
      )
      .toBe(0);
    await ada.reload();
    await ada.getByRole('heading', { level: 2, name: 'Team Rocket' }).waitFor();
    await expect.poll(() => ada.getByTestId('present-members').count()).toBe(0);
  });

  it('moves a personal project into the workspace from its edit page, after saying who will see it', async () => {
    await ada.goto('/projects');
    await card(ada, 'Ada Solo').getByRole('link', { name: 'Ada Solo' }).click();
    await ada.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => ada.getByTestId('project-space').textContent()).toContain('your personal space');
    const moveTo = ada.getByLabel('Move to');
    expect(await moveTo.locator('option').allTextContents()).toEqual(['Choose a space…', workspaceName]);
    await moveTo.selectOption({ label: workspaceName });
    await ada.getByRole('button', { name: 'Move', exact: true }).click();
    const confirm = ada.getByRole('alertdialog', { name: 'Move Ada Solo?' });
    await confirm.getByText(`The members of ${workspaceName} will see it`).waitFor();
    const found = await violations(ada, 'move a project');
    await confirm.getByRole('button', { name: 'Move', exact: true }).click();
    await toast(ada, 'Project moved');
    await expect.poll(() => ada.getByTestId('project-space').textContent()).toContain(workspaceName);
    // Now the team's: Bob, a member, finds it with the workspace's badge, and its timeline says so.
    await bob.goto(`/projects?space=${workspaceId}`);
    await expect
      .poll(() => card(bob, 'Ada Solo').getByTestId('workspace-badge').textContent(), { timeout: 15_000 })
      .toBe(`Workspace: ${workspaceName}`);
    await card(bob, 'Ada Solo').getByRole('link', { name: 'Ada Solo' }).click();
    await bob.getByTestId('activity-card').filter({ hasText: 'Moved to a team workspace' }).waitFor();
    expect(found).toEqual([]);
  });

  it('says why, with the server’s words, when the workspace is read-only for want of an owner’s plan', async () => {
    const login = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-e2e-password' }),
    });
    const adaId = await ada.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: string }).id);
    const lapsed = await fetch(`${app.url}/api/admin/users/${adaId}/subscription`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: cookiesFrom(login) },
      body: JSON.stringify({ subscriptionStatus: 'canceled' }),
    });
    expect(lapsed.status).toBe(200);
    await ada.goto(`/projects?space=${workspaceId}`);
    const box = card(ada, 'Team Rocket').getByRole('checkbox', { name: 'Database added' });
    await box.click();
    await ada
      .getByRole('region', { name: /Notifications/ })
      .getByText(/^Failed to update project: 403: This workspace is read-only/)
      .waitFor();
    // Nothing changed: the tick is taken back.
    await expect.poll(() => box.getAttribute('aria-checked')).toBe('false');
    // The workspace's page says why before anyone tries, and its owner where to fix it.
    await ada.goto(`/workspaces/${workspaceId}`);
    const readOnly = ada.getByTestId('workspace-read-only');
    await readOnly.getByText(/^This workspace is read-only: none of its owners has a trial or subscription/).waitFor();
    await readOnly.getByRole('link', { name: 'Choose a plan' }).waitFor();
  });
});
