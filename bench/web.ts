/**
 * The web app's first load: the script, style and font bytes each route transfers in
 * Chromium on a cold cache, gzipped, until the network is idle, beside the same figure read from the built files (Vite's manifest: the
 * entry's and the route's page chunk's static imports, gzipped); and the time to a usable dashboard
 * (6 projects, 5 reminders, 3 activities) with the CPU throttled 4×: largest contentful paint and the
 * time until the project cards answer input, median of 5 cold loads, with the API calls it made.
 * The app runs as `npm start` runs it, serving a fresh build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { launchChromium } from '@shiplog/testing/browser';
import type { Browser, BrowserContext } from 'playwright-core';
import { signUp, startBenchApp, stop } from './app.ts';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'web', 'dist');

/** Each route the bench loads, the page module its lazy route loads, and whether it needs a session. */
const routes: { path: string; page: string; signedIn: boolean }[] = [
  { path: '/auth', page: 'src/pages/auth-page.tsx', signedIn: false },
  { path: '/', page: 'src/pages/dashboard-page.tsx', signedIn: true },
  { path: '/projects', page: 'src/pages/projects-page.tsx', signedIn: true },
  { path: '/projects/:id', page: 'src/pages/project-detail-page.tsx', signedIn: true },
  { path: '/new-project', page: 'src/pages/new-project-page.tsx', signedIn: true },
  { path: '/reminders', page: 'src/pages/reminders-page.tsx', signedIn: true },
  { path: '/activities', page: 'src/pages/activities-page.tsx', signedIn: true },
  { path: '/settings', page: 'src/pages/settings-page.tsx', signedIn: true },
  { path: '/profile', page: 'src/pages/profile-page.tsx', signedIn: true },
  { path: '/subscription', page: 'src/pages/subscription-page.tsx', signedIn: true },
  { path: '/chat', page: 'src/pages/chat-page.tsx', signedIn: true },
  { path: '/integrations', page: 'src/pages/integrations-page.tsx', signedIn: true },
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

export interface WebResult {
  routes: RouteLoad[];
  largestRoute: RouteLoad;
  /** The top modules of the first load of `/`, by their size in the built chunks (before gzip). */
  topModules: { module: string; bytes: number }[];
  dashboard: { loads: DashboardLoad[]; lcpMs: number; interactiveMs: number; graphqlCalls: number; apiCalls: number };
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

async function newContext(browser: Browser, url: string, cookie?: string): Promise<BrowserContext> {
  // Gzip, as the budget is counted; the gateway would send Brotli, about 15% smaller, if asked.
  const context = await browser.newContext({ baseURL: url, extraHTTPHeaders: { 'accept-encoding': 'gzip' } });
  if (cookie) {
    const cookies = cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
    await context.addCookies(cookies);
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

async function measureDashboard(browser: Browser, url: string, cookie: string): Promise<DashboardLoad> {
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
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
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
  const browser = await launchChromium();
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
    const apiCalls = median(dashboardLoads.map((l) => l.apiCalls.length));
    return {
      routes: loads,
      largestRoute: loads.reduce((a, b) => (b.transferredBytes > a.transferredBytes ? b : a)),
      topModules: topModules('src/pages/dashboard-page.tsx'),
      dashboard: {
        loads: dashboardLoads,
        lcpMs: median(dashboardLoads.map((l) => l.lcpMs)),
        interactiveMs: median(dashboardLoads.map((l) => l.interactiveMs)),
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
