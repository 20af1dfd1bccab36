import { type EventOf, type EventType, toDomainEvent } from '@shiplog/events';
import type { Batch, BusEvent, Handler } from '@shiplog/messaging';
import type pg from 'pg';

/** An event as a consumer receives it: the bus envelope (id, time, metadata), its data parsed through the catalog. */
export type ReceivedEvent<T extends EventType = EventType> = {
  [K in T]: Omit<BusEvent, 'type' | 'data'> & EventOf<K>;
}[T];

/** A reaction to one event type, in the consumer's transaction (see `@shiplog/messaging`'s Handler). */
export type EventHandler<T extends EventType> = (
  event: ReceivedEvent<T>,
  tx: pg.PoolClient,
  batch: Batch,
) => Promise<void>;

/** Handlers by event type: each receives that type's data, typed. */
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerDefinition {
  /** Unique within the service; the durable name is `<service>-<name>`. */
  name: string;
  sources: string[];
  /**
   * Only this event type of the one source (e.g. identity's `UserDeleted`): the consumer is sent
   * nothing else, and takes no part in read-your-writes waits.
   */
  only?: EventType;
  handlers: EventHandlers;
}

/** A read model: a consumer whose handlers only write its own tables, so it can be rebuilt from the stores. */
export interface ProjectionDefinition extends ConsumerDefinition {
  tables: string[];
}

/** One handler for several event types (a projection that folds them all the same way). */
export function onEach<T extends EventType>(types: readonly T[], handler: EventHandler<T>): EventHandlers {
  return Object.fromEntries(types.map((type) => [type, handler])) as EventHandlers;
}

/** The one way a bus message becomes a typed domain event (see toDomainEvent). */
export function receivedEvent(event: BusEvent): ReceivedEvent {
  return { ...event, ...toDomainEvent(event.type, event.data, event.metadata.schemaVersion) } as ReceivedEvent;
}

/** Typed handlers as the bus consumer runs them: each event parsed once, before its handler. */
export function busHandlers(handlers: EventHandlers): Record<string, Handler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([type, handle]) => [
      type,
      (event: BusEvent, tx: pg.PoolClient, batch: Batch) =>
        (handle as EventHandler<EventType>)(receivedEvent(event), tx, batch),
    ]),
  );
}

/**
 * A projection's documents for one batch, read once and then kept as the batch evolves them: the
 * documents the batch's events name (by `idOf`) are read in one locked query, except those whose first
 * event here creates them (one of the `creates` types). The projection applies each event in memory and defers its writes (see
 * Batch), so a batch of any size costs one read and one write round trip.
 */
export function batchDocuments<D>(options: {
  idOf: (event: BusEvent) => string;
  creates: readonly string[];
  /** Reads the stored documents with these ids, locked (`FOR UPDATE`). */
  load: (tx: pg.PoolClient, ids: string[]) => Promise<Map<string, D>>;
}): (batch: Batch, tx: pg.PoolClient) => Promise<Map<string, D>> {
  const key = Symbol('batch documents');
  return async (batch, tx) => {
    const kept = batch.shared.get(key) as Map<string, D> | undefined;
    if (kept) return kept;
    const first = new Map<string, string>();
    for (const event of batch.events) {
      const id = options.idOf(event);
      if (!first.has(id)) first.set(id, event.type);
    }
    const stored = [...first].filter(([, type]) => !options.creates.includes(type)).map(([id]) => id);
    const documents = stored.length > 0 ? await options.load(tx, stored) : new Map<string, D>();
    batch.shared.set(key, documents);
    return documents;
  };
}
