/**
 * Live updates: a change made through the API (as another tab or the CLI makes it) until it
 * is visible in a browser that has the project list open, with no reload: p50 and p99 over 100 changes,
 * one at a time. The page records when the new name appears (a MutationObserver) with the same clock
 * the bench reads before sending the change. The app runs as `npm start` runs it.
 */
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { launchChromium } from '@shiplog/testing/browser';
import { signUp, startBenchApp, stop } from './app.ts';

export interface LiveResult {
  changes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

type WatchingWindow = { __watch: (text: string) => Promise<number>; __seen: Promise<number> };

const CHANGES = 100;

export async function runLive(): Promise<LiveResult> {
  const db = await createTestDatabase('bench_live');
  const ns = createTestBusNamespace('bench_live');
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port);
  const url = `http://localhost:${port}`;
  const browser = await launchChromium({ full: true });
  try {
    const user = await signUp(url, `bench_live_${Date.now()}`);
    const headers = { cookie: user.cookie, 'content-type': 'application/json', origin: url };
    const created = await fetch(`${url}/api/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Live 0' }),
    });
    const { id } = (await created.json()) as { id: string };

    const context = await browser.newContext({ baseURL: url });
    await context.addCookies(
      user.cookie.split('; ').map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name: name!, value: value.join('='), url };
      }),
    );
    await context.addInitScript(() => {
      // Resolves with the wall-clock time the text first shows on the page.
      (window as unknown as WatchingWindow).__watch = (text: string) =>
        new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!document.body.textContent?.includes(text)) return;
            observer.disconnect();
            resolve(Date.now());
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        });
    });
    const page = await context.newPage();
    await page.goto('/projects');
    await page.getByText('Live 0').waitFor();
    // The stream is open once the page has asked for it.
    await page.waitForTimeout(1000);

    const latencies: number[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      const name = `Live ${i}`;
      // Watching before the change is sent.
      await page.evaluate((text) => {
        const watching = window as unknown as WatchingWindow;
        watching.__seen = watching.__watch(text);
      }, name);
      const sentAt = Date.now();
      const response = await fetch(`${url}/api/projects/${id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name }),
      });
      if (response.status !== 200) throw new Error(`the change answered ${response.status}`);
      latencies.push((await page.evaluate(() => (window as unknown as WatchingWindow).__seen)) - sentAt);
      await page.waitForTimeout(50);
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!;
    return { changes: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies.at(-1)! };
  } finally {
    await browser.close();
    await stop(app);
    await ns.drop();
    await db.drop();
  }
}
