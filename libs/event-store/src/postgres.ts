import { comparePositions, formatPosition, type Position, START } from '@shiplog/events';
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

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

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
  /** Second key of this store's append lock (the first is APPEND_LOCK_CLASS): a hash of the schema. */
  readonly #lockKey: number;
  #notifying = false;
  #notifyAgain = false;

  /** `pollIntervalMs`: the caught-up subscriber's safety poll (see subscribeToAll), 1 s by default. */
  constructor(pool: pg.Pool, schema: string, options: { pollIntervalMs?: number } = {}) {
    if (!identifier.test(schema)) throw new Error(`Invalid schema name for the event store: ${schema}`);
    this.#pool = pool;
    this.#schema = schema;
    this.#channel = `${schema}_events`;
    this.#pollMs = options.pollIntervalMs ?? 1000;
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

  /** Creates the schema's event tables and the append function; safe to run on every start. */
  async migrate(): Promise<void> {
    const s = this.#schema;
    await this.#pool.query(`
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${s}.events (
        global_position bigserial PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        event_id uuid NOT NULL UNIQUE,
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_revision)
      );
      CREATE INDEX IF NOT EXISTS events_global_order ON ${s}.events (transaction_id, global_position);
      CREATE TABLE IF NOT EXISTS ${s}.streams (
        stream_id text PRIMARY KEY,
        revision bigint NOT NULL
      );
      -- One round trip per append: idempotency check, revision check under a row lock, insert, and
      -- the subscribers' wake-up when no other appender is sending one (see #notify); notified
      -- tells the caller whether it must still send it.
      -- Conflicts raise SQLSTATE P0409 with the stream's current revision in DETAIL.
      CREATE OR REPLACE FUNCTION ${s}.append_events_v2(
        p_stream_id text, p_mode text, p_expected bigint,
        p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
      ) RETURNS TABLE (next_revision bigint, commit_position xid8, prepare_position bigint, notified boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        v_current bigint;
        v_count int := cardinality(p_ids);
        v_existing int;
        v_notified boolean := false;
      BEGIN
        -- Readers' horizon is the oldest transaction holding this lock (see readAll), so an appender
        -- must hold it before it gets a transaction id.
        IF pg_current_xact_id_if_assigned() IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory' AND granted
            AND classid = ${APPEND_LOCK_CLASS} AND objid = ${this.#lockKey} AND objsubid = 2
        ) THEN
          RAISE EXCEPTION USING ERRCODE = 'P0410',
            MESSAGE = 'this transaction wrote before taking the append lock: call lockForAppend first';
        END IF;
        PERFORM pg_advisory_xact_lock_shared(${APPEND_LOCK_CLASS}, ${this.#lockKey});
        SELECT count(*) INTO v_existing FROM ${s}.events WHERE event_id = ANY(p_ids);
        IF v_existing > 0 THEN
          IF v_existing = v_count AND NOT EXISTS (
            SELECT 1 FROM unnest(p_ids) WITH ORDINALITY AS i(id, n)
            LEFT JOIN ${s}.events e ON e.event_id = i.id
            WHERE e.stream_id IS DISTINCT FROM p_stream_id
               OR e.stream_revision <> (SELECT stream_revision FROM ${s}.events WHERE event_id = p_ids[1]) + i.n - 1
          ) THEN
            RETURN QUERY SELECT e.stream_revision, e.transaction_id, e.global_position, true
              FROM ${s}.events e WHERE e.event_id = p_ids[v_count];
            RETURN;
          END IF;
          SELECT revision INTO v_current FROM ${s}.streams WHERE stream_id = p_stream_id;
          RAISE EXCEPTION USING ERRCODE = 'P0409', MESSAGE = 'event ids already stored', DETAIL = coalesce(v_current, -1)::text;
        END IF;

        SELECT revision INTO v_current FROM ${s}.streams WHERE stream_id = p_stream_id FOR UPDATE;
        IF NOT FOUND THEN v_current := -1; END IF;
        IF (p_mode = 'exact' AND v_current <> p_expected)
           OR (p_mode = 'no_stream' AND v_current <> -1)
           OR (p_mode = 'stream_exists' AND v_current = -1) THEN
          RAISE EXCEPTION USING ERRCODE = 'P0409', MESSAGE = 'wrong expected revision', DETAIL = v_current::text;
        END IF;

        IF v_current = -1 THEN
          -- A concurrent first append to the same stream fails here with a unique violation.
          INSERT INTO ${s}.streams (stream_id, revision) VALUES (p_stream_id, v_count - 1);
        ELSE
          UPDATE ${s}.streams SET revision = v_current + v_count WHERE stream_id = p_stream_id;
        END IF;

        INSERT INTO ${s}.events (event_id, stream_id, stream_revision, type, data, metadata)
          SELECT i.id, p_stream_id, v_current + i.n, i.t, i.d, i.m
          FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i(id, t, d, m, n);

        -- PostgreSQL holds its notify lock through a notifying transaction's commit: if every appender
        -- notified, their commits would run one at a time. So only one appender at a time notifies in
        -- its transaction; the others' callers notify after their commit.
        IF pg_try_advisory_xact_lock(${NOTIFY_LOCK_CLASS}, ${this.#lockKey}) THEN
          PERFORM pg_notify('${this.#channel}', '');
          v_notified := true;
        END IF;
        RETURN QUERY SELECT v_current + v_count, pg_current_xact_id(),
          currval(pg_get_serial_sequence('${s}.events', 'global_position')), v_notified;
      END
      $fn$;

      -- Reads in global order up to the horizon: the oldest running transaction that holds the append
      -- lock (transactions that only write read models do not count), or with none, the end of the
      -- snapshot. VOLATILE under READ COMMITTED: the second statement takes a later snapshot than the
      -- first, in which every appender older than the horizon has finished. One round trip.
      CREATE OR REPLACE FUNCTION ${s}.read_events(p_commit xid8, p_prepare bigint, p_limit int)
      RETURNS SETOF ${s}.events
      LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        v_horizon xid8;
      BEGIN
        SELECT coalesce(
          (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
           WHERE (x::text::numeric % 4294967296)::text IN (
             SELECT a.backend_xid::text FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.classid = ${APPEND_LOCK_CLASS} AND l.objid = ${this.#lockKey}
               AND l.objsubid = 2 AND a.backend_xid IS NOT NULL)),
          pg_snapshot_xmax(pg_current_snapshot()))
        INTO v_horizon;
        RETURN QUERY SELECT * FROM ${s}.events e
          WHERE (e.transaction_id, e.global_position) > (p_commit, p_prepare) AND e.transaction_id < v_horizon
          ORDER BY e.transaction_id, e.global_position
          LIMIT p_limit;
      END
      $fn$;
    `);
  }

  async append(streamId: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const { expectedRevision } = options;
    const mode = typeof expectedRevision === 'number' ? 'exact' : expectedRevision;
    const params = [
      streamId,
      mode,
      typeof expectedRevision === 'number' ? expectedRevision : null,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ];
    const sql = `SELECT next_revision, commit_position::text AS commit_position, prepare_position, notified
      FROM ${this.#schema}.append_events_v2($1, $2, $3, $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`;
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
      `SELECT ${columns} FROM ${this.#schema}.read_events($1::xid8, $2::bigint, $3) AS events
       ORDER BY events.transaction_id, events.global_position`,
      [after.commit.toString(), after.prepare.toString(), options.limit ?? 500],
    );
    return result.rows.map(toRecorded);
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const { signal } = options;
    const listener = await this.#pool.connect();
    let dirty = true;
    let wake: (() => void) | undefined;
    const onNotification = () => {
      dirty = true;
      wake?.();
    };
    const onAbort = () => wake?.();
    listener.on('notification', onNotification);
    signal?.addEventListener('abort', onAbort);
    try {
      await listener.query(`LISTEN ${this.#channel}`);
      let position = options.after ?? START;
      const pageSize = 500;
      while (!signal?.aborted) {
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
          await new Promise((r) => setTimeout(r, 2));
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
          if (dirty || signal?.aborted) done();
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      listener.off('notification', onNotification);
      await listener.query(`UNLISTEN ${this.#channel}`).catch(() => undefined);
      listener.release();
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

/** First key of every store's append lock ('SHLG'); the second is per schema. */
const APPEND_LOCK_CLASS = 0x53484c47;
/** First key of the lock an appender holds while it notifies in its transaction ('SHLN'). */
const NOTIFY_LOCK_CLASS = 0x53484c4e;

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
