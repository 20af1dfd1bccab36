/**
 * One leader among replicas: the session advisory lock decides, a standby takes over when the leader
 * stops or dies, and a leader whose lock connection is cut stops its work at once.
 */
import { SessionConnection } from '@shiplog/event-store/postgres';
import { createTestDatabase, type TestDatabase, waitUntil } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdLeadership, type Leadership } from './leadership.ts';
import { createLogger } from './logger.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('leader');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** Resolves once `leadership` has finished `count` more rounds (tries for the lock, or checks of it). */
function untilMoreRounds(leadership: Leadership, count: number) {
  const target = leadership.rounds + count;
  return waitUntil(() => leadership.rounds >= target, 2000, `${count} more rounds`);
}

/**
 * A replica: leads `key` on its own session connection (a process of its own), recording when its work
 * runs; `working` tells whether it runs now.
 */
async function replica(key: string, log: string[], id: string) {
  let working = false;
  const session = new SessionConnection({ connectionString: db.url, applicationName: `shiplog-leader-test:${id}` });
  const leadership: Leadership = await holdLeadership({
    session,
    key,
    intervalMs: 50,
    logger: createLogger('leader-test', 'silent'),
    lead: async () => {
      // Never two at once: whoever else leads has stopped before this starts.
      log.push(`${id} starts`);
      working = true;
      return async () => {
        working = false;
        log.push(`${id} stops`);
      };
    },
  });
  return {
    leadership: {
      get leading() {
        return leadership.leading;
      },
      get rounds() {
        return leadership.rounds;
      },
      async stop() {
        await leadership.stop();
        await session.end();
      },
    } satisfies Leadership,
    session,
    get working() {
      return working;
    },
  };
}

describe('leadership', () => {
  it('one of two replicas leads; the other takes over when it stops', async () => {
    const log: string[] = [];
    const a = await replica('projects', log, 'a');
    const b = await replica('projects', log, 'b');
    expect([a.leadership.leading, b.leadership.leading]).toEqual([true, false]);
    // Another key has a leader of its own.
    const other = await replica('reminders', [], 'c');
    expect(other.leadership.leading).toBe(true);
    // b has tried for the lock again since, and still does not lead.
    await untilMoreRounds(b.leadership, 2);
    expect(b.working).toBe(false);

    await a.leadership.stop();
    await waitUntil(async () => b.leadership.leading, 2000, 'b to lead');
    expect(log).toEqual(['a starts', 'a stops', 'b starts']);
    await b.leadership.stop();
    await other.leadership.stop();
    expect(log).toEqual(['a starts', 'a stops', 'b starts', 'b stops']);
  });

  it('a leader whose lock connection is cut stops its work at once, and one replica leads again', async () => {
    const log: string[] = [];
    const a = await replica('activity', log, 'a');
    const b = await replica('activity', log, 'b');
    expect(a.working).toBe(true);
    // As if the leader's host lost the database: PostgreSQL ends its session and frees the lock.
    const { rowCount } = await pool.query(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity s USING (pid)
        WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = 'shiplog-leader-test:a'
          AND s.datname = current_database()`,
    );
    expect(rowCount).toBe(1);
    await waitUntil(async () => log.length >= 3, 2000, 'a new leader');
    // a stopped, and one replica leads again (either: a reconnects too). The new leader may take the
    // freed lock in the moment before a hears that its connection is gone (docs/scaling.md).
    const after = log.slice(1, 3);
    expect(after).toContain('a stops');
    const restarted = after.filter((entry) => /^[ab] starts$/.test(entry));
    expect(restarted).toHaveLength(1);
    expect([a.working, b.working].filter(Boolean)).toHaveLength(1);
    // Both have been round again since: neither started or stopped anything more.
    await Promise.all([untilMoreRounds(a.leadership, 2), untilMoreRounds(b.leadership, 2)]);
    expect(log).toHaveLength(3);
    const [leader, standby] = a.working ? [a, b] : [b, a];
    await standby.leadership.stop();
    await leader.leadership.stop();
    expect(log.slice(3)).toEqual([restarted[0]!.replace('starts', 'stops')]);
  });

  it('services in one process share one session connection: each leads its key, and a lost connection stops and restarts them all', async () => {
    const session = new SessionConnection({ connectionString: db.url, applicationName: 'shiplog-leader-test:one' });
    const log: string[] = [];
    let failing = true;
    const lead = (key: string, fails = false) =>
      holdLeadership({
        session,
        key,
        intervalMs: 50,
        logger: createLogger('leader-test', 'silent'),
        lead: async () => {
          // Starting its work fails once (NATS refused it, say): the lock is given back, not held idle.
          if (fails && failing) {
            failing = false;
            throw new Error('refused');
          }
          log.push(`${key} starts`);
          return async () => {
            log.push(`${key} stops`);
          };
        },
      });
    const [billing, chat] = await Promise.all([lead('billing'), lead('chat', true)]);
    expect(billing.leading).toBe(true);
    await waitUntil(() => chat.leading, 2000, 'chat to lead after its failed start');
    // One backend holds both locks.
    const held = async () =>
      (
        await pool.query<{ pid: number }>(
          `SELECT DISTINCT s.pid FROM pg_locks l JOIN pg_stat_activity s USING (pid)
            WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = 'shiplog-leader-test:one'`,
        )
      ).rows;
    expect(await held()).toHaveLength(1);
    // The notifications of a channel reach who listens on the same connection; losing it, they hear so.
    const heard: string[] = [];
    await session.listen('leader_test', { notified: () => heard.push('notified'), lost: () => heard.push('lost') });
    await pool.query(`NOTIFY leader_test`);
    await waitUntil(() => heard.length === 1, 2000, 'the notification');

    await pool.query(`SELECT pg_terminate_backend($1)`, [(await held())[0]!.pid]);
    await waitUntil(() => billing.leading && chat.leading && log.length === 6, 2000, 'both to lead again');
    expect(log.slice(2, 4).sort()).toEqual(['billing stops', 'chat stops']);
    expect(heard).toEqual(['notified', 'lost']);
    expect(await held()).toHaveLength(1);

    await billing.stop();
    // Given back by the one that stopped, still held by the other.
    const other = new SessionConnection({ connectionString: db.url, applicationName: 'shiplog-leader-test:other' });
    const tried = await other.query<{ held: boolean }>(
      `SELECT pg_try_advisory_lock(hashtext('leader:billing')) AS billing, pg_try_advisory_lock(hashtext('leader:chat')) AS held`,
    );
    expect(tried.rows[0]).toEqual({ billing: true, held: false });
    await other.end();
    await chat.stop();
    await session.end();
  });
});
