/**
 * Working together, on the app as `npm start` runs it:
 *
 * 1. A workspace's audit log with 100,000 entries over the last year (eight members, every kind):
 *    `GET /api/workspaces/{id}/audit` through the gateway at 16 connections — the first page, a page
 *    by kind, a page by actor, and a page deep in the log (page 200 of 50). Target: p99 ≤ 50 ms.
 * 2. The timeline with actors and without, side by side: two accounts of 2,000 timeline entries each,
 *    one whose entries name their actor (every entry made since actors are kept) and one whose entries
 *    name none (entries projected before), `GET /api/activities` (a page of 100) at 16 connections,
 *    alternating. Target: with actors no slower than without (p50 within 10%).
 *
 * The entries are written straight into the tables the projections keep (`activity.audit_log`,
 * `activity.activities`): making 100,000 changes through the API would take most of an hour and
 * measures nothing this benchmark is about.
 */
import { createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import pg from 'pg';
import { load, signUp, startBenchApp, stop } from './app.ts';

const ENTRIES = 100_000;
const MEMBERS = 8;
const TIMELINE_ENTRIES = 2_000;
const kinds = [
  'member.invited',
  'member.joined',
  'member.role_changed',
  'project.created',
  'project.deleted',
  'monitor.added',
  'monitor.changed',
  'monitor.removed',
];

type Load = Awaited<ReturnType<typeof load>>;

export interface AuditResult {
  entries: number;
  firstPage: Load;
  byKind: Load & { matches: number };
  byActor: Load & { matches: number };
  deepPage: Load;
  timeline: { withActors: Load; withoutActors: Load; p50Ratio: number };
}

export async function runAudit(): Promise<AuditResult> {
  const db = await createTestDatabase('bench_audit');
  const ns = createTestBusNamespace('bench_audit');
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port);
  const url = `http://127.0.0.1:${port}`;
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  try {
    const owner = await signUp(url, `auditowner${Date.now().toString(36)}`);
    const made = await fetch(`${url}/api/workspaces`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ name: 'Benchmarked crew' }),
    });
    if (made.status !== 201) throw new Error(`workspace answered ${made.status}`);
    const workspaceId = ((await made.json()) as { id: string }).id;
    const members = [owner.id, ...Array.from({ length: MEMBERS - 1 }, () => crypto.randomUUID())];
    await pool.query(
      `INSERT INTO activity.actors (user_id, username)
       SELECT m, 'member' || i FROM unnest($1::uuid[]) WITH ORDINALITY AS t(m, i) ON CONFLICT (user_id) DO NOTHING`,
      [members],
    );
    // A year of entries, newest a minute ago, by eight members, every kind.
    await pool.query(
      `INSERT INTO activity.audit_log (id, workspace_id, at, actor_id, kind, target, target_user, details, address)
       SELECT gen_random_uuid(), $1, now() - make_interval(secs => i * (364 * 86400.0 / $2)),
              ($3::uuid[])[1 + i % $4], ($5::text[])[1 + i % array_length($5::text[], 1)],
              CASE WHEN i % 2 = 0 THEN 'Project ' || (i % 300) END, CASE WHEN i % 2 = 1 THEN ($3::uuid[])[1 + (i + 1) % $4] END,
              jsonb_build_object('role', 'member'), '203.0.113.' || (i % 250)
       FROM generate_series(1, $2::int) AS i`,
      [workspaceId, ENTRIES, members, MEMBERS, kinds],
    );
    // As autovacuum leaves a table after many inserts: its visibility map set, its statistics taken.
    await pool.query('VACUUM ANALYZE activity.audit_log');
    const headers = { cookie: owner.cookie };
    const page = (query: string) => `${url}/api/workspaces/${workspaceId}/audit${query}`;
    const total = async (query: string) => Number((await fetch(page(query), { headers })).headers.get('x-total-count'));
    // Its own creation's entry besides.
    if ((await total('')) !== ENTRIES + 1) throw new Error(`the log holds ${await total('')} entries`);
    const options = { connections: 16, duration: 10, headers };
    await load({ ...options, duration: 3, url: page('') });
    const firstPage = await load({ ...options, url: page('') });
    const byKind = {
      ...(await load({ ...options, url: page('?kind=member.joined') })),
      matches: await total('?kind=member.joined'),
    };
    const actor = `?actor=${members[3]}`;
    const byActor = { ...(await load({ ...options, url: page(actor) })), matches: await total(actor) };
    const deepPage = await load({ ...options, url: page('?page=200&limit=50') });

    // The timeline with and without actors: two accounts, the same entries but for their actor.
    const [withActors, withoutActors] = [
      await signUp(url, `actors${Date.now().toString(36)}`),
      await signUp(url, `noactors${Date.now().toString(36)}`),
    ];
    for (const [account, named] of [
      [withActors, true],
      [withoutActors, false],
    ] as const)
      await pool.query(
        `INSERT INTO activity.activities (id, user_id, project_id, event_type, action, details, metadata, version, status, timestamp, actor_id, actor_token)
         SELECT gen_random_uuid(), $1, NULL, 'deployment', 'deployed', 'Deployed to production: Project ' || (i % 20),
                '{"environment": "production"}', '1.' || i, 'success', now() - make_interval(mins => i),
                CASE WHEN $3 THEN $1::uuid END, CASE WHEN $3 AND i % 4 = 0 THEN 'CI' END
         FROM generate_series(1, $2::int) AS i`,
        [account.id, TIMELINE_ENTRIES, named],
      );
    await pool.query('VACUUM ANALYZE activity.activities');
    const timeline = (account: { cookie: string }) => ({
      ...options,
      headers: { cookie: account.cookie },
      url: `${url}/api/activities?page=1&limit=100`,
    });
    await load({ ...timeline(withActors), duration: 3 });
    await load({ ...timeline(withoutActors), duration: 3 });
    // Alternating rounds, the better of two each: the machine's speed wanders between rounds.
    const runs = { with: [] as Load[], without: [] as Load[] };
    for (let round = 0; round < 2; round++) {
      runs.with.push(await load({ ...timeline(withActors), duration: 5 }));
      runs.without.push(await load({ ...timeline(withoutActors), duration: 5 }));
    }
    const best = (loads: Load[]) => loads.reduce((a, b) => (a.p50Ms <= b.p50Ms ? a : b));
    const w = best(runs.with);
    const wo = best(runs.without);
    return {
      entries: ENTRIES,
      firstPage,
      byKind,
      byActor,
      deepPage,
      timeline: {
        withActors: w,
        withoutActors: wo,
        p50Ratio: Math.round((w.p50Ms / Math.max(wo.p50Ms, 0.01)) * 100) / 100,
      },
    };
  } finally {
    await stop(app);
    await pool.end();
    await ns.drop();
    await db.drop();
  }
}
