/**
 * Status page benchmark: `GET /api/public/users/{username}/status` signed out, for a builder with 20
 * monitors on public projects, 90 days of hourly counts each and 20 incidents with notes; p99 at 32
 * connections, target ≤ 50 ms. The app runs as `npm start` runs it. Also the first read, when the
 * gateway holds nothing yet: three service calls and the monitors' 90-day query.
 *
 * The counts and incidents are written straight into the tables the checker and the monitor list
 * keep (`monitors.check_rollups`, `monitors.incidents`): 43,200 hours of checks would take 90 days.
 */
import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import pg from 'pg';
import { load, signUp, startBenchApp, stop } from './app.ts';

const MONITORS = 20;
const PROJECTS = 4;
const DAYS = 90;

export interface StatusResult {
  monitors: number;
  rollupRows: number;
  incidents: number;
  firstReadMs: number;
  answerBytes: number;
  held: Awaited<ReturnType<typeof load>>;
}

export async function runStatus(): Promise<StatusResult> {
  const db = await createTestDatabase('bench_status');
  const ns = createTestBusNamespace('bench_status');
  const port = await freePort();
  // The data is written here: nothing to check.
  const app = await startBenchApp(db.url, ns.namespace, port, { CHECKER_ENABLED: 'false' });
  const url = `http://127.0.0.1:${port}`;
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  try {
    const username = `status${Date.now().toString(36)}`;
    const signedUp = await signUp(url, username);
    const userId = signedUp.id;
    // The session, and each write's position (a monitor's project must be one its service has seen).
    let cookie = signedUp.cookie;
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`${path} answered ${response.status}`);
      cookie = cookiesFrom(response, cookie);
      return (await response.json()) as { id: string };
    };
    const monitorIds: string[] = [];
    for (let p = 0; p < PROJECTS; p++) {
      const project = await post('/api/projects', { name: `Service ${p + 1}` });
      for (let m = 0; m < MONITORS / PROJECTS; m++)
        monitorIds.push(
          (await post(`/api/projects/${project.id}/monitors`, { url: `https://s${p}-${m}.example.com/health` })).id,
        );
    }
    // The monitor list is a projection: wait for it to hold all 20.
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors.monitor_list');
      if (rows[0]!.n >= MONITORS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rollups = await pool.query(
      `INSERT INTO monitors.check_rollups (monitor_id, user_id, hour, checks, passed)
       SELECT m, $2, date_trunc('hour', now()) - make_interval(hours => h), 60, CASE WHEN h % 97 = 0 THEN 55 ELSE 60 END
       FROM unnest($1::uuid[]) AS m, generate_series(0, $3::int * 24 - 1) AS h`,
      [monitorIds, userId, DAYS],
    );
    const incidents = await pool.query(
      `INSERT INTO monitors.incidents (incident_id, monitor_id, user_id, project_id, url, cause, started_at, ended_at, note)
       SELECT gen_random_uuid(), m.monitor_id, m.user_id, m.project_id, m.url, 'HTTP 503',
         now() - make_interval(days => i * 4), now() - make_interval(days => i * 4) + interval '7 minutes',
         'The database restarted; we added a health check.'
       FROM monitors.monitor_list m, generate_series(1, 1) AS i`,
    );
    await pool.query('ANALYZE monitors.check_rollups');
    const path = `${url}/api/public/users/${username}/status`;
    const started = performance.now();
    const first = await fetch(path);
    const firstReadMs = Math.round(performance.now() - started);
    const body = await first.text();
    if (first.status !== 200) throw new Error(`the status page answered ${first.status}`);
    const status = JSON.parse(body) as { monitors: unknown[]; incidents: unknown[] };
    if (status.monitors.length !== MONITORS)
      throw new Error(`the status page shows ${status.monitors.length} monitors`);
    await load({ url: path, connections: 32, duration: 3 });
    const held = await load({ url: path, connections: 32, duration: 10 });
    return {
      monitors: MONITORS,
      rollupRows: rollups.rowCount ?? 0,
      incidents: incidents.rowCount ?? 0,
      firstReadMs,
      answerBytes: Buffer.byteLength(body),
      held,
    };
  } finally {
    await stop(app);
    await pool.end();
    await ns.drop();
    await db.drop();
  }
}
