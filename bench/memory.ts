/**
 * Memory benchmark: the whole app idle, as `npm start` runs it in production mode, after start-up and
 * one sign-in; each process's resident set and proportional set, read from /proc. In both modes: the
 * gateway and every service each a process of its own (target ≤ 800 MB together; ≤ 700 MB the issue's
 * next step), and all of them in one process (target ≤ 250 MB, with PostgreSQL's backends ≤ 400 MB).
 * `npm start`'s supervisor, which a deployment does not have, and PostgreSQL, NATS and Redis, shared
 * services an operator sizes on their own, are printed apart. Under the chaos load (`pnpm chaos`) the same reading is taken every second; its target is 1.5 GB.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import pg from 'pg';
import { signUp, startBenchApp, stop } from './app.ts';
import { type MemoryReading, memoryByGroup } from './cpu.ts';

/** `each`: every service and the gateway a process of its own; `one`: all in `npm start`'s own (scripts/one-process.ts). */
export async function runMemory(
  mode: 'each' | 'one' = 'each',
): Promise<MemoryReading & { startSeconds: number; backends: number; backendsByName: Record<string, number> }> {
  const env = { SHIPLOG_PROCESSES: mode };
  const db = await createTestDatabase('bench_memory');
  const ns = createTestBusNamespace('bench_memory');
  const port = await freePort();
  // A first start fills the compile cache (scripts/app-processes.ts, processEnv) with this
  // checkout's code, as every start after the first finds it: a process that strips even one file's
  // types itself loads Node's TypeScript parser (about 17 MB).
  await stop(await startBenchApp(db.url, ns.namespace, port, env));
  // From `npm start`'s launch (the web app built already) to the gateway answering ready.
  const launched = performance.now();
  const app = await startBenchApp(db.url, ns.namespace, port, env);
  const startSeconds = Math.round((performance.now() - launched) / 100) / 10;
  try {
    const url = `http://127.0.0.1:${port}`;
    const { cookie } = await signUp(url, `idle${Date.now().toString(36)}`);
    // The dashboard's first load, as the user's browser asks for it after signing in: the user, then
    // the dashboard in one GraphQL query.
    const user = await fetch(`${url}/api/user`, { headers: { cookie } });
    const dashboard = await fetch(`${url}/api/graphql`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: url },
      body: JSON.stringify({
        query:
          '{ dashboard { counters { totalProjects } projects { id } upcomingReminders { id } recentActivities { id } } }',
      }),
    });
    const answered = (await dashboard.json()) as { errors?: unknown };
    if (!user.ok || !dashboard.ok || answered.errors)
      throw new Error(`the dashboard's load answered ${user.status} and ${dashboard.status}`);
    // Idle: let start-up's garbage be collected and the relays' and consumers' first polls settle.
    await sleep(10_000);
    return {
      ...memoryByGroup(app.pid!, { oneProcess: mode === 'one' }),
      startSeconds,
      ...(await backendsOf(db.url).then(({ backends, byName }) => ({ backends, backendsByName: byName }))),
    };
  } finally {
    await stop(app);
    await ns.drop();
    await db.drop();
  }
}

/**
 * The PostgreSQL backends connected to the app's database (this count's own left out), and how many
 * each connection name holds (`shiplog-projects`, `shiplog-projects:session`, …).
 */
async function backendsOf(url: string): Promise<{ backends: number; byName: Record<string, number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; count: string }>(
      `SELECT application_name AS name, count(*) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1 ORDER BY 1`,
    );
    const byName = Object.fromEntries(rows.map((row) => [row.name, Number(row.count)]));
    return { backends: Object.values(byName).reduce((sum, count) => sum + count, 0), byName };
  } finally {
    await client.end();
  }
}
