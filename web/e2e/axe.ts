/// <reference lib="dom" />

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core's checks (WCAG 2 A and AA: contrast, names, labels, headings, landmarks, ARIA) on a screen
 * as it is, in the light theme and, for the colour rules, the dark one; and what the page's
 * Content-Security-Policy refused meanwhile. accessibility.e2e.test.ts walks every screen with them;
 * a feature's own browser test may check its screens too.
 */

/** Where the app keeps the theme (web/src/lib/theme.tsx). */
const THEME_STORAGE_KEY = 'shiplog-theme';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Readies a browser context for `violations`: its pages open in the light theme, and note anything
 * their Content-Security-Policy refuses.
 */
export async function watchForViolations(context: BrowserContext): Promise<void> {
  await opensLight(context);
  // Anything the page's Content-Security-Policy refuses, reported with each screen's findings.
  await context.addInitScript(() => {
    const refused: string[] = [];
    (window as unknown as { refused: string[] }).refused = refused;
    document.addEventListener('securitypolicyviolation', (e) =>
      refused.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
}

/** The context's pages open in the light theme, whatever the system's preference. */
export async function opensLight(context: BrowserContext): Promise<void> {
  await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, 'light']);
}

/** What axe finds in `scope`: every rule, or only `rules`. */
function axeRun(page: Page, scope: string, rules?: string[]) {
  return page.evaluate(
    ([selector, only]) =>
      (
        window as unknown as {
          axe: {
            run: (s: string, o: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe.run(selector!, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    [scope, rules] as const,
  );
}

/**
 * Switches the theme's class on the page and finishes at once every colour transition the switch
 * starts (played out, each would have the page drawn again for every frame it lasts: most of what a
 * screen's check cost); answers the page's background then, so a pass that did not change the
 * colours cannot go unnoticed.
 */
async function theme(page: Page, dark: boolean): Promise<string> {
  return page.evaluate((on) => {
    document.documentElement.classList.toggle('dark', on);
    // Styles recomputed now, so the transitions the change starts exist to be finished.
    void getComputedStyle(document.body).backgroundColor;
    for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
    return getComputedStyle(document.body).backgroundColor;
  }, dark);
}

/**
 * `light` on the screen as it is (in the light theme), then `dark` once the dark theme is switched on,
 * and the light theme back: the dark theme changes colours only (the same markup, other CSS variables:
 * web/src/lib/theme.tsx sets one class on <html>), so the screen is checked in both without being
 * drawn twice. A switch that changed no colour would fail here rather than check the light theme twice.
 */
export async function inBothThemes<L, D>(page: Page, light: () => Promise<L>, dark: () => Promise<D>): Promise<[L, D]> {
  const inLight = await light();
  const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await theme(page, true)).not.toBe(lightBackground);
  const inDark = await dark();
  expect(await theme(page, false)).toBe(lightBackground);
  return [inLight, inDark];
}

/**
 * What axe finds on the screen as it is, in the light theme (every rule) and then in the dark one.
 * The dark theme changes colours only (the same markup, other CSS variables: web/src/lib/theme.tsx sets
 * one class on <html>), so there the rules about colour run again, on the same screen, without drawing
 * it a second time.
 */
export async function violations(page: Page, screen: string, scope = 'html'): Promise<string[]> {
  // Evaluated, not added as a script element: the page's Content-Security-Policy would refuse that.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const [light, dark] = await inBothThemes(
    page,
    () => axeRun(page, scope),
    () => axeRun(page, scope, ['color-contrast', 'link-in-text-block']),
  );
  const refused = await page.evaluate(() => (window as unknown as { refused: string[] }).refused.splice(0));
  const named = (where: string, found: typeof light) =>
    found.violations.map((v) => `${where}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  return [
    ...named(screen, light),
    ...named(`${screen} (dark)`, dark),
    ...refused.map((what) => `${screen}: the Content-Security-Policy refused ${what}`),
  ];
}
