import type { RequestListener } from 'node:http';
import type { EventStore, RecordedEvent } from '@shiplog/event-store';
import { eventStoreMigrations, PostgresEventStore, SessionConnection } from '@shiplog/event-store/postgres';
import {
  type Bus,
  type BusEvent,
  type ConsumerOptions,
  ConsumerProgress,
  type ConsumerView,
  connectBus,
  type EventOpener,
  followConsumer,
  inTransaction,
  lockConsumer,
  messagingMigrations,
  pipelined,
  type Relay,
  startConsumer,
  startRelay,
} from '@shiplog/messaging';
import { type MigrationSource, runMigrations } from '@shiplog/migrations';
import { inSpan, SpanKind, startSpan, startTracing, type Tracing, traceparentOf } from '@shiplog/telemetry';
import { createMetrics, type Metrics } from '@shiplog/telemetry/metrics';
import { type KeyRow, SealedEventStore, Vault, vaultMigrations } from '@shiplog/vault';
import type express from 'express';
import pg from 'pg';
import type { z } from 'zod';
import {
  busOptions,
  devSecret,
  loadConfig,
  type ServiceEnv,
  type ServiceName,
  serviceDirectory,
  serviceUrlsOf,
  vaultKeys,
} from './config.ts';
import { busHandlers, type ConsumerDefinition, type ProjectionDefinition } from './consumers.ts';
import { createHttpApp, type DeclaredRoute, type LeanRead } from './http.ts';
import { serveHttp } from './http-server.ts';
import { holdLeadership } from './leadership.ts';
import { createLogger, type LogDestination, type Logger } from './logger.ts';

import { ServiceClients } from './service-clients.ts';

export interface ServiceContext<Env extends ServiceEnv> {
  name: ServiceName;
  config: Env;
  logger: Logger;
  pool: pg.Pool;
  /** Seals personal data on append and opens it on read (see `@shiplog/vault`). */
  store: SealedEventStore;
  vault: Vault;
  bus: Bus;
  /** The service's PostgreSQL schema: its read models, and its events with the PostgreSQL store. */
  schema: string;
  internalTokenSecret: string;
  /** Calls to the other services, as the signed caller (`@shiplog/contracts` says what they answer). */
  services: ServiceClients;
  /** The process's Prometheus metrics, for what only the service can measure (a reminder's delay). */
  metrics: Metrics;
  /**
   * The time, for everything the service's handlers, timers and commands decide by it: the clock a
   * test injects (`startService`'s `now`), as deciders get theirs passed in.
   */
  now: () => Date;
}

export interface ServiceParts {
  routes: (router: express.Router) => void;
  /** Reads answered without Express, by exact path: for the few that carry the load (`LeanRead`). */
  reads?: Record<string, LeanRead>;
  /** Exact paths whose body the route gets unparsed, as a Buffer (signed webhooks). */
  rawBodyPaths?: string[];
  /** Runs first when the service stops (e.g. a scheduler's loop). */
  onStop?: () => Promise<void>;
  consumers?: ConsumerDefinition[];
  readiness?: Record<string, () => Promise<unknown>>;
}

export interface ServiceDefinition<Env extends ServiceEnv> {
  name: ServiceName;
  /** Read models kept by consumers; `pnpm projections:rebuild` rebuilds them. */
  projections?: ProjectionDefinition[];
  env: z.ZodType<Env>;
  /** Absolute path of the service's `migrations/` folder. */
  migrationsDir: string;
  /**
   * Deletes everything the service keeps of a deleted user (`UserDeleted`), in the erasure consumer's
   * transaction. The user's events are already unreadable (crypto-shredded, see `@shiplog/vault`).
   */
  forgetUser?: (userId: string, tx: pg.PoolClient) => Promise<void>;
  setup: (context: ServiceContext<Env>) => ServiceParts | Promise<ServiceParts>;
}

export interface RunningService<Env extends ServiceEnv> {
  url: string;
  /** Every route the service answers (see `createHttpApp`). */
  routes: DeclaredRoute[];
  /** Its request handler, which a gateway in the same process calls without a socket. */
  listener: RequestListener;
  context: ServiceContext<Env>;
  consumers: ConsumerView[];
  /** Whether this replica runs the service's relay and consumers (see leadership.ts). */
  readonly leading: boolean;
  stop: () => Promise<void>;
}

