import { setTimeout as sleep } from 'node:timers/promises';
import { AckPolicy, type ConsumerMessages, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import type { Position } from '@shiplog/events';
import type pg from 'pg';
import { type EventOpener, type Handler, react, type Statement, send } from './batch.ts';
import type { Bus } from './bus.ts';
import { lockName } from './consumer-tables.ts';
import { type BusEvent, busEventPosition, readEvent } from './envelope.ts';
import type { Logger } from './logger.ts';
import { isLastingFailure, parkStatements } from './parking.ts';
import { ConsumerProgress, positionsStatement } from './positions.ts';

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
  /** Where this process keeps the consumer's progress: given, it outlives the consumer (see followConsumer). */
  progress?: ConsumerProgress;
}

/** A batch handled this long after its oldest event was stored is logged (see reportLate in startConsumer). */
const LATE_MS = 2000;
/** At most one such line a consumer this often. */
const LATE_LOG_EVERY_MS = 10_000;

/** How far a consumer has come, for read-your-writes waits: whichever process runs it. */
export interface ConsumerView {
  name: string;
  sources: readonly string[];
  /** Resolves once this consumer has handled every event of `source` up to `position`. */
  waitForPosition(source: string, position: Position, timeoutMs?: number): Promise<boolean>;
  /** Whether this process has seen this consumer handle `source` up to `position`, without a query or a wait. */
  hasReached(source: string, position: Position): boolean;
  position(source: string): Promise<Position | undefined>;
  /** How many reads are waiting now for this consumer to reach a position. */
  readsWaiting(): number;
}

export interface Consumer extends ConsumerView {
  stop(): Promise<void>;
}

/**
 * A consumer's progress as `progress` knows it: what this process has seen it commit, else its recorded
 * positions. A replica that does not run the consumer (not its service's leader) waits on this.
 */
export function followConsumer(
  progress: ConsumerProgress,
  { name, sources, only }: Pick<ConsumerOptions, 'name' | 'sources' | 'only'>,
): ConsumerView {
  return {
    name,
    sources: only ? [] : sources,
    position: (source) => progress.recorded(source),
    hasReached: (source, target) => progress.hasReached(source, target),
    waitForPosition: (source, target, timeoutMs = 2000) => progress.waitFor(source, target, timeoutMs),
    readsWaiting: () => progress.waiting,
  };
}

