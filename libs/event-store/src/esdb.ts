import {
  ANY,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { comparePositions, type EventMetadata, type Position } from '@shiplog/events';
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

/**
 * EventStoreDB (KurrentDB) adapter, for scale. One database serves every service: each service's
 * streams carry its namespace as a prefix (`identity.user-<id>`), and its reads and subscriptions are
 * filtered to that prefix. EventStoreDB gives the guarantees natively: optimistic concurrency by
 * stream revision, idempotent appends by event id, and a gap-free `$all` order by (commit, prepare).
 */
export class EsdbEventStore implements EventStore {
  readonly #client: KurrentDBClient;
  readonly #prefix: string;

  constructor(connectionString: string, namespace: string) {
    this.#client = KurrentDBClient.connectionString(connectionString);
    this.#prefix = `${namespace}.`;
  }

  async append(streamId: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    const { expectedRevision } = options;
    const streamState =
      typeof expectedRevision === 'number'
        ? BigInt(expectedRevision)
        : expectedRevision === 'no_stream'
          ? NO_STREAM
          : expectedRevision === 'stream_exists'
            ? STREAM_EXISTS
            : ANY;
    try {
      const result = await this.#client.appendToStream(
        this.#prefix + streamId,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
        { streamState },
      );
      if (!result.position) throw new Error('EventStoreDB returned no position for an append');
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualState;
        throw new ConcurrencyError(
          streamId,
          expectedRevision,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  /** `transaction` does not apply: EventStoreDB reads and appends never join a PostgreSQL transaction. */
  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      const read = this.#client.readStream(this.#prefix + streamId, {
        direction: FORWARDS,
        fromRevision: options.fromRevision ? BigInt(options.fromRevision) : START,
      });
      for await (const resolved of read) {
        const recorded = this.#toRecorded(resolved.event);
        if (recorded) out.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async deleteStream(streamId: string): Promise<void> {
    // A soft delete: the events go at the next scavenge, and the stream can be started again.
    try {
      await this.#client.deleteStream(this.#prefix + streamId);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? 500;
    const out: RecordedEvent[] = [];
    // Other services' events share $all: read on (lazily, the client streams) until the page is full.
    const read = this.#client.readAll({ direction: FORWARDS, fromPosition: options.after ?? START });
    for await (const resolved of read) {
      const recorded = this.#toRecorded(resolved.event);
      // `fromPosition` is inclusive on reads; the port's `after` is exclusive.
      if (!recorded || (options.after && comparePositions(recorded.position, options.after) <= 0)) continue;
      out.push(recorded);
      if (out.length === limit) break;
    }
    return out;
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const subscription = this.#client.subscribeToAll({
      fromPosition: options.after ?? START,
      filter: streamNameFilter({ prefixes: [this.#prefix] }),
    });
    const onAbort = () => void subscription.unsubscribe();
    options.signal?.addEventListener('abort', onAbort);
    try {
      for await (const resolved of subscription) {
        if (options.signal?.aborted) return;
        const recorded = this.#toRecorded(resolved.event);
        if (recorded) yield recorded;
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      await subscription.unsubscribe();
    }
  }

  async close(): Promise<void> {
    await this.#client.dispose();
  }

  #toRecorded(event: unknown): RecordedEvent | null {
    const e = event as
      | {
          id: string;
          type: string;
          streamId: string;
          revision: bigint;
          created: Date;
          data: unknown;
          metadata: unknown;
          isJson: boolean;
          position?: Position;
        }
      | undefined;
    if (!e?.isJson || !e.streamId.startsWith(this.#prefix) || !e.position) return null;
    return {
      id: e.id,
      type: e.type,
      data: e.data,
      streamId: e.streamId.slice(this.#prefix.length),
      revision: Number(e.revision),
      occurredAt: e.created,
      metadata: e.metadata as EventMetadata,
      position: { commit: e.position.commit, prepare: e.position.prepare },
    };
  }
}
