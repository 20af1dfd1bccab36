/**
 * The web app's first load: the script, style and font bytes each route transfers in
 * Chromium on a cold cache, gzipped, until the network is idle, beside the same figure read from the built files (Vite's manifest: the
 * entry's and the route's page chunk's static imports, gzipped); and the time to a usable dashboard
 * (6 projects, 5 reminders, 3 activities) with the CPU throttled 4×: largest contentful paint and the
 * time until the project cards answer input, median of 5 cold loads, with the API calls it made; and
 * its LCP as a fast computer sees it over a network (the CPU unthrottled, each request 50 ms away).
 * Then the frequent interactions of a builder with 200 projects, the CPU throttled 4×: interaction to
 * next paint, as the web-vitals library reports it, p75 of 10 page visits each.
 * The app runs as `npm start` runs it, serving a fresh build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { launchChromium } from '@shiplog/testing/browser';
import type { Browser, BrowserContext } from 'playwright-core';
import { signUp, startBenchApp, stop } from './app.ts';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'web', 'dist');

/** Each route the bench loads, the page module its lazy route loads, and whether it needs a session. */
const routes: { path: string; page: string; signedIn: boolean }[] = [
  { path: '/auth', page: 'src/features/account/auth-page.tsx', signedIn: false },
  { path: '/', page: 'src/features/dashboard/dashboard-page.tsx', signedIn: true },
  { path: '/projects', page: 'src/features/projects/projects-page.tsx', signedIn: true },
  { path: '/projects/:id', page: 'src/features/projects/project-detail-page.tsx', signedIn: true },
  { path: '/new-project', page: 'src/features/projects/new-project-page.tsx', signedIn: true },
  { path: '/reminders', page: 'src/features/reminders/reminders-page.tsx', signedIn: true },
  { path: '/activities', page: 'src/features/activity/activities-page.tsx', signedIn: true },
  { path: '/settings', page: 'src/features/account/settings-page.tsx', signedIn: true },
  { path: '/profile', page: 'src/features/account/profile-page.tsx', signedIn: true },
  { path: '/subscription', page: 'src/features/billing/subscription-page.tsx', signedIn: true },
  { path: '/chat', page: 'src/features/chat/chat-page.tsx', signedIn: true },
  { path: '/integrations', page: 'src/features/integrations/integrations-page.tsx', signedIn: true },
];

export interface RouteLoad {
  path: string;
  /** Gzip-encoded bytes of JS, CSS and fonts Chromium received until the page was idle. */
  transferredBytes: number;
  /** The same from the built files: the entry's and the page's static imports, gzipped. */
  builtBytes: number;
  files: number;
}

export interface DashboardLoad {
  lcpMs: number;
  interactiveMs: number;
  /** Calls to /api during the load, in order. */
  apiCalls: string[];
}

/** One interaction's INP over its visits: each visit's figure, and their 75th percentile. */
export interface InteractionResult {
  name: string;
  p75Ms: number;
  samplesMs: number[];
  /** Where the slowest visit's time went (web-vitals' attribution), in ms. */
  slowest: { inputDelay: number; processingDuration: number; presentationDelay: number; target: string };
}

export interface WebResult {
  routes: RouteLoad[];
  interactions: InteractionResult[];
  largestRoute: RouteLoad;
  /** The top modules of the first load of `/`, by their size in the built chunks (before gzip). */
  topModules: { module: string; bytes: number }[];
  dashboard: {
    loads: DashboardLoad[];
    lcpMs: number;
    interactiveMs: number;
    graphqlCalls: number;
    apiCalls: number;
    /** The same load at full CPU speed with every request 50 ms away (a fast computer on a network). */
    networkLcpMs: number;
  };
}

interface ManifestEntry {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
  assets?: string[];
}

/** What the gateway sends for a file asked for with gzip: its gzip copy, or the file when it has none. */
function gzippedSize(file: string): number {
  const path = join(dist, file);
  return existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : statSync(path).size;
}

/** The files a route's first load needs by the build's own account: static imports of the entry, the shell and the page. */
function builtFirstLoad(manifest: Record<string, ManifestEntry>, page: string): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || files.has(entry.file)) return;
    files.add(entry.file);
    for (const css of entry.css ?? []) files.add(css);
    for (const asset of entry.assets ?? []) if (/\.(woff2?|css)$/.test(asset)) files.add(asset);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  visit('index.html');
  visit(page);
  return files;
}

