/**
 * Backbone benchmark: event store appends per second with 1 and with 16 concurrent writers, beside
 * the event store a team would take instead (emmett's PostgreSQL store, `@event-driven-io/emmett-postgresql`,
 * on the same PostgreSQL, its own tables, a pool as large as ours), and the lag from an append's commit to
 * its consumer's handled commit, through the relay and JetStream (p50 / p99). Then a project created with
 * its row in a project list, each writer waiting until it can read the row back: emmett's append with an
 * inline projection (one transaction) beside Shiplog's append, relay, JetStream and consumer. Real
 * PostgreSQL and NATS; a database and NATS namespace of its own.
 */
import { projections, STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import {
  type PostgresEventStore as EmmettStore,
  getPostgreSQLEventStore,
  postgreSQLProjection,
} from '@event-driven-io/emmett-postgresql';
import { PostgresEventStore } from '@shiplog/event-store/postgres';
import { newId } from '@shiplog/events';
import {
  connectBus,
  type Logger,
  migrateMessagingTables,
  pipelined,
  startConsumer,
  startRelay,
} from '@shiplog/messaging';
import { createTestBusNamespace, createTestDatabase, natsUrl } from '@shiplog/testing';
import pg from 'pg';

export interface BackboneResult {
  appendsPerSecond1: number;
  appendsPerSecond16: number;
  /** Each append's time with 16 writers, 99th percentile (ms). */
  appendP99Ms16: number;
  /** The same appends to emmett's PostgreSQL event store, in the same rounds. */
  emmettAppendsPerSecond1: number;
  emmettAppendsPerSecond16: number;
  emmettAppendP99Ms16: number;
  /** Shiplog's appends/s with 16 writers over emmett's, and its p99 over emmett's. */
  appendsToEmmett: number;
  p99ToEmmett: number;
  /** A bare INSERT of the same event row into a plain table, with the same 16 writers, in the same run. */
  bareInsertsPerSecond16: number;
  /** appendsPerSecond16 / bareInsertsPerSecond16: comparable across days on a shared machine. */
  appendRatio: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  lagSamples: number;
  /**
   * A project created and its project-list row readable, 16 writers: emmett's append with an inline
   * projection (the row written in the append's transaction), and Shiplog's append with the row written
   * by a consumer behind the relay and JetStream, the writer waiting for the consumer's position (as the
   * gateway's read-your-writes does).
   */
  emmettProjectedPerSecond16: number;
  emmettProjectedP99Ms16: number;
  projectedPerSecond16: number;
  projectedP99Ms16: number;
}

const quiet: Logger = { info: () => {}, warn: () => {}, error: (o) => console.error(o) };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const event = (data: unknown) => ({
  id: newId(),
  type: 'UserLoggedIn',
  data,
  metadata: { userId: null, correlationId: newId(), causationId: null, schemaVersion: 1 },
});

/** Operations per second, and each one's time: `writers` loops each doing `once` until `seconds` are up. */
async function timed(
  writers: number,
  seconds: number,
  once: () => Promise<unknown>,
): Promise<{ perSecond: number; p99Ms: number }> {
  const deadline = performance.now() + seconds * 1000;
  const times: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        const began = performance.now();
        await once();
        times.push(performance.now() - began);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { perSecond: times.length / ((performance.now() - start) / 1000), p99Ms: percentile(times, 99) };
}

const rate = async (writers: number, seconds: number, once: () => Promise<unknown>) =>
  (await timed(writers, seconds, once)).perSecond;

// A create-style command: a new stream, expected to be absent.
const appendRate = (store: PostgresEventStore, writers: number, seconds: number) =>
  timed(writers, seconds, () =>
    store.append(`bench-${newId()}`, [event({ userId: newId(), at: new Date().toISOString() })], {
      expectedRevision: 'no_stream',
    }),
  );

// The same command on emmett's store: the same event (type, data, metadata), a new stream.
const emmettAppendRate = (store: EmmettStore, writers: number, seconds: number) =>
  timed(writers, seconds, () => {
    const { type, data, metadata } = event({ userId: newId(), at: new Date().toISOString() });
    return store.appendToStream(`bench-${newId()}`, [{ type, data: data as Record<string, unknown>, metadata }], {
      expectedStreamVersion: STREAM_DOES_NOT_EXIST,
    });
  });

// A new project's event and its list row, as the project list keeps it (id, owner, creation time, document).
const projectCreated = () => {
  const projectId = newId();
  const userId = newId();
  const createdAt = new Date().toISOString();
  return {
    id: newId(),
    type: 'ProjectCreated',
    data: {
      projectId,
      userId,
      name: 'Benchmark project',
      description: 'Created by the backbone benchmark',
      status: 'idea',
      cost: 0,
      createdAt,
    },
    metadata: { userId, correlationId: newId(), causationId: null, schemaVersion: 1 },
  };
};
type ProjectCreatedData = ReturnType<typeof projectCreated>['data'];
const listRow = (table: string, data: ProjectCreatedData): [string, unknown[]] => [
  `INSERT INTO bench.${table} (id, user_id, created_at, doc) VALUES ($1, $2, $3, $4)`,
  [data.projectId, data.userId, data.createdAt, JSON.stringify({ ...data, id: data.projectId })],
];
const createListTable = (pool: pg.Pool, table: string) =>
  pool.query(`CREATE TABLE IF NOT EXISTS bench.${table} (
    id uuid PRIMARY KEY, user_id uuid NOT NULL, created_at timestamptz NOT NULL, doc jsonb NOT NULL)`);

/**
 * The yardstick for appends: the same event row (id, stream, revision, type, data, metadata) inserted
 * into a plain table with the events table's columns and keys, one INSERT per event, no checks.
 */
async function bareInsertRate(pool: pg.Pool, writers: number, seconds: number): Promise<number> {
  await pool.query(`CREATE TABLE IF NOT EXISTS bench.bare_events (
    global_position bigserial PRIMARY KEY, event_id uuid NOT NULL UNIQUE, stream_id text NOT NULL,
    stream_revision bigint NOT NULL, type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(), UNIQUE (stream_id, stream_revision))`);
  return rate(writers, seconds, () => {
    const e = event({ userId: newId(), at: new Date().toISOString() });
    return pool.query(
      'INSERT INTO bench.bare_events (event_id, stream_id, stream_revision, type, data, metadata) VALUES ($1, $2, 0, $3, $4, $5)',
      [e.id, `bench-${newId()}`, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)],
    );
  });
}

