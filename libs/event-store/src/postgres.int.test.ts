import { setTimeout as sleep } from 'node:timers/promises';
import { newId, type Position } from '@shiplog/events';
import { createTestDatabase, type TestDatabase, waitUntil } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import { PostgresEventStore } from './postgres.ts';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase('es_contract');
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  // Idle clients are cut when the test database is dropped.
  pool.on('error', () => {});
  const store = new PostgresEventStore(pool, 'contract');
  await store.migrate();
  return {
    store,
    dispose: async () => {
      await pool.end();
      await db.drop();
    },
  };
});

describe('PostgreSQL event store: late commits', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('es_gap');
    pool = new pg.Pool({ connectionString: db.url, max: 24 });
    pool.on('error', () => {});
    store = new PostgresEventStore(pool, 'gaps', { pollIntervalMs: 20 });
    await store.migrate();
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('never lets a subscriber skip an event that an earlier-started transaction commits late', async () => {
    // Writer A takes its position first but commits last; B commits at once with a higher sequence.
    const slow = await pool.connect();
    await slow.query('BEGIN');
    const late = newId();
    await store.append(`s-${newId()}`, [event(late)], { expectedRevision: 'no_stream', transaction: slow });
    const early = newId();
    await store.append(`s-${newId()}`, [event(early)], { expectedRevision: 'no_stream' });

    const seen: string[] = [];
    const controller = new AbortController();
    // The store's reads through the pool, counted: the subscriber's re-reads while it is held back.
    let reads = 0;
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => {
      reads++;
      return query(...args);
    }) as typeof pool.query;
    const reading = (async () => {
      for await (const e of store.subscribeToAll({ signal: controller.signal })) {
        seen.push(e.id);
        if (seen.length === 2) controller.abort();
      }
    })();
    try {
      // Several rounds of reading, each of which finds B committed and A still open.
      await waitUntil(() => reads >= 10, 5000, 'the subscriber to read again and again');
    } finally {
      pool.query = query;
    }
    // While A is open, B is held back too: passing it would move the checkpoint beyond A.
    expect(seen).toEqual([]);
    await slow.query('COMMIT');
    slow.release();
    await reading;
    expect(seen).toEqual([late, early]);
  });

  it('is not held back by an open transaction that does not append', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS gaps.other (x int)');
    const bystander = await pool.connect();
    await bystander.query('BEGIN');
    await bystander.query('INSERT INTO gaps.other VALUES (1)'); // it now holds an older transaction id
    const id = newId();
    await store.append(`s-${newId()}`, [event(id)], { expectedRevision: 'no_stream' });
    const all = await store.readAll({ limit: 100_000 });
    await bystander.query('ROLLBACK');
    bystander.release();
    expect(all.map((e) => e.id)).toContain(id);
  });

  it('refuses an append in a transaction that wrote before taking the append lock', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO gaps.other VALUES (2)');
      await expect(
        store.append(`s-${newId()}`, [event(newId())], { expectedRevision: 'no_stream', transaction: client }),
      ).rejects.toThrow('call lockForAppend first');
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await store.lockForAppend(client);
      await client.query('INSERT INTO gaps.other VALUES (3)');
      const appended = await store.append(`s-${newId()}`, [event(newId())], {
        expectedRevision: 'no_stream',
        transaction: client,
      });
      expect(appended.nextExpectedRevision).toBe(0);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });

  it('ends a subscription whose LISTEN connection is lost, with the error, so its caller resumes', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const ended = (async () => {
      for await (const e of store.subscribeToAll({ signal: controller.signal })) seen.push(e.id);
    })().then(
      () => null,
      (error: unknown) => error,
    );
    // Once it sleeps on LISTEN, its backend is ended (a server restart or a pause does the same).
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await waitUntil(
        async () =>
          (
            await admin.query(
              `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
            )
          ).rowCount === 1,
        5000,
        'the subscription to listen',
      );
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
      );
    } finally {
      await admin.end();
    }
    expect(String(await ended)).toMatch(/terminating connection/);
    controller.abort();
    // The pool goes on: a new subscription reads what is appended next.
    const id = newId();
    await store.append(`s-${newId()}`, [event(id)], { expectedRevision: 'no_stream' });
    const again = new AbortController();
    for await (const e of store.subscribeToAll({ signal: again.signal })) if (e.id === id) again.abort();
  });

  it('delivers every event exactly once while many concurrent writers commit in random order', async () => {
    const writers = 16;
    const perWriter = 40;
    const appended = new Set<string>();
    const seen: string[] = [];
    const controller = new AbortController();
    let checkpoint: Position | undefined;
    const reading = (async () => {
      for await (const e of store.subscribeToAll({ signal: controller.signal })) {
        seen.push(e.id);
        checkpoint = e.position;
      }
    })();

    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            const id = newId();
            await store.append(`writer-${w}-${i % 4}`, [event(id)], { expectedRevision: 'any', transaction: client });
            // Hold the transaction open for a random moment so commits land out of sequence order.
            await sleep(Math.random() * 8);
            await client.query('COMMIT');
            appended.add(id);
          } finally {
            client.release();
          }
        }
      }),
    );
    // One more, after them all: every event the reader yields before it (a duplicate too) is in `seen` by then.
    const last = newId();
    await store.append(`s-${newId()}`, [event(last)], { expectedRevision: 'no_stream' });
    appended.add(last);
    await waitUntil(() => seen.includes(last), 10_000, 'the last event to arrive');
    controller.abort();
    await reading;
    expect(appended.size).toBe(writers * perWriter + 1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(checkpoint).toBeDefined();
    // Resuming from the last checkpoint yields nothing more: nothing was left behind it.
    expect(await store.readAll({ after: checkpoint! })).toEqual([]);
  }, 30_000);
});

function event(id: string) {
  return {
    id,
    type: 'Happened',
    data: {},
    metadata: { userId: null, correlationId: id, causationId: null, schemaVersion: 1 },
  };
}
