/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EApp, launchBrowser, registerThroughForm, sharedApp, uniqueUsername } from './app.ts';
import { violations, watchForViolations } from './axe.ts';

let app: E2EApp;
let browser: Browser;
/** Ada makes the workspace and invites; Bob is invited by username; Carol by email, signed out at first. */
let ada: Page;
let bob: Page;
const adaName = uniqueUsername('ada');
const bobName = uniqueUsername('bob');
const workspaceName = `Acme ${Date.now().toString(36)}`;
let workspaceUrl: string;

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 900 } });
  // axe's checks on the way (axe.ts): the light theme, and what the Content-Security-Policy refuses.
  await watchForViolations(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return { context, page };
}

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  [{ page: ada }, { page: bob }] = await Promise.all([newPage(), newPage()]);
  await registerThroughForm(ada, adaName);
  await registerThroughForm(bob, bobName);
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
const memberRow = (page: Page, username: string) => page.getByTestId('member-row').filter({ hasText: username });

describe('team workspaces in the browser', () => {
  it('creates a workspace from the sidebar’s page, and invites by username: the invited see it, accept, and leave', async () => {
    // The page is in the sidebar, and in the command palette.
    await ada.goto('/');
    await ada.locator('button[aria-keyshortcuts]').waitFor();
    await ada.keyboard.press('Control+k');
    await ada
      .getByRole('dialog', { name: 'Command palette' })
      .getByRole('option', { name: 'Team workspaces' })
      .waitFor();
    await ada.keyboard.press('Escape');
    await ada.getByTestId('desktop-sidebar').getByRole('link', { name: 'Team workspaces' }).click();
    await ada.waitForURL(/\/workspaces$/);
    await expect.poll(() => ada.getByRole('heading', { level: 1 }).textContent()).toBe('Team workspaces');
    await ada.getByText('You are not in any workspace yet.').waitFor();
    // A name is required.
    await ada.getByRole('button', { name: 'Create workspace' }).click();
    await ada.getByText('Workspace name is required').waitFor();
    await ada.getByLabel('New workspace name').fill(workspaceName);
    await ada.getByRole('button', { name: 'Create workspace' }).click();
    await ada.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
    workspaceUrl = new URL(ada.url()).pathname;
    await toast(ada, 'Workspace created');
    // The header names it, and the page says the user's role.
    await expect.poll(() => ada.getByRole('heading', { level: 1 }).textContent()).toBe(workspaceName);
    await ada.getByRole('heading', { level: 2, name: workspaceName }).waitFor();
    await expect
      .poll(() => ada.getByTestId('your-role').textContent())
      .toMatch(/^You are an owner of this workspace, with 1 member\. Owners can do everything/);
    // The only owner cannot leave, nor change their own role: neither is offered.
    expect(await memberRow(ada, adaName).getByRole('button', { name: 'Leave' }).count()).toBe(0);
    expect(await memberRow(ada, adaName).getByRole('combobox').count()).toBe(0);

    // Invites by username: a name nobody has is refused under the field.
    await ada.getByRole('textbox', { name: 'Username' }).fill(`${bobName}-nobody`);
    await ada.getByRole('button', { name: 'Send invite' }).click();
    await ada.getByText('No account has that username').waitFor();
    expect(await ada.getByRole('textbox', { name: 'Username' }).getAttribute('aria-invalid')).toBe('true');
    await ada.getByRole('textbox', { name: 'Username' }).fill(bobName);
    await ada.getByRole('button', { name: 'Send invite' }).click();
    await toast(ada, 'Invite sent');
    const pending = ada.getByTestId('pending-invite').filter({ hasText: bobName });
    await pending.getByText(`As member · Invited by ${adaName}`).waitFor();
    // The same again is refused: one invite waits already.
    await ada.getByRole('textbox', { name: 'Username' }).fill(bobName);
    await ada.getByRole('button', { name: 'Send invite' }).click();
    await ada.getByText('An invite to them is already waiting: revoke it to send another').waitFor();
    const found = await violations(ada, 'workspace (owner)');

    // Bob sees it on his Team workspaces page, and accepts.
    await bob.goto('/workspaces');
    const invites = bob.getByTestId('received-invites');
    await invites.getByText(workspaceName).waitFor();
    await invites.getByText(`${adaName} invited you as member`).waitFor();
    found.push(...(await violations(bob, 'workspaces with an invite')));
    await invites.getByRole('button', { name: `Accept the invite to ${workspaceName}` }).click();
    await toast(bob, 'Invite accepted');
    await invites.waitFor({ state: 'detached' });
    const listed = bob.getByRole('list', { name: 'Your workspaces' }).getByRole('listitem');
    await listed.getByText('2 members').waitFor();
    expect(await listed.getByText('Member', { exact: true }).isVisible()).toBe(true);

    // Ada sees him among the members, and makes him a viewer.
    await ada.reload();
    await memberRow(ada, bobName).waitFor();
    expect(await ada.getByTestId('pending-invite').count()).toBe(0);
    await ada.getByLabel(`Role of ${bobName}`, { exact: true }).selectOption('viewer');
    await ada.getByRole('button', { name: `Save role of ${bobName}` }).click();
    await toast(ada, 'Role changed');
    await ada.getByText(`${bobName} is now a viewer.`, { exact: true }).waitFor();
    expect(await ada.getByLabel(`Role of ${bobName}`, { exact: true }).inputValue()).toBe('viewer');

    // Bob, a viewer: his role said, nothing offered he cannot do, and he leaves.
    await listed.getByRole('link', { name: workspaceName }).click();
    await bob.waitForURL(`**${workspaceUrl}`);
    await expect.poll(() => bob.getByTestId('your-role').textContent()).toMatch(/^You are a viewer of this workspace/);
    await memberRow(bob, adaName).waitFor();
    expect(await bob.getByRole('combobox').count()).toBe(0);
    for (const control of ['Rename', 'Send invite', 'Delete workspace'])
      expect(await bob.getByRole('button', { name: control }).count()).toBe(0);
    // Nor the audit log: it is the owners' and admins'.
    expect(await bob.getByText('Audit log').count()).toBe(0);
    // His own alert emails are his to turn off.
    const mail = bob.getByRole('switch', { name: 'Email me this workspace’s alerts' });
    await expect.poll(() => mail.getAttribute('aria-checked')).toBe('true');
    await mail.click();
    await toast(bob, 'Alert emails off');
    expect(await mail.getAttribute('aria-checked')).toBe('false');
    expect(await memberRow(bob, adaName).getByRole('button').count()).toBe(0);
    found.push(...(await violations(bob, 'workspace (viewer)')));
    await memberRow(bob, bobName).getByRole('button', { name: 'Leave' }).click();
    const leave = bob.getByRole('alertdialog', { name: 'Leave this workspace?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Leave workspace' }).click();
    await bob.waitForURL(/\/workspaces$/);
    await toast(bob, 'You left the workspace');
    await bob.getByText('You are not in any workspace yet.').waitFor();

    await ada.reload();
    await memberRow(ada, adaName).waitFor();
    expect(await ada.getByTestId('member-row').count()).toBe(1);

    // The audit log says who did all this, newest first; by kind, and exported.
    const log = ada.getByTestId('audit-log');
    await log.getByText(`${bobName} left`).waitFor();
    await expect
      .poll(() => ada.getByTestId('audit-entry').allTextContents())
      .toEqual([
        expect.stringMatching(new RegExp(`^${bobName} left`)),
        expect.stringMatching(new RegExp(`^${adaName} changed the role of ${bobName} \\(viewer\\)`)),
        expect.stringMatching(new RegExp(`^${bobName} joined \\(member\\)`)),
        expect.stringMatching(new RegExp(`^${adaName} invited ${bobName} \\(member\\)`)),
        expect.stringMatching(new RegExp(`^${adaName} created the workspace ${workspaceName}`)),
      ]);
    expect(await log.getByText(/ · from /).count()).toBe(5);
    await ada.getByLabel('Kind').selectOption('member.joined');
    await expect.poll(() => ada.getByTestId('audit-entry').count()).toBe(1);
    const download = ada.waitForEvent('download');
    await ada.getByRole('link', { name: 'CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^shiplog-audit-[0-9a-f-]{36}\.csv$/);
    found.push(...(await violations(ada, 'workspace audit log')));
    expect(found).toEqual([]);
  });

  it('invites by email: the link is shown once, previews signed out, and is accepted once the address is proven', async () => {
    const carolName = uniqueUsername('carol');
    const address = `${carolName}@example.com`;
    await ada.goto(workspaceUrl);
    await ada.getByRole('radio', { name: 'Email address' }).check();
    await ada.getByRole('textbox', { name: 'Email address' }).fill('not an address');
    await ada.getByRole('button', { name: 'Send invite' }).click();
    await ada.getByText('Invalid email address').waitFor();
    await ada.getByRole('textbox', { name: 'Email address' }).fill(address);
    await ada.getByRole('button', { name: 'Send invite' }).click();
    const made = ada.getByTestId('invite-link');
    await made.getByText(`We also emailed it to ${address}.`).waitFor();
    const url = await made.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(url).toMatch(new RegExp(`^${app.url}/invite/[0-9a-f-]{36}#[\\w-]{64}$`));
    const invitePath = new URL(url).pathname;
    await ada.getByTestId('pending-invite').filter({ hasText: '…@example.com' }).waitFor();

    // Signed out, the link says what it is for.
    const { context, page: carol } = await newPage();
    await carol.goto(url);
    await expect
      .poll(() => carol.getByTestId('invite-summary').textContent())
      .toBe(`${adaName} invited you to ${workspaceName} as member.`);
    // The secret is gone from the address bar and the history.
    expect(new URL(carol.url()).hash).toBe('');
    await carol.getByRole('link', { name: 'Sign in' }).waitFor();
    const found = await violations(carol, 'invite (signed out)');

    // Create account: the Register tab, and back here after.
    await carol.getByRole('link', { name: 'Create account' }).click();
    await carol.waitForURL(/\/auth\?/);
    expect(await carol.getByRole('tab', { name: 'Register' }).getAttribute('aria-selected')).toBe('true');
    await carol.getByLabel('Username').fill(carolName);
    await carol.getByLabel('Email (optional)').fill(address);
    await carol.getByLabel('Password', { exact: true }).fill('secret-pass-1');
    await carol.getByLabel('Confirm password').fill('secret-pass-1');
    await carol.getByRole('button', { name: 'Register' }).click();
    await carol.waitForURL(`**${invitePath}`);
    await carol.getByText(`Signed in as ${carolName}.`).waitFor();
    found.push(...(await violations(carol, 'invite (signed in)')));

    // The address is not proven yet: the page says so, and how.
    await carol.getByRole('button', { name: 'Accept' }).click();
    await carol
      .getByRole('alert')
      .getByText(/only an account that has proven the address it was sent to/)
      .waitFor();
    let link: string | undefined;
    await expect
      .poll(() => {
        const mail = app.smtp.received.find((m) => m.to.includes(address) && m.raw.includes('verify-email'));
        link = mail && /http:\/\/localhost:\d+\/verify-email#[\w-]{64}/.exec(mail.raw)?.[0];
        return link;
      })
      .toBeTruthy();
    await carol.goto(link!);
    await carol.getByRole('heading', { name: 'Email address verified' }).waitFor();
    // Back at the invite (this tab kept the link's secret), it is accepted.
    await carol.goto(invitePath);
    await carol.getByTestId('invite-summary').waitFor();
    await carol.getByRole('button', { name: 'Accept' }).click();
    await carol.waitForURL(`**${workspaceUrl}`);
    await expect
      .poll(() => carol.getByTestId('your-role').textContent())
      .toMatch(/^You are a member of this workspace/);

    // Used, the link no longer works.
    const { context: stranger, page: other } = await newPage();
    await other.goto(url);
    await other.getByRole('heading', { name: 'This invite link does not work' }).waitFor();
    found.push(...(await violations(other, 'invite (used)')));
    expect(found).toEqual([]);
    await Promise.all([context.close(), stranger.close()]);
  });

  it('gives the team a status page at the address an admin chooses, readable signed out', async () => {
    await ada.goto(workspaceUrl);
    const slug = `crew-${Date.now().toString(36)}`;
    await ada.getByLabel('Address (slug)').fill('Not A Slug');
    await ada.getByRole('button', { name: 'Save address' }).click();
    await ada.getByText('Slug must be 3–40 lower-case letters, digits or hyphens', { exact: false }).waitFor();
    await ada.getByLabel('Address (slug)').fill(slug);
    await ada.getByRole('button', { name: 'Save address' }).click();
    await toast(ada, 'Status page address saved');
    await ada.getByRole('link', { name: `/w/${slug}/status` }).click();
    await ada.waitForURL(`**/w/${slug}/status`);
    await ada.getByRole('heading', { name: `Status of ${workspaceName}` }).waitFor();
    await ada.getByText('Nothing is monitored on a public project yet.').waitFor();
    // Signed out too.
    const context = await browser.newContext({ baseURL: app.url });
    try {
      const visitor = await context.newPage();
      await visitor.goto(`/w/${slug}/status`);
      await visitor.getByRole('heading', { name: `Status of ${workspaceName}` }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('deletes the workspace once its name is typed', async () => {
    await ada.goto(workspaceUrl);
    await ada.getByRole('button', { name: 'Delete workspace' }).click();
    const dialog = ada.getByRole('alertdialog', { name: `Delete “${workspaceName}”?` });
    await dialog.waitFor();
    const field = dialog.getByLabel(`Type ${workspaceName} to confirm`);
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    const confirm = dialog.getByRole('button', { name: 'Delete workspace' });
    expect(await confirm.isDisabled()).toBe(true);
    const found = await violations(ada, 'delete workspace', '[role=alertdialog]');
    await field.fill('Acme');
    expect(await confirm.isDisabled()).toBe(true);
    await field.fill(workspaceName);
    await ada.keyboard.press('Enter');
    await ada.waitForURL(/\/workspaces$/);
    await toast(ada, 'Workspace deleted');
    await ada.getByText('You are not in any workspace yet.').waitFor();
    expect(found).toEqual([]);
  });
});
