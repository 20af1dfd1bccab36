/// <reference lib="dom" />

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2EApp,
  launchBrowser,
  registerThroughForm,
  sharedApp,
  signInThroughForm,
  uniqueUsername,
} from './app.ts';
import { inBothThemes, opensLight } from './axe.ts';

/**
 * Every screen on a phone (390×844), signed in with data on it (three projects, reminders, monitors,
 * three messages from the admin), in the light and the dark theme: nothing is wider than the screen
 * (the page does not scroll sideways, and no element reaches past its edge unless a scrolling box of
 * its own holds it), no two pieces of text are drawn over each other, and the browser's own controls
 * (a date field's picker) are drawn for the theme. Each screen is checked in the light theme, then in
 * the dark one where it is (the theme is one class on <html>, web/src/lib/theme.tsx), not drawn twice.
 */
const PHONE = { width: 390, height: 844 };

let app: E2EApp;
let browser: Browser;
let cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
let adminCookies: Awaited<ReturnType<BrowserContext['cookies']>>;
let projectId: string;
let comments: string[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), launchBrowser()]);
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  await registerThroughForm(page, uniqueUsername('phone'), { email: 'phone-builder@example.com' });
  projectId = await page.evaluate(async () => {
    const post = async (path: string, body: unknown) =>
      (
        await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json() as Promise<{ id: string }>;
    const ids: string[] = [];
    for (const [name, description] of [
      ['Weather API with a rather long name for a phone', 'Forecasts for my town, every hour, from three sources'],
      ['Recipe Box', 'Family recipes, searchable'],
      ['Tiny Analytics', 'Page views without cookies'],
    ] as const) {
      const project = await post('/api/projects', {
        name,
        description,
        status: 'development',
        costEstimate: 1250,
        metadata: { socialLinks: { github: 'https://github.com/example/weather-api-with-a-long-repository-name' } },
      });
      await post(`/api/projects/${project.id}/deployment`, { environment: 'production', version: '1.0.0' });
      await post(`/api/projects/${project.id}/monitors`, { kind: 'backup', intervalSeconds: 86_400 });
      for (let day = 0; day < 2; day++)
        await post('/api/reminders', {
          projectId: project.id,
          title: `Renew the domain of ${name.split(' ')[0]} ${day + 1}`,
          dueDate: new Date(Date.now() + day * 86_400_000 + 3_600_000).toISOString(),
          reminderTimes: ['1_day_before'],
        });
      ids.push(project.id);
    }
    return ids[0]!;
  });
  cookies = await context.cookies();
  await context.close();

  // Three messages from the admin, as every user sees them in the sidebar; taken away in afterAll.
  const adminContext = await browser.newContext({ baseURL: app.url });
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, 'admin', 'admin-e2e-password');
  comments = await admin.evaluate(async () => {
    const ids: string[] = [];
    for (const [message, priority] of [
      ['Maintenance tonight from 22:00 to 23:00 UTC: saving may be slow for a few minutes.', 'urgent'],
      ['New: monitors can now expect your backups on a schedule. Try them on a project page.', 'high'],
      ['Thank you for building with Shiplog!', 'normal'],
    ])
      ids.push(
        (
          (await (
            await fetch('/api/admin/comments', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ message, priority }),
            })
          ).json()) as { id: string }
        ).id,
      );
    return ids;
  });
  adminCookies = await adminContext.cookies();
  await adminContext.close();
});

afterAll(async () => {
  if (comments.length > 0) {
    const context = await browser.newContext({ baseURL: app.url });
    await context.addCookies(adminCookies);
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(
      (ids) => Promise.all(ids.map((id) => fetch(`/api/admin/comments/${id}`, { method: 'DELETE' }))),
      comments,
    );
    await context.close();
  }
  await browser?.close();
});

/**
 * What is wrong with the layout of `scope` as drawn now: an element that reaches past the screen's
 * sides (where no box that clips or scrolls holds it), and text drawn over other text. Runs in the page.
 */