export async function runBackbone(): Promise<BackboneResult> {
  const db = await createTestDatabase('bench');
  const ns = createTestBusNamespace('bench');
  const pool = new pg.Pool({ ...pipelined, connectionString: db.url, max: 24 });
  pool.on('error', () => {});
  const bus = await connectBus({ url: natsUrl, namespace: ns.namespace });
  // As many connections as Shiplog's store gets (emmett's own default pool has pg's 10).
  const emmettPool = new pg.Pool({ connectionString: db.url, max: 24 });
  const emmett = getPostgreSQLEventStore(db.url, { connectionOptions: { pool: emmettPool } });
  // The same store with the project list as an inline projection, written in each append's transaction.
  const emmettProjected = getPostgreSQLEventStore(db.url, {
    connectionOptions: { pool: emmettPool },
    projections: projections.inline([
      postgreSQLProjection<{ type: 'ProjectCreated'; data: ProjectCreatedData }>({
        name: 'project-list',
        canHandle: ['ProjectCreated'],
        handle: async (events, { connection }) => {
          for (const event of events) await connection.client.query(...listRow('emmett_project_list', event.data));
        },
      }),
    ]),
  });
  try {
    const store = new PostgresEventStore(pool, 'bench');
    await store.migrate();
    await migrateMessagingTables(pool, 'bench');
    await appendRate(store, 4, 1); // warm-up
    await emmettAppendRate(emmett, 4, 1); // warm-up, and emmett makes its tables
    const appendsPerSecond1 = (await appendRate(store, 1, 5)).perSecond;
    const emmettAppendsPerSecond1 = (await emmettAppendRate(emmett, 1, 5)).perSecond;
    // The store, emmett's and the bare yardstick alternate, twice each, so a slow spell lands on all alike.
    await bareInsertRate(pool, 4, 1); // warm-up
    const appends: { perSecond: number; p99Ms: number }[] = [];
    const emmetts: { perSecond: number; p99Ms: number }[] = [];
    const bare: number[] = [];
    for (let round = 0; round < 2; round++) {
      appends.push(await appendRate(store, 16, 5));
      emmetts.push(await emmettAppendRate(emmett, 16, 5));
      bare.push(await bareInsertRate(pool, 16, 5));
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const appendsPerSecond16 = mean(appends.map((a) => a.perSecond));
    const appendP99Ms16 = mean(appends.map((a) => a.p99Ms));
    const emmettAppendsPerSecond16 = mean(emmetts.map((a) => a.perSecond));
    const emmettAppendP99Ms16 = mean(emmetts.map((a) => a.p99Ms));
    const bareInsertsPerSecond16 = (bare[0]! + bare[1]!) / 2;

    // Lag: events appended at a steady pace while the relay and a consumer run, as in a service.
    await pool.query(
      'CREATE TABLE IF NOT EXISTS bench.lag (event_id uuid PRIMARY KEY, lag_ms double precision NOT NULL)',
    );
    const relay = await startRelay({ store, bus, pool, schema: 'bench', source: 'identity', logger: quiet });
    const consumer = await startConsumer({
      bus,
      pool,
      schema: 'bench',
      name: 'bench-lag',
      sources: ['identity'],
      logger: quiet,
      handlers: {
        ProjectCreated: async (e, tx) => {
          await tx.query(...listRow('project_list', e.data as ProjectCreatedData));
        },
        UserLoggedIn: async (e, tx) => {
          const { committedAt } = e.data as { committedAt?: number };
          if (committedAt === undefined) return;
          // Measured inside the handler's transaction, just before its commit.
          await tx.query('INSERT INTO bench.lag (event_id, lag_ms) VALUES ($1, $2)', [
            e.id,
            performance.timeOrigin + performance.now() - committedAt,
          ]);
        },
      },
    });
    // Let the consumer drain the append-rate events before measuring.
    const backlogEnd = (await store.readAll({ after: undefined, limit: 1_000_000 })).at(-1)!.position;
    await consumer.waitForPosition('identity', backlogEnd, 120_000);

    const samples = 1000;
    const perSecond = 200;
    for (let i = 0; i < samples; i++) {
      // The clock starts before the append, so the figure includes the append's own round trip.
      const committedAt = performance.timeOrigin + performance.now();
      await store.append(`lag-${newId()}`, [event({ userId: newId(), at: new Date().toISOString(), committedAt })], {
        expectedRevision: 'no_stream',
      });
      await new Promise((r) => setTimeout(r, 1000 / perSecond));
    }
    const deadline = Date.now() + 30_000;
    let lags: number[] = [];
    while (Date.now() < deadline) {
      const { rows } = await pool.query<{ lag_ms: number }>('SELECT lag_ms FROM bench.lag');
      lags = rows.map((r) => r.lag_ms);
      if (lags.length >= samples) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // A project created and its list row readable: emmett's inline projection against Shiplog's
    // consumer, alternating twice each as above.
    await createListTable(pool, 'project_list');
    await createListTable(pool, 'emmett_project_list');
    const emmettProjectedCreate = () => {
      const { type, data, metadata } = projectCreated();
      return emmettProjected.appendToStream(`project-${data.projectId}`, [{ type, data, metadata }], {
        expectedStreamVersion: STREAM_DOES_NOT_EXIST,
      });
    };
    const projectedCreate = async () => {
      const e = projectCreated();
      const { position } = await store.append(`project-${e.data.projectId}`, [e], { expectedRevision: 'no_stream' });
      if (!(await consumer.waitForPosition('identity', position, 10_000)))
        throw new Error('the project list did not catch up within 10 s');
    };
    await timed(4, 1, emmettProjectedCreate); // warm-up
    await timed(4, 1, projectedCreate);
    const projected: { perSecond: number; p99Ms: number }[] = [];
    const emmettProjectedRounds: { perSecond: number; p99Ms: number }[] = [];
    for (let round = 0; round < 2; round++) {
      projected.push(await timed(16, 5, projectedCreate));
      emmettProjectedRounds.push(await timed(16, 5, emmettProjectedCreate));
    }
    const rows = async (table: string) =>
      Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM bench.${table}`)).rows[0]!.n);
    if ((await rows('emmett_project_list')) === 0 || (await rows('project_list')) === 0)
      throw new Error('a project list stayed empty');

    await consumer.stop();
    await relay.stop();
    lags.sort((a, b) => a - b);
    return {
      appendsPerSecond1: Math.round(appendsPerSecond1),
      appendsPerSecond16: Math.round(appendsPerSecond16),
      appendP99Ms16: Math.round(appendP99Ms16 * 10) / 10,
      emmettAppendsPerSecond1: Math.round(emmettAppendsPerSecond1),
      emmettAppendsPerSecond16: Math.round(emmettAppendsPerSecond16),
      emmettAppendP99Ms16: Math.round(emmettAppendP99Ms16 * 10) / 10,
      appendsToEmmett: Math.round((appendsPerSecond16 / emmettAppendsPerSecond16) * 100) / 100,
      p99ToEmmett: Math.round((appendP99Ms16 / emmettAppendP99Ms16) * 100) / 100,
      bareInsertsPerSecond16: Math.round(bareInsertsPerSecond16),
      appendRatio: Math.round((appendsPerSecond16 / bareInsertsPerSecond16) * 100) / 100,
      lagP50Ms: Math.round(percentile(lags, 50) * 10) / 10,
      lagP99Ms: Math.round(percentile(lags, 99) * 10) / 10,
      lagMaxMs: Math.round((lags.at(-1) ?? Number.NaN) * 10) / 10,
      lagSamples: lags.length,
      emmettProjectedPerSecond16: Math.round(mean(emmettProjectedRounds.map((r) => r.perSecond))),
      emmettProjectedP99Ms16: Math.round(mean(emmettProjectedRounds.map((r) => r.p99Ms)) * 10) / 10,
      projectedPerSecond16: Math.round(mean(projected.map((r) => r.perSecond))),
      projectedP99Ms16: Math.round(mean(projected.map((r) => r.p99Ms)) * 10) / 10,
    };
  } finally {
    await emmett.close();
    await emmettProjected.close();
    await emmettPool.end().catch(() => undefined);
    await bus.close();
    await ns.drop();
    await pool.end();
    await db.drop();
  }
}
