import { createHash } from 'node:crypto';
import {
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '@shiplog/event-store';
import {
  type DomainEvent,
  type EventMetadata,
  eventVersion,
  isPublished,
  newId,
  type Position,
  toDomainEvent,
} from '@shiplog/events';
import { isId } from '@shiplog/schemas';
import { currentTraceparent } from '@shiplog/telemetry';
import { SHREDDED, unlessForgotten } from '@shiplog/vault';
import type { ReceivedEvent } from './consumers.ts';

/**
 * An aggregate's pure logic: `evolve` folds events into state, `decide` turns a command and the
 * current state into new events (or throws a typed error). No I/O, no clock: `now` is passed in.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State, now: Date) => Event[];
}

/**
 * The events an item of a project decided, each naming `space`, the team workspace the project is in
 * now (null: a personal project, and none is named), so `dataSubjectOf` seals them with the team's key
 * (decisions 056 and 057).
 */
export function inSpace<Event extends DomainEvent>(events: Event[], space: string | null): Event[] {
  return space ? events.map((event) => ({ ...event, data: { ...event.data, workspaceId: space } })) : events;
}

export interface CommandContext {
  /** Who acts (the event's `metadata.userId`): the caller; null for a platform, a webhook or a timer. */
  userId: string | null;
  /** The name of the API token the caller used, when one (`Caller.apiToken`). */
  token?: string;
  /**
   * The client's address (`Caller.address`): kept on the events that name a team workspace only (its
   * audit log shows it); a personal change's events keep none.
   */
  address?: string;
  correlationId: string;
  causationId?: string | null;
  /**
   * The time the command is decided at: the service's clock (`ServiceContext.now`), or a reaction's
   * event's time (`causedBy`). Never the system's, so a test's injected clock decides everything.
   */
  now: Date;
  /** Join an open transaction of the caller (see EventStore.append). */
  transaction?: unknown;
  /**
   * Derive event ids from this key instead of generating them: a reaction retried after a crash then
   * appends the same ids, which the store treats as an idempotent no-op.
   */
  idempotencyKey?: string;
  /**
   * The stream cannot exist yet: its id was generated for this command. Its (empty) history is not
   * read, and the append expects no stream, so a stream that does exist still fails as a conflict.
   */
  newStream?: boolean;
  /**
   * The decision does not depend on the stream's history (an unlimited user's message is counted
   * whatever came before): the history is not read, `decide` sees the initial state, and the append
   * expects any revision. A stream that only grows this way stays cheap to write however long it gets.
   */
  appendOnly?: boolean;
  /**
   * On a concurrent change to the stream, decide again from the stream as it now stands, up to this
   * many more times (default 0: the conflict surfaces as a 409). For commands whose outcome depends only
   * on the stream, such as counting against a limit: two racing for the last unit get one each way.
   */
  retries?: number;
}

/**
 * The context of a command a reaction runs because of `event`: the event's correlation, the event as
 * its cause, the event's time as now (a replay decides the same), the consumer's transaction, and an
 * idempotency key the caller derives from the event, so a redelivery appends the same ids (a no-op).
 */
export function causedBy(
  event: ReceivedEvent,
  transaction: unknown,
  idempotencyKey: string,
  userId: string | null = null,
): CommandContext {
  return {
    userId,
    correlationId: event.metadata.correlationId,
    causationId: event.id,
    now: new Date(event.occurredAt),
    transaction,
    idempotencyKey,
  };
}

/**
 * A project moved to another space (`ProjectMovedIn`, decision 058): each of the service's items on it
 * (`ids`, each in `stream(id)`) decides `MoveWithProject`, stated again under the project's new key.
 * Decided again if a timer or a member changes the item at the same moment. Into a personal space an
 * item is sealed for its maker: one whose maker is gone stays as it was stated.
 */
export async function moveWithProject<State, Event extends DomainEvent>(
  store: EventStore,
  event: ReceivedEvent<'ProjectMovedIn'>,
  transaction: unknown,
  items: { ids: string[]; stream: (id: string) => string },
  decider: Decider<State, { type: 'MoveWithProject'; space: string | null }, Event>,
): Promise<void> {
  const command = { type: 'MoveWithProject', space: event.data.workspaceId ?? null } as const;
  for (const id of items.ids)
    await handleCommand(store, items.stream(id), decider, command, {
      ...causedBy(event, transaction, `move:${event.id}:${id}`, event.data.movedBy),
      retries: 3,
    }).catch(unlessForgotten);
}

export interface CommandResult<State, Event> {
  state: State;
  events: Event[];
  /** Null when `decide` produced no events (nothing was appended). */
  appended: AppendResult | null;
  /**
   * Position of the last appended event that goes out on the bus: what a read-your-writes wait can
   * target (consumers never see unpublished events). Null when none was published, or inside a
   * caller's transaction (nothing is visible to readers before its commit).
   */
  position: Position | null;
}

/**
 * Parses stored events through the catalog (upcasting old versions) into domain events. Shredded ones
 * (their user was forgotten) no longer exist: an aggregate made only of them is back at its initial state.
 */
export function toDomainEvents<Event extends DomainEvent>(recorded: RecordedEvent[]): Event[] {
  return recorded.flatMap((e) => {
    if (e.data === SHREDDED) return [];
    return [toDomainEvent(e.type, e.data, e.metadata.schemaVersion) as Event];
  });
}

export async function loadAggregate<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  transaction?: unknown,
): Promise<{ state: State; revision: number | null }> {
  const recorded = await store.readStream(streamId, transaction === undefined ? {} : { transaction });
  const state = toDomainEvents<Event>(recorded).reduce(decider.evolve, decider.initialState());
  return { state, revision: recorded.length > 0 ? recorded.at(-1)!.revision : null };
}