function layoutProblems(scope: string): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);
  const name = (element: Element) => {
    const testId = element.getAttribute('data-testid');
    const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${element.tagName.toLowerCase()}${testId ? ` data-testid=${testId}` : ''}> "${text}"`;
  };
  type Box = { left: number; right: number; top: number; bottom: number };
  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    right: Math.min(a.right, b.right),
    top: Math.max(a.top, b.top),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const empty = (box: Box) => box.right - box.left < 1 || box.bottom - box.top < 1;
  /** What of `element` its clipping or scrolling ancestors let show. */
  const clipOf = (element: Element): Box => {
    let box: Box = { left: -1e6, right: 1e6, top: -1e6, bottom: 1e6 };
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const style = getComputedStyle(parent);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible')
        box = intersect(box, parent.getBoundingClientRect());
    }
    return box;
  };
  const root = document.querySelector(scope)!;
  for (const element of root.querySelectorAll('*')) {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) continue;
    const shown = intersect(rect, clipOf(element));
    if (empty(shown)) continue;
    if (shown.left < -0.5 || shown.right > width + 0.5)
      problems.push(`${name(element)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} px`);
  }
  // Each line of text as drawn, with what its element is called.
  const lines: { box: Box; node: Text }[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const parent = node.parentElement;
    if (!parent || !node.data.trim()) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const clip = clipOf(node as unknown as Element);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      const box = intersect(rect, clip);
      if (box.right - box.left > 2 && box.bottom - box.top > 2) lines.push({ box, node });
    }
  }
  for (let i = 0; i < lines.length; i++)
    for (let j = i + 1; j < lines.length; j++) {
      const [a, b] = [lines[i]!, lines[j]!];
      if (a.node === b.node) continue;
      const overlap = intersect(a.box, b.box);
      const shorter = Math.min(a.box.bottom - a.box.top, b.box.bottom - b.box.top);
      // Lines set tight may touch by a pixel or two; text over text covers much of a line's height.
      if (overlap.right - overlap.left > 2 && overlap.bottom - overlap.top > shorter * 0.4)
        problems.push(`"${a.node.data.trim().slice(0, 30)}" is drawn over "${b.node.data.trim().slice(0, 30)}"`);
    }
  return problems;
}

async function open(signedIn = cookies) {
  const context = await browser.newContext({ baseURL: app.url, viewport: PHONE, isMobile: true, hasTouch: true });
  await opensLight(context);
  await context.addCookies(signedIn);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return { page, close: () => context.close() };
}

/**
 * The problems on `page` as it is now, named by `screen`; and the theme's colour scheme, by which the
 * browser draws its own parts (a date field's picker icon, scroll bars) light or dark.
 */
async function checkTheme(page: Page, screen: string, scope: string) {
  const scheme = await page.evaluate(() => [
    document.documentElement.classList.contains('dark') ? 'dark' : 'light',
    getComputedStyle(document.documentElement).colorScheme,
  ]);
  const drawn =
    scheme[0] === scheme[1] ? [] : [`${screen}: the browser draws its controls ${scheme[1]} in the ${scheme[0]} theme`];
  // Nothing still moving in (a sheet sliding, a colour changing); a spinner turns for ever.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState === 'finished' || a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY),
  );
  return [...drawn, ...(await page.evaluate(layoutProblems, scope)).map((problem) => `${screen}: ${problem}`)];
}

/** The problems on `page` as it is now in the light theme, then in the dark one (named so). */
async function check(page: Page, screen: string, scope = 'body') {
  const [light, dark] = await inBothThemes(
    page,
    () => checkTheme(page, screen, scope),
    () => checkTheme(page, `${screen} (dark)`, scope),
  );
  return [...light, ...dark];
}

describe('on a phone', () => {
  it('fits every screen in the width, text clear of text, in the light and the dark theme', async () => {
    const { page, close } = await open();
    const found: string[] = [];
    const visit = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(path);
      await ready();
      found.push(...(await check(page, path)));
    };
    await visit('/', () => page.getByText('Renew the domain of Recipe 1').waitFor());
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByTestId('admin-messages').waitFor();
    found.push(...(await check(page, 'the menu', '[role=dialog]')));
    // Every entry of the menu in view and uncovered, the admin's messages below them.
    for (const link of await menu.getByRole('navigation').getByRole('link').all())
      if (
        !(await link.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }))
      )
        found.push(`the menu: ${await link.textContent()} is out of view`);
    await page.keyboard.press('Escape');
    await visit('/projects', () => page.getByText('Showing 3 project(s)').waitFor());
    await visit('/new-project', () => page.getByRole('heading', { name: 'Create a New Project' }).waitFor());
    await visit(`/projects/${projectId}`, () =>
      page.getByTestId('project-reminders').getByText('Renew the domain of Weather 1').waitFor(),
    );
    await visit(`/projects/edit/${projectId}`, () => page.getByRole('button', { name: 'Update Project' }).waitFor());
    await visit('/activities', () => page.getByText('Recipe Box').first().waitFor());
    await visit('/reminders', () => page.getByText('Renew the domain of Tiny 2').waitFor());
    await visit('/settings', () => page.getByText('Account information').first().waitFor());
    for (const [tab, ready] of [
      ['Notifications', 'Add channel'],
      ['Privacy', 'Privacy'],
      ['Sessions', 'This device'],
      ['API Tokens', 'Create token'],
      ['Export', 'Calendar feed'],
      ['Admin Messages', 'Maintenance tonight'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click({ trial: false });
      await page.getByRole('tabpanel').getByText(ready).first().waitFor();
      found.push(...(await check(page, `/settings ${tab}`)));
    }
    await visit('/profile', () => page.getByRole('tab', { name: 'Edit Profile' }).waitFor());
    await visit('/subscription', () => page.getByText('Trial - 30 days remaining').waitFor());
    await visit('/chat', () => page.getByLabel('Chat message').waitFor());
    await visit('/integrations', () => page.getByText('No integrations configured yet.').waitFor());
    await visit('/api-reference', () => page.getByText('/api/projects/{id}').first().waitFor());
    await visit('/replit', () => page.getByRole('heading', { name: 'Coming Soon' }).waitFor());
    await visit('/no-such-page', () => page.getByText('Page Not Found').waitFor());
    await close();

    // The administrator's screen, with the users and the messages.
    const admin = await open(adminCookies);
    await admin.page.goto('/admin');
    await admin.page.getByTestId('admin-user-row').first().waitFor();
    await admin.page.getByTestId('admin-comment').first().waitFor();
    found.push(...(await check(admin.page, '/admin')));
    await admin.close();
    expect(found).toEqual([]);
  });
});