/**
 * A durable JetStream consumer with explicit acks. It handles events in stream order, in batches (one
 * transaction each), so its recorded position per source is a true high-water mark that
 * read-your-writes waits can rely on.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const { bus, pool, schema, name, handlers, logger } = options;
  if (options.only && options.sources.length !== 1) throw new Error(`${name}: 'only' needs exactly one source`);
  const filter =
    options.sources.length === 1
      ? `${bus.namespace}.${options.sources[0]}.${options.only ?? '>'}`
      : `${bus.namespace}.>`;
  const reads = new Set(options.sources);
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
  let consumer = await bus.js.consumers.get(bus.stream, name);
  let messages: ConsumerMessages | undefined;

  /**
   * One process pulls a durable at a time, and from its ack floor. Each (re)start of the pull checks
   * the durable; if anything is outstanding, or another pull is waiting on it, it recreates the
   * durable to deliver from the first unacknowledged message, in stream order:
   * - messages handed to an earlier pull and never acknowledged (its process was killed, its pull
   *   ended) would otherwise come back only when their ack wait ran out, behind newer ones, and be
   *   handled out of order (an update before its create);
   * - another process still pulling it (a leader that has lost its lock and not yet noticed: see
   *   service-kit's leadership) loses its pull: events it took and will not handle would otherwise
   *   leave a hole behind the positions this one records, which read-your-writes waits trust.
   * Whatever was handled but not acknowledged comes again and is skipped as handled (`handled_events`).
   * Answers the number of the durable's last delivery (0 when recreated): from there this pull's own
   * are numbered one by one, and one missing (see `run`) means another process pulled it after all.
   */
  const takeOver = async (): Promise<number> => {
    const info = await bus.jsm.consumers.info(bus.stream, name);
    if (info.num_ack_pending === 0 && info.num_waiting === 0) return info.delivered.consumer_seq;
    await bus.jsm.consumers.delete(bus.stream, name);
    await bus.jsm.consumers.add(bus.stream, {
      ...config,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: info.ack_floor.stream_seq + 1,
    });
    consumer = await bus.js.consumers.get(bus.stream, name);
    logger.info(
      { consumer: name, unacknowledged: info.num_ack_pending, from: info.ack_floor.stream_seq + 1 },
      'consumer resumed from its ack floor',
    );
    return 0;
  };
  let stopped = false;
  const progress = options.progress ?? new ConsumerProgress(pool, schema, name);

  const attempts = options.attemptsBeforeParking ?? 3;
  type Item = { message: JsMsg; event: BusEvent };
  /** A batch's first statements: begin, and this consumer's lock (see lockConsumer). */
  const opening: Statement[] = [
    { text: 'BEGIN' },
    { text: 'SELECT pg_advisory_xact_lock(hashtext($1))', values: [lockName(schema, name)] },
    ...(options.beforeHandling ? [{ text: options.beforeHandling }] : []),
  ];
  /** A batch's last statements: the positions its events reach, recorded, then the commit. */
  const closing = (reached: Map<string, Position>): Statement[] => [
    positionsStatement(schema, name, reached),
    { text: 'COMMIT' },
  ];

  /**
   * One transaction for a batch, in stream order: handled records, each fresh event's reaction,
   * positions. Answers the failure, rolled back, or undefined once committed.
   */
  const handleBatch = async (received: Item[]): Promise<{ error: unknown } | undefined> => {
    // Events of a source this consumer does not read (a multi-source consumer's subject is the whole
    // bus) concern it in no way: no reaction, no position anyone waits for. They are acked with the
    // batch and cost no transaction; a batch of nothing else costs nothing.
    const batch = received.filter((b) => reads.has(b.event.source) || handlers[b.event.type]);
    if (batch.length === 0) return undefined;
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      // The batch's first round trip: begin; this consumer's lock, which serialises with a rebuild of
      // its projection (see rebuildProjection) and with an erasure; `beforeHandling`; the handled
      // records and the opener's prefetch (see react).
      const reached = new Map<string, Position>();
      for (const { event } of batch) reached.set(event.source, busEventPosition(event));
      if (batch.some((b) => handlers[b.event.type])) {
        const deferred = await react(
          client,
          { schema, consumer: name, handlers, open: options.open, around: options.around },
          batch.map((b) => b.event),
          opening,
        );
        // The last round trip: the reactions' deferred writes, the positions reached, and the commit.
        await send(client, [...deferred, ...closing(reached)]);
      } else {
        // Nothing to react to (events of a source it reads, with no handler here): one round trip, for the positions.
        await send(client, [...opening, ...closing(reached)]);
      }
      for (const [source, position] of reached) progress.remember(source, position);
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
      await send(client, [
        ...opening,
        ...parkStatements(schema, name, event, failure),
        ...closing(new Map([[event.source, position]])),
      ]);
      progress.remember(event.source, position);
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

  /** When this process took each message off the bus (see reportLate). */
  const receivedAt = new WeakMap<JsMsg, number>();
  let warnedAt = Number.NEGATIVE_INFINITY;
  /**
   * A batch handled over LATE_MS after its oldest event was stored is logged (at most one line every
   * LATE_LOG_EVERY_MS a consumer), with where the time went: from the appending transaction's start to
   * JetStream (the relay, or an appender's long transaction holding it back), on to this process
   * (delivery, or a pull lost and taken back), and waiting here and in the batch's transaction. Each
   * part's clock is another server's, so on several hosts the parts are approximate; the whole is not.
   * What the lateness costs users: their reads wait for it (2 s at most), their writes longer.
   */
  const reportLate = (batch: Item[]) => {
    const now = Date.now();
    if (now - warnedAt < LATE_LOG_EVERY_MS) return;
    let oldest = batch[0];
    let stored = oldest ? Date.parse(oldest.event.occurredAt) : now;
    for (const item of batch) {
      const at = Date.parse(item.event.occurredAt);
      if (at < stored) [oldest, stored] = [item, at];
    }
    if (!oldest || now - stored < LATE_MS) return;
    warnedAt = now;
    const published = oldest.message.time.getTime();
    const received = receivedAt.get(oldest.message) ?? now;
    logger.warn(
      {
        consumer: name,
        event: `${oldest.event.type} ${oldest.event.id}`,
        source: oldest.event.source,
        lateMs: now - stored,
        toBusMs: published - stored,
        toHereMs: received - published,
        hereMs: now - received,
        batch: batch.length,
      },
      'events handled late',
    );
  };

  const stopping = new AbortController();
  /** Resolves after `ms`, or at once when the consumer stops. */
  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);

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
    reportLate(batch);
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
        await messages?.close()?.catch(() => undefined);
        /** The durable's last delivery this pull knows of (see takeOver). */
        let delivered = await takeOver();
        messages = await consumer.consume({ max_messages: 256 });
        const current = messages;
        void (async () => {
          try {
            for await (const message of current) {
              receivedAt.set(message, Date.now());
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
          let another = false;
          for (const message of queue.splice(0, 128)) {
            const { deliverySequence: sequence, redelivered } = message.info;
            if (sequence > delivered + 1 || (!redelivered && sequence !== delivered + 1)) {
              // Another process was handed the deliveries between, or recreated the durable (its
              // first delivery numbered anew): nothing from here on is handled (or acknowledged) by
              // this pull, which starts again and takes the durable back.
              another = true;
              break;
            }
            delivered = Math.max(delivered, sequence);
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
          if (another) {
            logger.warn({ consumer: name }, 'another process pulled this consumer; taking it over');
            break;
          }
        }
      } catch (error) {
        if (stopped) return;
        logger.error({ err: error, consumer: name }, 'consumer failed; restarting');
        await pause(500);
      }
    }
  };
  const running = run();

  return {
    ...followConsumer(progress, options),
    async stop() {
      stopped = true;
      stopping.abort();
      await messages?.close();
      await running;
    },
  };
}