/**
 * Every table a service's start makes, schema by schema, in order: in its own schema the event
 * store's (with the PostgreSQL store), the relay's and consumers', then its own; the vault's.
 */
export function serviceMigrations(
  definition: Pick<ServiceDefinition<ServiceEnv>, 'name' | 'migrationsDir'>,
  options: { postgresStore: boolean } = { postgresStore: true },
): { schema: string; sources: MigrationSource[] }[] {
  return [
    {
      schema: definition.name,
      sources: [
        ...(options.postgresStore ? [eventStoreMigrations] : []),
        messagingMigrations,
        { directory: definition.migrationsDir },
      ],
    },
    { schema: 'vault', sources: [vaultMigrations] },
  ];
}

/**
 * Wires one service: config → logger → database (migrations) → event store → bus → leadership (the
 * relay and consumers, on the leader) → HTTP. `stop` undoes it in reverse order: no new requests,
 * in-flight ones finish, consumers and the relay stop between events, connections drain.
 */
export async function startService<Env extends ServiceEnv>(
  definition: ServiceDefinition<Env>,
  env: NodeJS.ProcessEnv = process.env,
  options: { now?: () => Date; database?: Database; log?: LogDestination } = {},
): Promise<RunningService<Env>> {
  const config = loadConfig(definition.env, env);
  const { name } = definition;
  const logger = createLogger(name, config.LOG_LEVEL, options.log ?? config.LOG_FILE);
  // The process's database connections: its own, or those it shares with the services beside it.
  const database = options.database ?? openDatabase(config, name, logger);
  const { pool, session } = database;
  const schema = name;

  // Every table by the one runner.
  const rawStore = await openEventStore(config, pool, name, session);
  const applied: string[] = [];
  for (const step of serviceMigrations(definition, { postgresStore: rawStore instanceof PostgresEventStore }))
    applied.push(...(await runMigrations(pool, step.schema, step.sources)));
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const vault = new Vault(pool, vaultKeys(config));
  const wrapped = await vault.rewrapKeys();
  if (wrapped > 0) logger.info({ wrapped }, 'data keys wrapped with the vault master key');
  const metrics = createMetrics(name);
  const store = timedAppends(new SealedEventStore(rawStore, vault), metrics);
  const open = vaultOpener(vault);
  const tracing = await startTracing(name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const around = tracing.enabled ? tracedReaction(tracing) : undefined;
  const bus = await connectBus({ ...busOptions(config), name: `shiplog-${name}` });
  const internalTokenSecret = config.INTERNAL_TOKEN_SECRET ?? devSecret('INTERNAL_TOKEN_SECRET');
  const services = new ServiceClients(serviceUrlsOf(config), internalTokenSecret);
  const context: ServiceContext<Env> = {
    name,
    config,
    logger,
    pool,
    store,
    vault,
    bus,
    schema,
    internalTokenSecret,
    services,
    metrics,
    now: options.now ?? (() => new Date()),
  };

  const parts = await definition.setup(context);
  // Reactions may append to this service's store inside their transaction; projections never do, so
  // only reactions take the append lock (which readers of the store wait for).
  const lockForAppend = rawStore instanceof PostgresEventStore ? rawStore.appendLockStatement : undefined;
  const consumed: { definition: ConsumerDefinition; extra: Partial<ConsumerOptions> }[] = [
    ...(definition.projections ?? []).map((c) => ({ definition: c, extra: {} })),
    ...(parts.consumers ?? []).map((c) => ({ definition: c, extra: { beforeHandling: lockForAppend } })),
  ];
  if (definition.forgetUser) {
    const others = consumed.map((c) => `${name}-${c.definition.name}`).sort();
    consumed.push({ definition: erasureConsumer(schema, others, definition.forgetUser), extra: {} });
  }
  const tracked = consumed.map(({ definition: c, extra }) => {
    const options: ConsumerOptions = {
      bus,
      pool,
      schema,
      name: `${name}-${c.name}`,
      sources: c.sources,
      handlers: busHandlers(c.handlers),
      ...(c.only ? { only: c.only } : {}),
      logger,
      open,
      around,
      ...extra,
    };
    options.progress = new ConsumerProgress(pool, schema, options.name);
    return { options, view: followConsumer(options.progress, options) };
  });
  // Every replica serves HTTP and waits on the consumers' progress; only the leader runs the relay and
  // the consumers, which are single-writer (see leadership.ts and docs/scaling.md).
  const leadership = await holdLeadership({
    session,
    key: schema,
    intervalMs: config.LEADER_INTERVAL_MS,
    logger,
    lead: () =>
      lead({
        relay: {
          store,
          bus,
          pool,
          schema,
          source: name,
          logger,
          ...(tracing.enabled ? { traced: tracedPublish(tracing) } : {}),
        },
        consumers: tracked.map((t) => t.options),
      }),
  });
  const consumers = tracked.map((t) => t.view);
  measureConsumers(metrics, { bus, pool, schema, names: tracked.map(({ options }) => options.name) });
  const app = createHttpApp({
    metrics: { metrics, access: { token: config.METRICS_TOKEN, production: config.NODE_ENV === 'production' } },
    logger,
    internalTokenSecret,
    consumers,
    tracing,
    routes: parts.routes,
    ...(parts.reads ? { reads: parts.reads } : {}),
    ...(parts.rawBodyPaths ? { rawBodyPaths: parts.rawBodyPaths } : {}),
    readiness: {
      database: () => pool.query('SELECT 1'),
      bus: () => bus.nc.flush(),
      ...(config.EVENT_STORE === 'esdb' ? { eventStore: () => store.readAll({ limit: 1 }) } : {}),
      ...parts.readiness,
    },
  });
  const http = await serveHttp(app.listener, config.SERVICE_PORT ?? serviceDirectory[name], config.SERVICE_HOST);
  const url = `http://${config.SERVICE_HOST}:${http.port}`;
  logger.info({ url }, `${name} service listening`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info('stopping');
      await http.close();
      await parts.onStop?.();
      await services.close();
      await leadership.stop();
      await bus.close().catch(() => undefined);
      await store.close();
      if (database !== options.database) await database.end();
      await tracing.shutdown().catch(() => undefined);
      logger.info('stopped');
    })();
    return stopping;
  };
  return {
    url,
    routes: app.routes,
    listener: app.listener,
    context,
    consumers,
    get leading() {
      return leadership.leading;
    },
    stop,
  };
}

