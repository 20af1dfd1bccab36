import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { comparePositions, formatPosition, type Position, START } from '@shiplog/events';
import { type MigrationSource, runMigrations } from '@shiplog/migrations';
import type pg from 'pg';
import {
  type AppendOptions,
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type EventToAppend,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
} from './index.ts';
import { SessionConnection } from './session.ts';

export { type Listener, SessionConnection, type SessionConnectionOptions } from './session.ts';

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/** The store's tables and functions, run in each service's schema by the one runner (@shiplog/migrations). */
export const eventStoreMigrations: MigrationSource = {
  directory: join(import.meta.dirname, '..', 'migrations'),
  prefix: 'event-store',
};

/**
 * PostgreSQL adapter. One `events` table per service schema.
 *
 * Global order is `(transaction_id, global_position)`: `transaction_id` is the writing transaction's
 * xid8. A bigserial alone is not safe to read by: it is taken at insert but becomes visible at commit,
 * so a reader could pass position 7 while the transaction holding 6 is still open, and skip 6 forever.
 * Readers therefore only take rows whose transaction is older than every transaction still running
 * (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`): such rows can no longer be joined by
 * an earlier-ordered one.
 */
export class PostgresEventStore implements EventStore {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #channel: string;
  readonly #pollMs: number;
  readonly #session: SessionConnection | undefined;
  /** Second key of this store's append lock (the first is APPEND_LOCK_CLASS): a hash of the schema. */
  readonly #lockKey: number;
  #notifying = false;
  #notifyAgain = false;

  /**
   * `pollIntervalMs`: the caught-up subscriber's safety poll (see subscribeToAll), 1 s by default.
   * `session`: the process's session connection, which subscribers LISTEN on; without it, each
   * subscription opens one of its own.
   */
  constructor(pool: pg.Pool, schema: string, options: { pollIntervalMs?: number; session?: SessionConnection } = {}) {
    if (!identifier.test(schema)) throw new Error(`Invalid schema name for the event store: ${schema}`);
    this.#pool = pool;
    this.#schema = schema;
    this.#channel = `${schema}_events`;
    this.#pollMs = options.pollIntervalMs ?? 1000;
    this.#session = options.session;
    this.#lockKey = fnv1a(`${schema}.events`);
  }

  /**
   * For a caller's transaction that will append (AppendOptions.transaction): take the append lock
   * before the transaction's first write. Readers only wait for transactions holding it, so the store
   * must know an appender before it has a transaction id. The append refuses a transaction that wrote
   * without it.
   */
  async lockForAppend(transaction: pg.PoolClient): Promise<void> {
    await transaction.query(this.appendLockStatement);
  }

  /** lockForAppend as a statement, to send in one round trip with others (a consumer's batch opening). */
  get appendLockStatement(): string {
    return `SELECT pg_advisory_xact_lock_shared(${APPEND_LOCK_CLASS}, ${this.#lockKey})`;
  }