/**
 * load → decide → append with the expected revision. A concurrent change surfaces as a 409, or is
 * decided again (`retries`).
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: CommandContext,
): Promise<CommandResult<State, Event>> {
  for (let retriesLeft = context.retries ?? 0; ; retriesLeft--) {
    try {
      return await decideAndAppend();
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || retriesLeft <= 0) throw error;
    }
  }

  async function decideAndAppend(): Promise<CommandResult<State, Event>> {
    const history =
      context.newStream || context.appendOnly
        ? []
        : await store.readStream(
            streamId,
            context.transaction === undefined ? {} : { transaction: context.transaction },
          );
    const state = toDomainEvents<Event>(history).reduce(decider.evolve, decider.initialState());
    const revision = history.length > 0 ? history.at(-1)!.revision : null;
    const repeated = context.idempotencyKey ? repeatOf(history, context.idempotencyKey) : [];
    if (repeated.length > 0) return answeredBefore(repeated);
    const events = decider.decide(command, state, context.now);
    if (events.length === 0) return { state, events, appended: null, position: null };
    const expectedRevision: ExpectedRevision = context.appendOnly ? 'any' : (revision ?? 'no_stream');
    const appended = await store.append(
      streamId,
      events.map((event, index) => ({
        id: context.idempotencyKey ? deterministicId(`${context.idempotencyKey}:${index}`) : newId(),
        type: event.type,
        data: event.data,
        metadata: metadataFor(context, event),
      })),
      { expectedRevision, transaction: context.transaction },
    );
    return { state: events.reduce(decider.evolve, state), events, appended, position: await publishedPosition() };

    /**
     * The command ran before with this key (a retried request, a redelivered event): its answer again,
     * from the events it appended, not from a new decision against the stream as it now stands (which
     * may decide fewer events, and would answer an earlier position than the one the first answer gave).
     */
    function answeredBefore(stored: RecordedEvent[]): CommandResult<State, Event> {
      const last = stored.at(-1)!;
      const published = stored.findLast((e) => isPublished(e.type as DomainEvent['type']));
      return {
        state,
        events: toDomainEvents<Event>(stored),
        appended: { nextExpectedRevision: last.revision, position: last.position },
        position: published && !context.transaction ? published.position : null,
      };
    }

    async function publishedPosition(): Promise<Position | null> {
      const lastPublished = events.findLastIndex((e) => isPublished(e.type));
      if (lastPublished === -1 || context.transaction) return null;
      if (lastPublished === events.length - 1) return appended.position;
      // An unpublished event came last: read back the appended events for the published one's position.
      const firstRevision = appended.nextExpectedRevision - events.length + 1;
      const stored = await store.readStream(streamId, { fromRevision: firstRevision + lastPublished });
      return stored[0]?.position ?? null;
    }
  }
}

/** The events a command with this idempotency key appended to the stream, in order (none: it has not run). */
function repeatOf(history: RecordedEvent[], idempotencyKey: string): RecordedEvent[] {
  const first = deterministicId(`${idempotencyKey}:0`);
  const start = history.findIndex((e) => e.id === first);
  if (start === -1) return [];
  const stored: RecordedEvent[] = [];
  for (let index = 0; history[start + index]?.id === deterministicId(`${idempotencyKey}:${index}`); index++)
    stored.push(history[start + index]!);
  return stored;
}

/** An event's metadata: who caused it, in which request and trace, and its schema version. */
export function metadataFor(
  context: CommandContext,
  { type, data }: Pick<DomainEvent, 'type' | 'data'>,
): EventMetadata {
  // The client's address stays on a team workspace's events only (they name it): its audit log's.
  const { workspaceId, space } = data as { workspaceId?: unknown; space?: unknown };
  // A token limited to a team workspace names it as its `space`.
  const team = typeof workspaceId === 'string' || isId(space);
  return {
    userId: context.userId,
    ...(context.token ? { token: context.token } : {}),
    ...(context.address && team ? { address: context.address } : {}),
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
    schemaVersion: eventVersion(type),
    ...traced(),
  };
}

/** The current span's `traceparent`, for an event's metadata: its reactions join the same trace. */
export function traced(): { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

/** A UUID (version 8, RFC 9562 custom) derived from a key: same key, same id. */
export function deterministicId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