/**
 * What the leader runs: the relay and every consumer. One that does not start (NATS refused it, say)
 * stops the others: nothing runs half-led, and the next round tries again. Answers how to stop them.
 */
async function lead(parts: {
  relay: Parameters<typeof startRelay>[0];
  consumers: ConsumerOptions[];
}): Promise<() => Promise<void>> {
  const relay: Relay = await startRelay(parts.relay);
  const started = await Promise.allSettled(parts.consumers.map((options) => startConsumer(options)));
  const consumers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await relay.stop();
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return stop;
}

/**
 * A process's PostgreSQL connections: the pool, and the session connection that holds its leader locks
 * and its relays' LISTEN. A service on its own opens its own; the one-process mode opens one for every
 * service in it (scripts/one-process.ts), so the whole app holds the pool's connections and one more.
 */
export interface Database {
  pool: pg.Pool;
  session: SessionConnection;
  end(): Promise<void>;
}

/** Opens a process's `Database` (`name` shows in `pg_stat_activity`: a service's, or the one process's). */
export function openDatabase(config: ServiceEnv, name: string, logger: Logger): Database {
  const pool = databasePool(config, name, logger);
  const session = new SessionConnection({
    connectionString: config.DATABASE_URL,
    applicationName: `shiplog-${name}:session`,
    // A connection that stops answering (its host cut off) fails the leadership round instead of holding it.
    queryTimeoutMs: Math.max(5 * config.LEADER_INTERVAL_MS, 5000),
    onError: (error) => logger.warn({ err: error }, 'session connection lost'),
  });
  return {
    pool,
    session,
    async end() {
      await session.end();
      await pool.end();
    },
  };
}

