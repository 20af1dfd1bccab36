/**
 * GitHub deliveries benchmark, on the app as `npm start` runs it with the GitHub stand-in: a user
 * connects GitHub and imports 10 repositories; then GitHub delivers 1,000 signed webhook deliveries
 * over one minute (one every 60 ms, the repositories in turn), each a published release with its
 * notes. A delivery's latency runs from the moment it is sent to the moment its version is a row of
 * the timeline (read from `activity.activities`, where the timeline is read from, every 5 ms).
 * Target: 1,000 deliveries a minute recorded, p99 ≤ 200 ms from delivery to the timeline.
 */
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { startGitHubStandIn } from '@shiplog/testing/github';
import pg from 'pg';
import { signUp, startBenchApp, stop } from './app.ts';

const REPOSITORIES = 10;
const DELIVERIES = 1_000;
const INTERVAL_MS = 60;
const POLL_MS = 5;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function runGitHub() {
  const db = await createTestDatabase('bench_github');
  const ns = createTestBusNamespace('bench_github');
  const github = await startGitHubStandIn();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = await startBenchApp(db.url, ns.namespace, port, {
    INTEGRATION_ALLOWED_HOSTS: github.host,
    GITHUB_API_URL: github.url,
    APP_URL: url,
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => {});
  try {
    const user = await signUp(url, `ghbench${Date.now().toString(36)}`);
    const call = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { cookie: user.cookie, 'content-type': 'application/json', origin: url },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response.json();
    };
    await call('PUT', '/api/github', { token: github.token });
    const names = Array.from({ length: REPOSITORIES }, (_, i) => `bench-${i}`);
    for (const name of names) github.addRepository(name);
    await call('POST', '/api/github/import', { repositories: names.map((n) => `${github.login}/${n}`) });

    /** When each version first is a timeline row, polled from the table the timeline reads. */
    const seen = async (version: string, sentAt: number): Promise<number> => {
      for (;;) {
        const { rowCount } = await pool.query(
          "SELECT 1 FROM activity.activities WHERE event_type = 'version_release' AND version = $1",
          [version],
        );
        if (rowCount) return performance.now() - sentAt;
        if (performance.now() - sentAt > 30_000) throw new Error(`${version} never reached the timeline`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };
    const latencies: Promise<number>[] = [];
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < DELIVERIES; i++) {
      const due = started + i * INTERVAL_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const version = `v1.${i}.0`;
      const repository = `${github.login}/${names[i % REPOSITORIES]}`;
      const sentAt = performance.now();
      latencies.push(
        github.publishRelease(repository, version, `- Change ${i}\n- Another`).then(([answer]) => {
          statuses.push(answer?.status ?? 0);
          return seen(version, sentAt);
        }),
      );
    }
    const measured = (await Promise.all(latencies)).sort((a, b) => a - b);
    const minutes = (performance.now() - started) / 60_000;
    const recorded = Number(
      (
        await pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM activity.activities WHERE event_type = 'version_release'",
        )
      ).rows[0]!.n,
    );
    return {
      repositories: REPOSITORIES,
      deliveries: DELIVERIES,
      accepted: statuses.filter((s) => s === 202).length,
      recorded,
      perMinute: Math.round(recorded / minutes),
      p50Ms: Math.round(percentile(measured, 50)),
      p99Ms: Math.round(percentile(measured, 99)),
      maxMs: Math.round(measured.at(-1)!),
    };
  } finally {
    await pool.end();
    await stop(app);
    await github.stop();
    await db.drop();
    await ns.drop();
  }
}
