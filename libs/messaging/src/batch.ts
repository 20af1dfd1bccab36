import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { BusEvent } from './envelope.ts';
import { storable, unstorable } from './sql.ts';

/** One parameterised SQL statement: values travel apart from the text, never written into it. */
export interface Statement {
  text: string;
  values?: unknown[];
}

/**
 * Sends the statements in order and answers their results. On a pipelining client (see `pipelined`)
 * they go in one round trip. The first failure in order is thrown (those after it fail only because
 * the transaction aborted).
 */
export async function send(client: pg.ClientBase, statements: Statement[]): Promise<pg.QueryResult[]> {
  const settled = await Promise.allSettled(
    statements.map((s) =>
      s.values ? client.query({ name: statementName(s.text), text: s.text, values: s.values }) : client.query(s.text),
    ),
  );
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<pg.QueryResult>).value);
}

const names = new Map<string, string>();
/**
 * A name for the statement's text: named statements are parsed and planned once per connection, not
 * once per batch (the same few statements run in every batch).
 */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `shiplog_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Pool settings whose clients pipeline (node-postgres `pipeline`): queries issued before the previous
 * answers go out at once, so a batch's statements cost one round trip (decision 012). Awaited queries
 * behave exactly as without it.
 */
export const pipelined = { pipeline: true } as pg.PoolConfig;

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
   * Queues a parameterised write to run just before the commit, after every reaction of the batch, in
   * the order queued. Statements run meanwhile do not see it: a reaction that reads, or writes
   * immediately, what an earlier one may have deferred calls `flush` first.
   */
  defer(text: string, values?: unknown[]): void;
  /** Runs the writes deferred so far, now, in one round trip (nothing to do when none are). */
  flush(): Promise<void>;
  /** State the batch's reactions share, under a key of the handler's own; gone with the batch. */
  readonly shared: Map<unknown, unknown>;
}

function batchOf(tx: pg.ClientBase, events: BusEvent[]): { batch: Batch; deferred: Statement[] } {
  const deferred: Statement[] = [];
  const batch: Batch = {
    events,
    defer: (text, values) => deferred.push({ text, values }),
    async flush() {
      if (deferred.length > 0) await send(tx, deferred.splice(0));
    },
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
  /** One statement reading what opening `events` needs: sent in the batch's first round trip, its rows passed to `open`. */
  prefetch?: (events: BusEvent[]) => Statement | undefined;
  open: (events: BusEvent[], tx: pg.PoolClient, prefetched?: pg.QueryResultRow[]) => Promise<(BusEvent | null)[]>;
}

export interface Reaction {
  schema: string;
  consumer: string;
  handlers: Record<string, Handler>;
  open?: EventOpener;
  /** Wraps each reaction (a tracing span, say). */
  around?: (event: BusEvent, consumer: string, handle: () => Promise<void>) => Promise<void>;
}

/**
 * Handles events in the caller's transaction, in order: records each as handled (only events with a
 * reaction need the record: the others have no effect to repeat), opens the fresh ones, and runs their
 * reactions. An event already recorded, or a second copy within `events`, has no effect. `opening`
 * goes in the same round trip as the record. Answers the reactions' deferred writes (see Batch), for
 * the caller to run before its commit.
 */
export async function react(
  tx: pg.PoolClient,
  reaction: Reaction,
  events: BusEvent[],
  opening: Statement[] = [],
): Promise<Statement[]> {
  const { schema, consumer, handlers } = reaction;
  const handled = events.filter((event) => handlers[event.type]);
  if (handled.length === 0) {
    if (opening.length > 0) await send(tx, opening);
    return [];
  }
  const prefetch = reaction.open?.prefetch?.(handled);
  const results = await send(tx, [
    ...opening,
    {
      text: `INSERT INTO ${schema}.handled_events (consumer, event_id)
             SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id`,
      values: [consumer, handled.map((e) => e.id)],
    },
    ...(prefetch ? [prefetch] : []),
  ]);
  const inserted = results[opening.length]!;
  const fresh = new Set(inserted.rows.map((r: { event_id: string }) => r.event_id));
  // `delete`: a second copy of one event has no effect either.
  const toHandle = handled.filter((event) => fresh.delete(event.id));
  if (toHandle.length === 0) return [];
  const opened = (
    reaction.open ? await reaction.open.open(toHandle, tx, prefetch ? results.at(-1)!.rows : undefined) : toHandle
  )
    .filter((e) => e !== null)
    .map((event) => (unstorable(event.data) ? { ...event, data: storable(event.data) } : event));
  const { batch, deferred } = batchOf(tx, opened);
  for (const event of opened) {
    const handle = () => handlers[event.type]!(event, tx, batch);
    await (reaction.around ? reaction.around(event, consumer, handle) : handle());
  }
  return deferred;
}