function topModules(page: string): { module: string; bytes: number }[] {
  const report = JSON.parse(readFileSync(join(dist, '.vite', 'modules.json'), 'utf8')) as Record<
    string,
    { module: string; bytes: number }[]
  >;
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const modules = [...builtFirstLoad(manifest, page)].flatMap((file) => report[file] ?? []);
  return modules.sort((a, b) => b.bytes - a.bytes).slice(0, 12);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function seed(url: string, cookie: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const statuses = ['planning', 'development', 'deployed', 'blocked', 'development', 'planning'];
  const ids: string[] = [];
  for (const [i, status] of statuses.entries()) {
    const project = await post('/api/projects', {
      name: `Side project ${i + 1}`,
      description: 'A small thing I am building on weekends, with a description long enough to wrap.',
      status,
      costEstimate: 1000 * (i + 1),
    });
    ids.push(project.id);
  }
  for (let i = 0; i < 5; i++) {
    await post('/api/reminders', {
      projectId: ids[i],
      title: `Renew the domain ${i + 1}`,
      dueDate: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
      reminderTimes: ['1_day_before'],
    });
  }
  await post(`/api/projects/${ids[0]}/backup`, { notes: 'Nightly' });
  await post(`/api/projects/${ids[1]}/deployment`, { environment: 'production', version: '1.0.0' });
  await post(`/api/projects/${ids[2]}/version`, { version: '0.2.0', changes: ['First beta'] });
  return ids[0]!;
}

/** Where the app notes that the browser holds a session (`SIGNED_IN_HINT_KEY`, web/src/lib/dashboard-query.ts). */
const SIGNED_IN_HINT_KEY = 'shiplog-signed-in';

async function newContext(browser: Browser, url: string, cookie?: string): Promise<BrowserContext> {
  // Gzip, as the budget is counted; the gateway would send Brotli, about 15% smaller, if asked.
  const context = await browser.newContext({ baseURL: url, extraHTTPHeaders: { 'accept-encoding': 'gzip' } });
  if (cookie) {
    const cookies = cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
    await context.addCookies(cookies);
    // As a returning builder's browser has it: the page asks for the dashboard early (decision 063).
    await context.addInitScript((key) => localStorage.setItem(key, '1'), SIGNED_IN_HINT_KEY);
  }
  return context;
}

async function measureRoute(browser: Browser, url: string, path: string, cookie?: string) {
  const context = await newContext(browser, url, cookie);
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('requestfinished', (request) => {
    if (['script', 'stylesheet', 'font'].includes(request.resourceType()))
      sizes.push(request.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(200);
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return { bytes, files: sizes.length };
}

/** What the page records for the bench (`window.__marks`), in ms since navigation start. */
type Marks = { lcp: number; interactive: number };
type MarkedWindow = { __marks: Marks };

/**
 * One cold load of the dashboard. By default the CPU is throttled 4× on this machine's loopback; `fullSpeed`
 * loads it as a fast computer does over a network, the CPU unthrottled and each request 50 ms away.
 */
async function measureDashboard(
  browser: Browser,
  url: string,
  cookie: string,
  conditions: { fullSpeed?: boolean } = {},
): Promise<DashboardLoad> {
  const context = await newContext(browser, url, cookie);
  await context.addInitScript(() => {
    const marks: Marks = { lcp: 0, interactive: 0 };
    (window as unknown as MarkedWindow).__marks = marks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    // The cards answer input once they are on the page and the main thread is free for an event.
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('[data-testid="project-card"]').length < 6) return;
      observer.disconnect();
      setTimeout(() => {
        marks.interactive = performance.now();
      }, 0);
    });
    document.addEventListener('DOMContentLoaded', () =>
      observer.observe(document.body, { childList: true, subtree: true }),
    );
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (conditions.fullSpeed) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 50,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  } else await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${pathname}`);
  });
  await page.goto('/', { waitUntil: 'load' });
  // Waited for by a plain evaluation: Playwright's waitForFunction would inject its selector engine
  // into the page while it is still loading, 50 ms of main thread at 4x CPU that no visitor pays.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const check = () =>
          (window as unknown as MarkedWindow).__marks.interactive > 0 ? resolve() : setTimeout(check, 50);
        check();
      }),
  );
  await page.waitForTimeout(300);
  const marks = await page.evaluate(() => (window as unknown as MarkedWindow).__marks);
  await context.close();
  return { lcpMs: Math.round(marks.lcp), interactiveMs: Math.round(marks.interactive), apiCalls };
}

/** web-vitals' attribution build, as a classic script the page runs before its own (`webVitals.onINP`). */
const webVitalsSource = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('web-vitals/attribution')), 'web-vitals.attribution.iife.js'),
  'utf8',
);

type InpReport = {
  value: number;
  inputDelay: number;
  processingDuration: number;
  presentationDelay: number;
  target: string;
};
type InpWindow = { __inp?: InpReport };

/**
 * A click as a hand makes it: the pointer arrives (its hover styles drawn), then presses. Playwright's
 * own click moves and presses in one go, which counts the hover's drawing in the click.
 */
async function hoverThenClick(target: import('playwright-core').Locator) {
  await target.hover();
  await target.page().waitForTimeout(100);
  await target.click();
}

/**
 * The visits of the interaction bench: each loads its page with the CPU throttled 4×, waits until it
 * is ready, then does one thing as a user would (`act`). The page's INP is then what web-vitals
 * reports: every change reported, so the first interaction reports itself.
 */
const interactions: {
  name: string;
  path: string;
  ready: string;
  act: (page: import('playwright-core').Page) => Promise<void>;
}[] = [
  {
    name: 'checklist tick on My Projects (200 projects)',
    path: '/projects',
    ready: '[data-testid="project-card"]',
    act: (page) => hoverThenClick(page.getByRole('checkbox', { name: 'Database added', exact: true }).first()),
  },
  {
    // Two interactions: the selection box, then the status (the keyboard on the select, as a user
    // changes it without opening it). The page's INP is the slower of the two.
    name: 'status change on My Projects (select a card, then its status)',
    path: '/projects',
    ready: '[data-testid="project-card"]',
    act: async (page) => {
      await hoverThenClick(page.getByRole('checkbox', { name: /^Select / }).first());
      const select = page.getByRole('combobox', { name: 'Change status' });
      await select.focus();
      await page.keyboard.press('ArrowDown');
    },
  },
  {
    name: 'open the command palette (Ctrl+K) on the dashboard',
    path: '/',
    ready: 'button[aria-keyshortcuts]',
    act: async (page) => {
      await page.keyboard.press('Control+k');
      await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    },
  },
  {
    name: 'filter My Projects (200) by typing in its search',
    path: '/projects',
    ready: '[data-testid="project-card"]',
    act: async (page) => {
      await page.getByRole('searchbox', { name: 'Search projects' }).focus();
      await page.keyboard.type('7');
    },
  },
];

async function measureInteraction(
  context: BrowserContext,
  interaction: (typeof interactions)[number],
  visits = 10,
): Promise<InteractionResult> {
  const reports: InpReport[] = [];
  for (let i = 0; i < visits; i++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(interaction.path);
    await page.locator(interaction.ready).first().waitFor();
    // Settled: the page's after-first-screen parts (the live feed, the shortcuts) have loaded.
    await page.waitForLoadState('networkidle');
    await interaction.act(page);
    // web-vitals may first report 0 (an entry of the load); the interaction's figure follows within a
    // frame or two. Its last report once it has one above 0, or none within 3 s.
    const report = await page.evaluate(
      () =>
        new Promise<InpReport | null>((resolve) => {
          const started = performance.now();
          const check = () => {
            const inp = (window as unknown as InpWindow).__inp;
            if (inp && inp.value > 0) setTimeout(() => resolve((window as unknown as InpWindow).__inp!), 300);
            else if (performance.now() - started > 3000) resolve(null);
            else setTimeout(check, 50);
          };
          check();
        }),
    );
    // No report: no event of the interaction took the browser's 16 ms minimum to measure.
    reports.push(report ?? { value: 16, inputDelay: 0, processingDuration: 0, presentationDelay: 0, target: '' });
    await page.close();
  }
  const sorted = reports.map((r) => r.value).sort((a, b) => a - b);
  const slowest = reports.reduce((a, b) => (b.value > a.value ? b : a));
  const round = (n: number) => Math.round(n);
  return {
    name: interaction.name,
    p75Ms: round(sorted[Math.ceil(sorted.length * 0.75) - 1]!),
    samplesMs: reports.map((r) => round(r.value)),
    slowest: {
      inputDelay: round(slowest.inputDelay),
      processingDuration: round(slowest.processingDuration),
      presentationDelay: round(slowest.presentationDelay),
      target: slowest.target,
    },
  };
}

/** A builder with 200 projects (one import), signed in, web-vitals watching every page. */
async function measureInteractions(browser: Browser, url: string): Promise<InteractionResult[]> {
  const user = await signUp(url, `bench_inp_${Date.now()}`);
  const at = new Date().toISOString();
  const imported = await fetch(`${url}/api/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: user.cookie },
    body: JSON.stringify({
      format: 'shiplog-export',
      version: 1,
      projects: Array.from({ length: 200 }, (_, i) => ({
        id: `p${i}`,
        name: `Project ${i + 1}`,
        description: 'A small thing I am building on weekends.',
        status: ['planning', 'development', 'deployed', 'blocked'][i % 4],
        costEstimate: 500 * (i % 7),
        createdAt: at,
        updatedAt: at,
      })),
      reminders: [],
      activities: [],
    }),
  });
  if (imported.status !== 201) throw new Error(`the import answered ${imported.status}: ${await imported.text()}`);
  const context = await newContext(browser, url, user.cookie);
  // A global of the page's, as its own `<script>` would leave it (an init script's `var` stays local).
  await context.addInitScript(`${webVitalsSource};window.webVitals = webVitals;`);
  await context.addInitScript(() => {
    type Attributed = {
      value: number;
      attribution: {
        inputDelay: number;
        processingDuration: number;
        presentationDelay: number;
        interactionTarget: string;
      };
    };
    const vitals = (window as unknown as { webVitals: { onINP: (cb: (m: Attributed) => void, o: object) => void } })
      .webVitals;
    vitals.onINP(
      (metric) => {
        const { inputDelay, processingDuration, presentationDelay, interactionTarget } = metric.attribution;
        (window as unknown as InpWindow).__inp = {
          value: metric.value,
          inputDelay,
          processingDuration,
          presentationDelay,
          target: interactionTarget,
        };
      },
      { reportAllChanges: true, durationThreshold: 0 },
    );
  });
  try {
    const results: InteractionResult[] = [];
    for (const interaction of interactions) results.push(await measureInteraction(context, interaction));
    return results;
  } finally {
    await context.close();
  }
}