  /** Creates the schema's event tables and functions (the store's versioned migrations); safe on every start. */
  async migrate(): Promise<void> {
    await runMigrations(this.#pool, this.#schema, [eventStoreMigrations]);
  }

  async append(streamId: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const { expectedRevision } = options;
    const mode = typeof expectedRevision === 'number' ? 'exact' : expectedRevision;
    const params = [
      this.#lockKey,
      streamId,
      mode,
      typeof expectedRevision === 'number' ? expectedRevision : null,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ];
    const sql = `SELECT next_revision, commit_position::text AS commit_position, prepare_position, notified
      FROM ${this.#schema}.append_events($1, $2, $3, $4, $5::uuid[], $6::text[], $7::jsonb[], $8::jsonb[])`;
    const external = options.transaction as pg.PoolClient | undefined;
    try {
      if (external) {
        // A savepoint keeps the caller's transaction usable after a conflict.
        await external.query('SAVEPOINT append_events');
        try {
          const result = await external.query(sql, params);
          // Delivered when the caller's transaction commits.
          await external.query(
            `RELEASE SAVEPOINT append_events${result.rows[0].notified ? '' : `; NOTIFY ${this.#channel}`}`,
          );
          return toAppendResult(result.rows[0]);
        } catch (error) {
          await external.query('ROLLBACK TO SAVEPOINT append_events');
          throw error;
        }
      }
      const result = await this.#pool.query(sql, params);
      if (!result.rows[0].notified) this.#notify();
      return toAppendResult(result.rows[0]);
    } catch (error) {
      throw translateConflict(error, streamId, expectedRevision);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const client = (options.transaction as pg.PoolClient | undefined) ?? this.#pool;
    const result = await client.query(
      `SELECT ${columns} FROM ${this.#schema}.events
       WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision`,
      [streamId, options.fromRevision ?? 0],
    );
    return result.rows.map(toRecorded);
  }

  /**
   * Wakes the subscribers after an append that did not notify in its own transaction (another appender
   * was notifying: see append_events_v2) has committed. Concurrent appends share one (a wake-up reads
   * everything committed by then). Lost or late, the subscribers' poll still finds the events.
   */
  #notify(): void {
    if (this.#notifying) {
      this.#notifyAgain = true;
      return;
    }
    this.#notifying = true;
    this.#pool
      .query(`NOTIFY ${this.#channel}`)
      .catch(() => undefined)
      .finally(() => {
        this.#notifying = false;
        if (this.#notifyAgain) {
          this.#notifyAgain = false;
          this.#notify();
        }
      });
  }

  async deleteStream(streamId: string): Promise<void> {
    // The streams row lock orders this with any append to the same stream.
    await this.#pool.query(
      `WITH removed AS (DELETE FROM ${this.#schema}.streams WHERE stream_id = $1)
       DELETE FROM ${this.#schema}.events WHERE stream_id = $1`,
      [streamId],
    );
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const result = await this.#pool.query(
      `SELECT ${columns} FROM ${this.#schema}.read_events($1, $2::xid8, $3::bigint, $4) AS events
       ORDER BY events.transaction_id, events.global_position`,
      [this.#lockKey, after.commit.toString(), after.prepare.toString(), options.limit ?? 500],
    );
    return result.rows.map(toRecorded);
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const { signal } = options;
    const session =
      this.#session ??
      new SessionConnection({
        connectionString: this.#pool.options.connectionString!,
        applicationName: `${this.#pool.options.application_name ?? 'shiplog'}:listen`,
      });
    let dirty = true;
    let wake: (() => void) | undefined;
    // The LISTEN connection sits idle between notifications: if it is lost (the server restarted, the
    // backend was terminated), the subscription ends with the error and its caller resumes with a new
    // one, rather than sleeping deaf to notifications.
    let lost: Error | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    let unlisten: (() => Promise<void>) | undefined;
    try {
      unlisten = await session.listen(this.#channel, {
        notified: () => {
          dirty = true;
          wake?.();
        },
        lost: (error) => {
          lost ??= error;
          wake?.();
        },
      });
      let position = options.after ?? START;
      const pageSize = 500;
      while (!signal?.aborted) {
        if (lost) throw lost;
        dirty = false;
        const page = await this.readAll({ after: position, limit: pageSize });
        for (const event of page) {
          if (signal?.aborted) return;
          if (comparePositions(event.position, position) <= 0) {
            // Never expected: fail loudly (the caller resumes from its checkpoint) rather than repeat or skip.
            throw new Error(
              `Event store order regressed: ${formatPosition(event.position)} after ${formatPosition(position)}`,
            );
          }
          yield event;
          position = event.position;
        }
        if (page.length === pageSize || dirty) continue;
        // Committed rows past our position that the horizon still holds back (an older transaction is
        // open): re-read shortly. Its commit may not notify (it need not be an append).
        if (await this.#heldBack(position)) {
          await sleep(2);
          continue;
        }
        // Sleep until an append commits. Every append notifies, in its transaction or just after its
        // commit, and held-back rows were handled above; the poll only bounds how long a lost
        // notification (an appender that died between its commit and its NOTIFY) can delay events.
        // It is slow on purpose: each poll is two queries per subscriber, all day long.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.#pollMs);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
          if (dirty || lost || signal?.aborted) done();
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await unlisten?.();
      if (session !== this.#session) await session.end();
    }
  }

  async #heldBack(after: Position): Promise<boolean> {
    // ORDER BY ... LIMIT 1 rather than EXISTS: before the table's first ANALYZE (a new install, a
    // benchmark) the planner answered EXISTS with a sequential scan of every event, ~1 ms per
    // 7,000 rows on each check; this form always walks the index from the position.
    const { rows } = await this.#pool.query(
      `SELECT 1 FROM ${this.#schema}.events WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
       ORDER BY transaction_id, global_position LIMIT 1`,
      [after.commit.toString(), after.prepare.toString()],
    );
    return rows.length > 0;
  }

  async close(): Promise<void> {
    // The pool belongs to the caller (it is shared with the service's read models).
  }
}

/**
 * First key of every store's append lock ('SHLG'); the second is per schema. The migration's functions
 * hold the same number, and 0x53484c4e ('SHLN') for the lock an appender holds while it notifies.
 */
const APPEND_LOCK_CLASS = 0x53484c47;

/** A positive 31-bit FNV-1a hash: a stable advisory-lock key. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
}

const columns = `event_id, type, data, stream_id, stream_revision, occurred_at, metadata,
  transaction_id::text AS commit_position, global_position`;

interface EventRow {
  event_id: string;
  type: string;
  data: unknown;
  stream_id: string;
  stream_revision: string;
  occurred_at: Date;
  metadata: RecordedEvent['metadata'];
  commit_position: string;
  global_position: string;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    occurredAt: row.occurred_at,
    metadata: row.metadata,
    position: { commit: BigInt(row.commit_position), prepare: BigInt(row.global_position) },
  };
}

function toAppendResult(row: {
  next_revision: string;
  commit_position: string;
  prepare_position: string;
}): AppendResult {
  const position: Position = { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  return { nextExpectedRevision: Number(row.next_revision), position };
}

function translateConflict(error: unknown, streamId: string, expected: AppendOptions['expectedRevision']): unknown {
  const pgError = error as { code?: string; detail?: string; constraint?: string };
  if (pgError.code === 'P0409') {
    const actual = Number(pgError.detail);
    return new ConcurrencyError(
      streamId,
      expected,
      actual === -1 ? 'no_stream' : Number.isFinite(actual) ? actual : 'unknown',
    );
  }
  // Two first appends to one stream, or the same new event ids racing: the loser sees a unique violation.
  if (pgError.code === '23505') return new ConcurrencyError(streamId, expected, 'unknown');
  if (pgError.code === 'P0410') return new Error((error as Error).message);
  return error;
}
