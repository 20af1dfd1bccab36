import { ConflictError } from '@shiplog/errors';
import type { EventMetadata, Position, StoredEvent } from '@shiplog/events';

/**
 * The event store port. Two adapters implement it (PostgreSQL, EventStoreDB) and one contract suite
 * (`./contract.ts`) holds both to the same behaviour.
 *
 * Revisions count from 0 (the first event of a stream has revision 0), as in EventStoreDB.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface EventToAppend {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export type RecordedEvent = StoredEvent<{ type: string; data: unknown }>;

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  /**
   * Join a caller's open database transaction (PostgreSQL adapter), so a consumer's reaction and its
   * "handled" record commit together. Adapters without transactions ignore it; there, deterministic
   * event ids make a retried append idempotent instead.
   */
  transaction?: unknown;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextExpectedRevision: number;
  /** Global position of the last appended event. */
  position: Position;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. */
  after?: Position;
  limit?: number;
}

export interface ReadStreamOptions {
  fromRevision?: number;
  /** Adapter-specific (a `pg.PoolClient` for PostgreSQL); adapters without transactions ignore it. */
  transaction?: unknown;
}

export interface SubscribeOptions {
  after?: Position;
  signal?: AbortSignal;
}

export interface EventStore {
  /**
   * Appends atomically. Fails with `ConcurrencyError` (409) when the stream is not at the expected
   * revision. Appending events whose ids are already stored in that stream, in the same order, is a
   * no-op that answers the original result (idempotent retry).
   */
  append(streamId: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult>;
  /**
   * The stream's events from `fromRevision` (default 0); empty when the stream does not exist.
   * `transaction`: read in a caller's open transaction, as `AppendOptions.transaction` appends in it
   * (a command deciding inside one then never waits on its pool for a second connection).
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One page of this store's events in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Every event after `after`, in global order, then live ones as they commit; ends when `signal` aborts. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /**
   * Removes a stream and its events; appending to it again starts it anew (`no_stream`). Only for
   * streams whose name itself is personal data (a username claim) when its owner is forgotten:
   * everything else is shredded, never deleted.
   */
  deleteStream(streamId: string): Promise<void>;
  close(): Promise<void>;
}

export class ConcurrencyError extends ConflictError {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly actual: number | 'no_stream' | 'unknown';

  constructor(streamId: string, expected: ExpectedRevision, actual: number | 'no_stream' | 'unknown') {
    super(
      `The resource was changed by someone else (stream ${streamId}: expected ${expected}, found ${actual}). Reload and try again.`,
      'CONCURRENCY_CONFLICT',
    );
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}
