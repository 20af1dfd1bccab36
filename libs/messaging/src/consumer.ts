import { AckPolicy, type ConsumerMessages, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { comparePositions, type Position, parsePosition } from '@shiplog/events';
import type pg from 'pg';
import type { Bus } from './bus.ts';
import { lockConsumer, lockName, migrateConsumerTables } from './consumer-tables.ts';
import { asBusEvent, type BusEvent, busEventPosition } from './envelope.ts';
import type { Logger } from './logger.ts';
import { isLastingFailure, parkStatement } from './parking.ts';
import { inTransaction, sqlLiteral, storable, unstorable } from './sql.ts';

/**
 * A reaction to one event. It receives the consumer's open transaction: every write it makes (a read
 * model row, an append to the service's PostgreSQL event store) commits together with the record that
 * the event was handled, so a redelivered event has no second effect.
 */
export type Handler = (event: BusEvent, tx: pg.PoolClient, batch: Batch) => Promise<void>;

/**
 * What the reactions of one batch share. A projection that only writes can `defer` its writes: they
 * go to PostgreSQL with the batch's commit, in one round trip, instead of one round trip each while
 * the batch's later events wait. Under load a batch holds tens of events, so that is most of a
 * projector's cost and lag.
 */
export interface Batch {
  /** The batch's events this consumer reacts to, opened, in order: read what they all need in one query. */
  readonly events: readonly BusEvent[];
  /**
   * Queues a write (its values written in with `literal`) to run just before the commit, after every
   * reaction of the batch, in the order queued. Statements run meanwhile do not see it: a reaction
   * that reads, or writes immediately, what an earlier one may have deferred calls `flush` first.
   */
  defer(sql: string): void;
  /** Runs the writes deferred so far, now, in one round trip (nothing to do when none are). */
  flush(): Promise<void>;
  /** A value as an SQL literal for `defer` (see sqlLiteral). */
  literal(value: unknown): string;
  /** State the batch's reactions share, under a key of the handler's own; gone with the batch. */
  readonly shared: Map<unknown, unknown>;
}

function batchOf(tx: pg.ClientBase, events: BusEvent[]): { batch: Batch; deferred: string[] } {
  const deferred: string[] = [];
  const batch: Batch = {
    events,
    defer: (sql) => deferred.push(sql),
    async flush() {
      if (deferred.length > 0) await tx.query(deferred.splice(0).join(';\n'));
    },
    literal: (value) => sqlLiteral(tx, value),
    shared: new Map(),
  };
  return { batch, deferred };
}

/**
 * Turns events as carried (personal data sealed) into events as handled, reading what it needs in the
 * batch's transaction; an event that can no longer be opened (its user was forgotten) comes back null
 * and is recorded as handled without a reaction.
 */
export interface EventOpener {
  /**
   * One statement reading what opening `events` needs (values written in with `literal`): sent in the
   * batch's first round trip, inside its transaction, with its rows passed to `open`.
   */
  prefetch?: (events: BusEvent[], literal: (value: unknown) => string) => string | undefined;
  open: (events: BusEvent[], tx: pg.PoolClient, prefetched?: pg.QueryResultRow[]) => Promise<(BusEvent | null)[]>;
}

export interface ConsumerOptions {
  bus: Bus;
  pool: pg.Pool;
  schema: string;
  /** Durable consumer name, unique per purpose within the namespace, e.g. `billing-trials`. */
  name: string;
  /** The services whose events this consumer reads (NATS 2.9 allows one filter subject: one source, or all). */
  sources: string[];
  /**
   * Only this event type of the one source (e.g. identity's `UserDeleted`). Such a consumer does not
   * see the source's other events, so it takes no part in read-your-writes waits.
   */
  only?: string;
  handlers: Record<string, Handler>;
  logger: Logger;
  /**
   * SQL run first in each batch's transaction, before any write: a reaction that appends to a
   * PostgreSQL event store takes that store's append lock here (PostgresEventStore.appendLockStatement).
   */
  beforeHandling?: string;
  open?: EventOpener;
  /** Wraps each reaction (a tracing span, say). */
  around?: (event: BusEvent, consumer: string, handle: () => Promise<void>) => Promise<void>;
  /** Fault injection for tests: runs after the commit, before the ack. */
  beforeAck?: (event: BusEvent) => Promise<void> | void;
  ackWaitMs?: number;
  /**
   * Failed attempts with a lasting error (see isLastingFailure) before a batch is split into single
   * events, and before a single event that still fails is parked. Default 3.
   */
  attemptsBeforeParking?: number;
}

export interface Consumer {
  name: string;
  sources: readonly string[];
  /** Resolves once this consumer has handled every event of `source` up to `position`. */
  waitForPosition(source: string, position: Position, timeoutMs?: number): Promise<boolean>;
  /** Whether this process has seen this consumer handle `source` up to `position`, without a query or a wait. */
  hasReached(source: string, position: Position): boolean;
  position(source: string): Promise<Position | undefined>;
  stop(): Promise<void>;
}

/**
 * Handles events in the caller's transaction, in order: records each as handled (only events with a
 * reaction need the record: the others have no effect to repeat), opens the fresh ones, and runs their
 * reactions. An event already recorded, or a second copy within `events`, has no effect. `opening`
 * (whole statements, each ending in ';') goes in the same round trip as the record. Answers the
 * reactions' deferred writes (see Batch), for the caller to run before its commit.
 */
async function react(
  tx: pg.PoolClient,
  options: Pick<ConsumerOptions, 'schema' | 'handlers' | 'open' | 'around'> & { consumer: string },
  events: BusEvent[],
  opening = '',
): Promise<string[]> {
  const { schema, consumer, handlers } = options;
  const handled = events.filter((event) => handlers[event.type]);
  if (handled.length === 0) {
    if (opening) await tx.query(opening);
    return [];
  }
  // Simple protocol, one round trip: `opening`, the handled records (the ids as one escaped array
  // literal) and the opener's prefetch.
  const prefetch = options.open?.prefetch?.(handled, (value) => sqlLiteral(tx, value));
  const results = (await tx.query(
    `${opening}INSERT INTO ${schema}.handled_events (consumer, event_id)
     SELECT ${tx.escapeLiteral(consumer)}, unnest(${tx.escapeLiteral(`{${handled.map((e) => e.id).join(',')}}`)}::uuid[])
     ON CONFLICT DO NOTHING RETURNING event_id${prefetch ? `;\n${prefetch}` : ''}`,
  )) as unknown as pg.QueryResult | pg.QueryResult[];
  const all = Array.isArray(results) ? results : [results];
  const inserted = all.at(prefetch ? -2 : -1)!;
  const fresh = new Set(inserted.rows.map((r: { event_id: string }) => r.event_id));
  // `delete`: a second copy of one event has no effect either.
  const toHandle = handled.filter((event) => fresh.delete(event.id));
  if (toHandle.length === 0) return [];
  const opened = (
    options.open ? await options.open.open(toHandle, tx, prefetch ? all.at(-1)!.rows : undefined) : toHandle
  )
    .filter((e) => e !== null)
    .map((event) => (unstorable(event.data) ? { ...event, data: storable(event.data) } : event));
  const { batch, deferred } = batchOf(tx, opened);
  for (const event of opened) {
    const handle = () => handlers[event.type]!(event, tx, batch);
    await (options.around ? options.around(event, consumer, handle) : handle());
  }
  return deferred;
}

/**
 * A durable JetStream consumer with explicit acks. It handles events in stream order, in batches (one
 * transaction each), so its recorded position per source is a true high-water mark that
 * read-your-writes waits can rely on.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const { bus, pool, schema, name, handlers, logger } = options;
  await migrateConsumerTables(pool, schema);
  if (options.only && options.sources.length !== 1) throw new Error(`${name}: 'only' needs exactly one source`);
  const filter =
    options.sources.length === 1
      ? `${bus.namespace}.${options.sources[0]}.${options.only ?? '>'}`
      : `${bus.namespace}.>`;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const config = {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filter,
    // Room for batches in flight; order is kept by handling in stream order and retrying a failed batch in place.
    max_ack_pending: 1024,
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
  };
  try {
    await bus.jsm.consumers.info(bus.stream, name);
  } catch {
    await bus.jsm.consumers.add(bus.stream, config);
  }
  const consumer = await bus.js.consumers.get(bus.stream, name);
  let messages: ConsumerMessages | undefined;
  let stopped = false;
  // What this process has seen committed, per source. Positions only grow, so "at or past the target
  // here" is a safe yes without a query; other replicas' progress is read from the table.
  const seen = new Map<string, Position>();
  const remember = (source: string, position: Position) => {
    const known = seen.get(source);
    if (!known || comparePositions(position, known) > 0) seen.set(source, position);
  };

  const attempts = options.attemptsBeforeParking ?? 3;
  type Item = { message: JsMsg; event: BusEvent };
  const opening = (client: pg.ClientBase) =>
    `BEGIN; SELECT pg_advisory_xact_lock(hashtext(${client.escapeLiteral(lockName(schema, name))}));`;
  /** The positions the events reach, recorded, then the commit. */
  const closing = (client: pg.ClientBase, latest: Map<string, Position>) => {
    const rows = [...latest].map(
      ([source, p]) => `(${client.escapeLiteral(name)}, ${client.escapeLiteral(source)}, ${p.commit}, ${p.prepare})`,
    );
    return `INSERT INTO ${schema}.consumer_positions (consumer, source, commit_position, prepare_position)
       VALUES ${rows.join(', ')}
       ON CONFLICT (consumer, source) DO UPDATE
         SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position
         WHERE (consumer_positions.commit_position, consumer_positions.prepare_position)
             < (EXCLUDED.commit_position, EXCLUDED.prepare_position);
       COMMIT`;
  };

  /**
   * One transaction for a batch, in stream order: handled records, each fresh event's reaction,
   * positions. Answers the failure, rolled back, or undefined once committed.
   */
  const handleBatch = async (batch: Item[]): Promise<{ error: unknown } | undefined> => {
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      // The batch's first round trip: begin; this consumer's lock, which serialises with a rebuild of
      // its projection (see rebuildProjection) and with an erasure; `beforeHandling`; the handled
      // records and the opener's prefetch (see react). Simple-protocol statements carry escaped literals.
      const first = `${opening(client)}${options.beforeHandling ? ` ${options.beforeHandling};` : ''}\n`;
      const latest = new Map<string, Position>();
      for (const { event } of batch) latest.set(event.source, busEventPosition(event));
      // The last round trip: the reactions' deferred writes, the positions reached, and the commit.
      const last = closing(client, latest);
      if (batch.some((b) => handlers[b.event.type])) {
        const deferred = await react(
          client,
          { schema, consumer: name, handlers, open: options.open, around: options.around },
          batch.map((b) => b.event),
          first,
        );
        await client.query([...deferred, last].join(';\n'));
      } else {
        // Nothing to react to (another service's events on a shared subject): one round trip.
        await client.query(`${first}${last}`);
      }
      for (const [source, position] of latest) remember(source, position);
      return undefined;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      logger.error(
        { err: error, consumer: name, events: batch.map((b) => `${b.event.type} ${b.event.id}`) },
        'event handler failed; will retry',
      );
      return { error };
    } finally {
      client?.release();
    }
  };

  /**
   * Sets aside an event whose reaction keeps failing for a lasting reason, so that the events behind
   * it, every user's, go on: recorded as handled and in `parked_events` (as carried, personal data
   * still sealed, with the error), its position passed, in one transaction. Answers whether it was.
   */
  const park = async ({ event }: Item, failure: unknown): Promise<boolean> => {
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const position = busEventPosition(event);
      await client.query(
        `${opening(client)}\n${parkStatement(client, schema, name, event, failure)};\n${closing(client, new Map([[event.source, position]]))}`,
      );
      remember(event.source, position);
      logger.error(
        { err: failure, consumer: name, event: `${event.type} ${event.id}`, source: event.source },
        `event parked in ${schema}.parked_events: its reaction failed ${attempts} times on its own; later events go on`,
      );
      return true;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      logger.error({ err: error, consumer: name, event: event.id }, 'could not park an event; will retry');
      return false;
    } finally {
      client?.release();
    }
  };

  const stopping = new AbortController();
  /** Resolves after `ms`, or at once when the consumer stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      stopping.signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
    });

  /**
   * Commits `batch` and acks it. A failed attempt is retried in place, with a growing pause, its
   * messages and those `behind` it marked in progress. When the failure is a lasting one (see
   * isLastingFailure) `attempts` times running, a batch is split into its events, each settled on its
   * own, and a single event is parked. Answers false if the consumer stopped first.
   */
  const settle = async (batch: Item[], behind: () => JsMsg[]): Promise<boolean> => {
    for (let failures = 1, lasting = 0; ; failures++) {
      const failure = await handleBatch(batch);
      if (!failure) break;
      lasting = isLastingFailure(failure.error) ? lasting + 1 : 0;
      if (lasting >= attempts) {
        if (batch.length > 1) {
          for (const [i, item] of batch.entries()) {
            const rest = batch.slice(i + 1).map((b) => b.message);
            if (!(await settle([item], () => [...rest, ...behind()]))) return false;
          }
          return true;
        }
        if (await park(batch[0]!, failure.error)) break;
      }
      if (stopped) return false;
      for (const message of [...batch.map((b) => b.message), ...behind()]) message.working();
      await pause(Math.min(ackWaitMs / 2, 100 * 2 ** Math.min(failures, 8)));
      if (stopped) return false;
    }
    if (options.beforeAck) for (const { event } of batch) await options.beforeAck(event);
    if (stopped) return false;
    for (const { message } of batch) message.ack();
    return true;
  };

  /**
   * Messages stream into a local queue; whatever is queued is handled as one batch (see settle).
   * Nothing behind a failed batch is handled first, so order is kept; an event is passed over only
   * once parked. A failed batch's messages, and those queued behind, stay unacknowledged and are
   * marked in progress, so JetStream does not hand them out again meanwhile. (Not nak-and-restart: a
   * pull request already sent cannot be withdrawn, and redeliveries the server sends to a closed pull
   * are lost until their ack wait runs out.)
   */
  const run = async () => {
    while (!stopped) {
      const queue: JsMsg[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      try {
        messages = await consumer.consume({ max_messages: 256 });
        const current = messages;
        void (async () => {
          try {
            for await (const message of current) {
              queue.push(message);
              wake?.();
            }
          } finally {
            ended = true;
            wake?.();
          }
        })();
        while (!stopped) {
          if (queue.length === 0) {
            if (ended) break;
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
            continue;
          }
          const batch: Item[] = [];
          for (const message of queue.splice(0, 128)) {
            const event = readEvent(message);
            if (event) {
              batch.push({ message, event });
            } else {
              // Only relays publish here; anything else would stop the consumer for good, so it goes.
              logger.error(
                { consumer: name, subject: message.subject, seq: message.seq },
                'not an event: message terminated',
              );
              message.term();
            }
          }
          if (batch.length > 0 && !(await settle(batch, () => queue))) return;
        }
      } catch (error) {
        if (stopped) return;
        logger.error({ err: error, consumer: name }, 'consumer failed; restarting');
        await pause(500);
      }
    }
  };
  const running = run();

  const position = async (source: string): Promise<Position | undefined> => {
    const { rows } = await pool.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position, prepare_position FROM ${schema}.consumer_positions WHERE consumer = $1 AND source = $2`,
      [name, source],
    );
    const row = rows[0];
    return row ? (parsePosition(`${row.commit_position}/${row.prepare_position}`) ?? undefined) : undefined;
  };

  return {
    name,
    sources: options.only ? [] : options.sources,
    position,
    hasReached(source, target) {
      const local = seen.get(source);
      return local !== undefined && comparePositions(local, target) >= 0;
    },
    async waitForPosition(source, target, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const local = seen.get(source);
        if (local && comparePositions(local, target) >= 0) return true;
        const current = await position(source);
        if (current) remember(source, current);
        if (current && comparePositions(current, target) >= 0) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 3));
      }
    },
    async stop() {
      stopped = true;
      stopping.abort();
      await messages?.close();
      await running;
    },
  };
}

/** The event a message carries, or null when it holds none (not JSON, or not an event). */
function readEvent(message: JsMsg): BusEvent | null {
  try {
    return asBusEvent(message.json());
  } catch {
    return null;
  }
}

export interface ProjectionRebuild {
  pool: pg.Pool;
  schema: string;
  /** The durable consumer's full name, e.g. `activity-timeline`. */
  consumer: string;
  /** The read-model tables it owns (emptied first). */
  tables: string[];
  /** Each source's published events in store order. */
  sources: Record<string, () => AsyncIterable<BusEvent>>;
  handlers: Record<string, Handler>;
  open?: EventOpener;
}

/**
 * Rebuilds a consumer's read model from the event stores, in one transaction, while the live consumer
 * waits on the same advisory lock: tables emptied, every event replayed through the live handlers,
 * handled records, positions and parked events rewritten (so a rebuild after a fix re-applies what was
 * parked). Afterwards the live consumer skips what was replayed and carries on with anything newer.
 */
export async function rebuildProjection(rebuild: ProjectionRebuild): Promise<{ events: number }> {
  const { pool, schema, consumer, tables, handlers } = rebuild;
  await migrateConsumerTables(pool, schema);
  let events = 0;
  await inTransaction(pool, async (client) => {
    await lockConsumer(client, schema, consumer);
    await client.query(`TRUNCATE ${tables.map((t) => `${schema}.${t}`).join(', ')}`);
    await client.query(`DELETE FROM ${schema}.handled_events WHERE consumer = $1`, [consumer]);
    await client.query(`DELETE FROM ${schema}.consumer_positions WHERE consumer = $1`, [consumer]);
    await client.query(`DELETE FROM ${schema}.parked_events WHERE consumer = $1`, [consumer]);
    // Each page under a savepoint: a page that fails for a lasting reason is replayed event by event,
    // and an event that fails on its own is parked again, as the live consumer would.
    const replay = async (page: BusEvent[]): Promise<void> => {
      await client.query('SAVEPOINT page');
      try {
        const deferred = await react(client, { schema, consumer, handlers, open: rebuild.open }, page);
        if (deferred.length > 0) await client.query(deferred.join(';\n'));
        await client.query('RELEASE SAVEPOINT page');
      } catch (error) {
        if (!isLastingFailure(error)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT page');
        if (page.length > 1) for (const event of page) await replay([event]);
        else await client.query(parkStatement(client, schema, consumer, page[0]!, error));
      }
    };
    for (const [source, read] of Object.entries(rebuild.sources)) {
      let last: BusEvent | undefined;
      let page: BusEvent[] = [];
      for await (const event of read()) {
        page.push(event);
        last = event;
        events += 1;
        if (page.length === 500) {
          await replay(page);
          page = [];
        }
      }
      if (page.length > 0) await replay(page);
      if (last) {
        const position = busEventPosition(last);
        await client.query(
          `INSERT INTO ${schema}.consumer_positions (consumer, source, commit_position, prepare_position) VALUES ($1, $2, $3, $4)`,
          [consumer, source, position.commit.toString(), position.prepare.toString()],
        );
      }
    }
  });
  return { events };
}