/** A connection pool, its lost connections logged rather than ending the process. */
function databasePool(config: ServiceEnv, name: string, logger: Logger): pg.Pool {
  const pool = new pg.Pool({
    ...pipelined,
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_MAX,
    application_name: `shiplog-${name}`,
  });
  pool.on('error', (error) => logger.error({ err: error }, 'idle database connection failed'));
  // A connection lost while checked out (its backend terminated, the server restarted) emits 'error'
  // on its client; heard here, it fails the work using it, which retries on a new one, instead of
  // ending the process.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn({ err: error }, 'database connection lost'));
  });
  return pool;
}

/**
 * Account deletion's reaction. It first waits out every batch in flight of this service's other
 * consumers (`others`, their locks): a batch that opened the user's events before the key was
 * destroyed commits before these deletes, and every later batch can no longer open them. So nothing
 * is left.
 */
function erasureConsumer(
  schema: string,
  others: string[],
  forgetUser: NonNullable<ServiceDefinition<ServiceEnv>['forgetUser']>,
): ConsumerDefinition {
  return {
    name: 'erasure',
    sources: ['identity'],
    only: 'UserDeleted',
    handlers: {
      UserDeleted: async (event, tx) => {
        for (const other of others) await lockConsumer(tx, schema, other);
        const { userId } = event.data;
        await forgetUser(userId, tx);
        // Parked events hold their personal data sealed, but their errors may quote it.
        await tx.query(`DELETE FROM ${schema}.parked_events WHERE user_id = $1`, [userId]);
      },
    },
  };
}