export async function runWeb(): Promise<WebResult> {
  const build = spawnSync('pnpm', ['--filter', '@shiplog/web', 'build'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('the web build failed');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestEntry
  >;

  const db = await createTestDatabase('bench_web');
  const ns = createTestBusNamespace('bench_web');
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port);
  const url = `http://localhost:${port}`;
  const browser = await launchChromium({ full: true });
  try {
    const user = await signUp(url, `bench_web_${Date.now()}`);
    const projectId = await seed(url, user.cookie);
    const loads: RouteLoad[] = [];
    for (const route of routes) {
      const path = route.path.replace(':id', projectId);
      const measured = await measureRoute(browser, url, path, route.signedIn ? user.cookie : undefined);
      const built = [...builtFirstLoad(manifest, route.page)];
      loads.push({
        path: route.path,
        transferredBytes: measured.bytes,
        builtBytes: built.reduce((sum, file) => sum + gzippedSize(file), 0),
        files: measured.files,
      });
    }
    const dashboardLoads: DashboardLoad[] = [];
    for (let i = 0; i < 5; i++) dashboardLoads.push(await measureDashboard(browser, url, user.cookie));
    const networkLoads: DashboardLoad[] = [];
    for (let i = 0; i < 5; i++)
      networkLoads.push(await measureDashboard(browser, url, user.cookie, { fullSpeed: true }));
    const apiCalls = median(dashboardLoads.map((l) => l.apiCalls.length));
    const interactionResults = await measureInteractions(browser, url);
    return {
      routes: loads,
      interactions: interactionResults,
      largestRoute: loads.reduce((a, b) => (b.transferredBytes > a.transferredBytes ? b : a)),
      topModules: topModules('src/features/dashboard/dashboard-page.tsx'),
      dashboard: {
        loads: dashboardLoads,
        lcpMs: median(dashboardLoads.map((l) => l.lcpMs)),
        interactiveMs: median(dashboardLoads.map((l) => l.interactiveMs)),
        networkLcpMs: median(networkLoads.map((l) => l.lcpMs)),
        graphqlCalls: median(dashboardLoads.map((l) => l.apiCalls.filter((c) => c.endsWith('/api/graphql')).length)),
        apiCalls,
      },
    };
  } finally {
    await browser.close();
    await stop(app);
    await ns.drop();
    await db.drop();
  }
}
