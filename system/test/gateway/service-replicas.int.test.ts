/**
 * Two gateways and two projects processes over one PostgreSQL and one NATS, each pair behind a round
 * robin, under load from many users, with the projects leader's lock connection cut twice mid-load
 * (leadership.ts): no write lost, every read right after a write sees it whichever replicas answer,
 * and the relay and consumers, which only the leader runs, did each event's work once and in order
 * (the read model equals a rebuild from the store).
 */
import { projectsService } from '@shiplog/projects';
import { type RunningService, startService } from '@shiplog/service-kit';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { type RoundRobin, roundRobin, waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../../../scripts/projections-rebuild.ts';

let backend: Backend;
let second: RunningService<never>;
let services: RoundRobin;
let gateways: RoundRobin;

beforeAll(async () => {
  // Standbys try for the lock every 100 ms, so a cut leadership moves within the test's load.
  backend = await startBackend({ env: { LEADER_INTERVAL_MS: '100' } });
  second = (await startService(projectsService, {
    ...backend.serviceEnv,
    BILLING_URL: backend.service('billing').url,
  })) as RunningService<never>;
  services = await roundRobin([backend.service('projects').url, second.url]);
  const a = await backend.startReplica({ PROJECTS_URL: services.url });
  const b = await backend.startReplica({ PROJECTS_URL: services.url });
  gateways = await roundRobin([a, b]);
});
afterAll(async () => {
  await gateways?.close();
  await services?.close();
  await second?.stop();
  await backend?.stop();
});

const replicas = () => [backend.service('projects'), second];

/**
 * Cuts the projects leader's lock connection, as if its host lost the database for a moment: this
 * backend's only (other test files run projects services against databases of their own).
 */
async function cutLeadership(): Promise<void> {
  // The leader's session connection holds its lock (and its relay's LISTEN; in the backend's process,
  // those of its other services too, which lose theirs with it).
  const { rowCount } = await backend.pool.query(
    `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity s USING (pid)
      WHERE l.locktype = 'advisory' AND l.granted AND s.datname = current_database()
        AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('leader:projects')::bigint`,
  );
  expect(rowCount).toBe(1);
}

/** Every row of the projects read model and of the timeline, as text, sorted. */
async function readModels(): Promise<string[]> {
  const { rows } = await backend.pool.query<{ row: string }>(
    `SELECT to_jsonb(p)::text AS row FROM projects.project_list p
     UNION ALL SELECT to_jsonb(a)::text FROM activity.activities a ORDER BY 1`,
  );
  return rows.map((r) => r.row);
}

describe('two gateways and two projects replicas behind round robins', () => {
  it('one projects replica leads; both answer', async () => {
    expect(
      replicas()
        .map((r) => r.leading)
        .sort(),
    ).toEqual([false, true]);
    const client = new Client(gateways.url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('rr'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    for (let i = 0; i < 4; i++) expect((await client.get('/api/projects')).status).toBe(200);
    expect(services.counts.every((n) => n >= 2)).toBe(true);
  });

  it('under load, with leadership cut twice: nothing lost, read-your-writes on every read, each event handled once', async () => {
    const users = 12;
    const rounds = 10;
    const created = new Map<string, { client: Client; ids: string[] }>();
    const misses: string[] = [];
    const failures: string[] = [];
    let roundsDone = 0;

    const user = async (n: number) => {
      const client = new Client(gateways.url);
      const username = uniqueUsername(`load${n}`);
      const registered = await client.post('/api/register', { username, password: 'secret-pass-1' });
      if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
      const ids: string[] = [];
      created.set(username, { client, ids });
      for (let round = 0; round < rounds; round++) {
        const made = await client.post('/api/projects', { name: `Load ${n}.${round}`, cost: round });
        if (made.status !== 201) {
          failures.push(`create ${made.status} ${made.text}`);
          continue;
        }
        ids.push(made.body.id);
        // The next request goes to the other gateway, and through it to either projects replica.
        const list = await client.get('/api/projects');
        if (!list.body.some((p: { id: string }) => p.id === made.body.id)) misses.push(`list after create ${round}`);
        const updated = await client.request('PUT', `/api/projects/${made.body.id}`, {
          name: `Load ${n}.${round}`,
          status: 'deployed',
        });
        if (updated.status !== 200) failures.push(`update ${updated.status} ${updated.text}`);
        const one = await client.get(`/api/projects/${made.body.id}`);
        if (one.body?.status !== 'deployed') misses.push(`detail after update ${round}: ${one.body?.status}`);
        const timeline = await client.get(`/api/projects/${made.body.id}/activities`);
        if (timeline.body?.length !== 2) misses.push(`timeline after update ${round}: ${timeline.body?.length}`);
        roundsDone++;
      }
    };
    const load = Promise.all(Array.from({ length: users }, (_, n) => user(n)));
    // Twice during the load (a third and two thirds of the way), the leader loses its lock
    // connection; a replica (either) leads again.
    for (let cut = 1; cut <= 2; cut++) {
      await waitUntil(() => roundsDone >= (cut * users * rounds) / 3, 30_000, `${cut}/3 of the load`);
      await cutLeadership();
      await waitUntil(() => replicas().some((r) => r.leading), 3000, 'a projects leader again');
    }
    await load;

    expect(failures).toEqual([]);
    expect(misses).toEqual([]);
    expect(replicas().filter((r) => r.leading)).toHaveLength(1);
    // Every create is there, in each user's list, read through the balancers.
    for (const { client, ids } of created.values()) {
      const list = (await client.get('/api/projects')).body.map((p: { id: string }) => p.id);
      expect(list.sort()).toEqual([...ids].sort());
    }
    const ids = [...created.values()].flatMap((u) => u.ids);
    expect(ids).toHaveLength(users * rounds);

    // The relay published each stored event once, and the list projection handled each once.
    const { rows: stored } = await backend.pool.query<{ event_id: string }>('SELECT event_id FROM projects.events');
    expect(stored.length).toBe(users * rounds * 2);
    const published = (await backend.everyBusMessage())
      .map((m) => JSON.parse(m) as { id: string; source: string })
      .filter((m) => m.source === 'projects')
      .map((m) => m.id);
    expect(published.sort()).toEqual(stored.map((r) => r.event_id).sort());
    const { rows: handled } = await backend.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM projects.handled_events WHERE consumer = 'projects-project-list'`,
    );
    expect(handled[0]!.n).toBe(stored.length);

    // In order, too: the read models equal a rebuild of them from the stores.
    const live = await readModels();
    await rebuildAll({ DATABASE_URL: backend.databaseUrl, BUS_NAMESPACE: backend.busNamespace, NODE_ENV: 'test' });
    expect(await readModels()).toEqual(live);
    // Both balancers spread the load.
    expect(Math.min(...services.counts)).toBeGreaterThan(users * rounds);
    expect(Math.min(...gateways.counts)).toBeGreaterThan(users * rounds);
  });

  it('when the leading replica stops, the other leads and the next write is read back through it', async () => {
    const leader = replicas().find((r) => r.leading)!;
    const standby = replicas().find((r) => !r.leading)!;
    await leader.stop();
    await waitUntil(() => standby.leading, 3000, 'the standby to lead');
    // The stopped replica no longer answers: read and write through the one left, directly.
    const direct = await backend.startReplica({ PROJECTS_URL: standby.url });
    const client = new Client(direct);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('after'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const made = await client.post('/api/projects', { name: 'After the leader left' });
    expect(made.status).toBe(201);
    expect((await client.get('/api/projects')).body.map((p: { id: string }) => p.id)).toEqual([made.body.id]);
  });
});