/** The consumers' backlog and parked events, read at each scrape (JetStream knows each durable's backlog whichever replica asks). */
function measureConsumers(
  metrics: Metrics,
  { bus, pool, schema, names }: { bus: Bus; pool: pg.Pool; schema: string; names: string[] },
): void {
  metrics.readConsumers({
    pending: async () => {
      const counts = await Promise.allSettled(
        names.map(async (name) => {
          const info = await bus.jsm.consumers.info(bus.stream, name);
          return [name, info.num_pending + info.num_ack_pending] as const;
        }),
      );
      return new Map(counts.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
    },
    parked: async () => {
      const { rows } = await pool.query<{ consumer: string; count: string }>(
        `SELECT consumer, count(*) AS count FROM ${schema}.parked_events GROUP BY consumer`,
      );
      const counts = new Map(rows.map((r) => [r.consumer, Number(r.count)]));
      return new Map(names.map((name) => [name, counts.get(name) ?? 0]));
    },
  });
}

/** Entry point of a service process: start, and stop cleanly on SIGINT / SIGTERM. */
/**
 * A process the app's supervisor started (scripts/start.ts, over an IPC channel) ends with the
 * supervisor, however that ends (Ctrl-C, a kill, a crash, a test run stopped): the channel closes, and
 * the process stops as on SIGTERM, or at once while it is still starting. Nothing is left holding its
 * port and database connections.
 */
export function endWithSupervisor(): void {
  // The channel closed while this process was still loading its code (the supervisor ended then, and
  // its 'disconnect' went unheard): it stops now.
  if (typeof process.send === 'function' && !process.connected) {
    process.kill(process.pid, 'SIGTERM');
    return;
  }
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

export async function runServiceProcess<Env extends ServiceEnv>(definition: ServiceDefinition<Env>): Promise<void> {
  endWithSupervisor();
  let running: RunningService<Env>;
  try {
    running = await startService(definition);
  } catch (error) {
    process.stderr.write(`${definition.name}: failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  stopOnSignals(definition.name, () => running.stop());
}

/** How long a process may take to stop cleanly before it ends anyway (Kubernetes kills at 30 s). */
export const STOP_DEADLINE_MS = 25_000;

/**
 * SIGINT or SIGTERM stops the process cleanly with `stop`, then ends it. A stop that does not end
 * (a connection that never drains) ends it anyway after `STOP_DEADLINE_MS`: a process told to stop
 * never stays behind. A second signal (Ctrl-C reaches the supervisor's children too, which it also
 * tells to stop) changes nothing.
 */
export function stopOnSignals(name: string, stop: () => Promise<void>, deadlineMs = STOP_DEADLINE_MS): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`${name}: did not stop within ${deadlineMs / 1000} s: ending now\n`);
      process.exit(1);
    }, deadlineMs);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${name}: unclean stop: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** The usual `forgetUser`: delete the user's rows from the given tables (each has `user_id`). */
export function deleteUserRows(
  ...tables: (string | { table: string; unless: string })[]
): NonNullable<ServiceDefinition<ServiceEnv>['forgetUser']> {
  return async (userId, tx) => {
    for (const entry of tables) {
      // `unless`: the rows that are not the user's alone to take away (a team workspace's project they made).
      const [table, keep] = typeof entry === 'string' ? [entry, null] : [entry.table, entry.unless];
      await tx.query(`DELETE FROM ${table} WHERE user_id = $1${keep ? ` AND NOT (${keep})` : ''}`, [userId]);
    }
  };
}

/**
 * One PostgreSQL transaction for writes that must commit with an append (e.g. destroying a user's key
 * together with `UserDeleted`): with the PostgreSQL store it holds the append lock, and appends join it
 * through `{ transaction: tx }`. EventStoreDB appends cannot join; there they land before the commit.
 */
export async function inAppendTransaction<T>(
  context: { pool: pg.Pool; store: SealedEventStore },
  work: (tx: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(context.pool, async (tx) => {
    if (context.store.inner instanceof PostgresEventStore) await context.store.inner.lockForAppend(tx);
    return work(tx);
  });
}

/**
 * Each publish of the relay a span, child of the span that appended its event (the traceparent kept
 * in its metadata); the message carries it in its `traceparent` header.
 */
function tracedPublish(tracing: Tracing) {
  return (event: RecordedEvent, send: (traceparent: string | undefined) => Promise<void>) => {
    const span = startSpan(tracing, `publish ${event.type}`, SpanKind.PRODUCER, event.metadata.traceparent, {
      'messaging.system': 'nats',
      'messaging.operation.type': 'send',
      'messaging.message.id': event.id,
    });
    return inSpan(span, () => send(traceparentOf(span)));
  };
}

/**
 * Each reaction a span, child of the relay's publish of its event (the message's header), or else of
 * the span that appended it (a rebuild's replay, or an event published untraced).
 */
function tracedReaction(tracing: Tracing) {
  return (event: BusEvent, consumer: string, handle: () => Promise<void>) =>
    inSpan(
      startSpan(tracing, `handle ${event.type}`, SpanKind.CONSUMER, event.publishedIn ?? event.metadata.traceparent, {
        'messaging.consumer.group.name': consumer,
        'messaging.message.id': event.id,
      }),
      handle,
    );
}

/** Consumers open events with keys read in their own transaction, never from a cache (see Vault.open). */
export function vaultOpener(vault: Vault): EventOpener {
  return {
    // The keys are read in the batch's first round trip, after its consumer lock.
    prefetch: (events) => vault.keysStatement(events),
    open: (events, tx, keyRows) =>
      vault.open(events, { client: tx, fresh: true, ...(keyRows ? { keyRows: keyRows as KeyRow[] } : {}) }),
  };
}

/**
 * A service's event store: its schema's tables in PostgreSQL, or its namespace in EventStoreDB. The
 * EventStoreDB client (gRPC, about 14 MB of memory a process) is loaded only where it is chosen.
 */
export async function openEventStore(
  config: ServiceEnv,
  pool: pg.Pool,
  service: ServiceName,
  session?: SessionConnection,
): Promise<EventStore> {
  if (config.EVENT_STORE === 'esdb') {
    const { EsdbEventStore } = await import('@shiplog/event-store/esdb');
    return new EsdbEventStore(config.EVENTSTORE_URL!, `${config.BUS_NAMESPACE}_${service}`);
  }
  return new PostgresEventStore(pool, service, session ? { session } : {});
}

/** The store, with each append timed into `metrics` (shiplog_event_store_append_duration_seconds). */
function timedAppends<S extends EventStore>(store: S, metrics: Metrics): S {
  const append = store.append.bind(store);
  store.append = async (...args) => {
    const started = performance.now();
    try {
      return await append(...args);
    } finally {
      metrics.appended((performance.now() - started) / 1000);
    }
  };
  return store;
}
