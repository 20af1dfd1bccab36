import type { JsMsg } from '@nats-io/jetstream';
import type { EventStore, RecordedEvent } from '@shiplog/event-store';
import { type EventMetadata, formatPosition, isPublished, type Position, parsePosition } from '@shiplog/events';

/** What travels over the bus: the stored event plus the service whose store it came from. */
export interface BusEvent {
  id: string;
  type: string;
  data: unknown;
  streamId: string;
  revision: number;
  occurredAt: string;
  metadata: EventMetadata;
  source: string;
  position: string;
  /**
   * The relay's publish span (the message's `traceparent` header) when it was traced: a consumer's
   * handling is its child. Not part of the message's body.
   */
  publishedIn?: string;
}

export function toBusEvent(event: RecordedEvent, source: string): BusEvent {
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    streamId: event.streamId,
    revision: event.revision,
    occurredAt: event.occurredAt.toISOString(),
    metadata: event.metadata,
    source,
    position: formatPosition(event.position),
  };
}

export function busEventPosition(event: BusEvent): Position {
  const position = parsePosition(event.position);
  if (!position) throw new Error(`Bus event ${event.id} carries an invalid position: ${event.position}`);
  return position;
}

/** A store's published events, in order, as consumers receive them: what a projection rebuild replays. */
export async function* publishedEvents(store: EventStore, source: string): AsyncIterable<BusEvent> {
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, limit: 1000 });
    for (const event of page) if (isPublished(event.type)) yield toBusEvent(event, source);
    if (page.length < 1000) return;
    after = page.at(-1)!.position;
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a uuid (as event ids and user ids are). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

/** `value` as a bus event, or null when it is none: no uuid id, type, source or valid position. */
export function asBusEvent(value: unknown): BusEvent | null {
  const event = value as Partial<BusEvent> | null;
  const valid =
    isUuid(event?.id) &&
    typeof event.type === 'string' &&
    typeof event.source === 'string' &&
    typeof event.position === 'string' &&
    parsePosition(event.position) !== null &&
    typeof event.metadata === 'object' &&
    event.metadata !== null;
  return valid ? (event as BusEvent) : null;
}

/** The event a bus message carries, or null when it holds none (not JSON, or not an event). */
export function readEvent(message: Pick<JsMsg, 'json' | 'headers'>): BusEvent | null {
  let event: BusEvent | null;
  try {
    event = asBusEvent(message.json());
  } catch {
    return null;
  }
  const publishedIn = message.headers?.get('traceparent');
  if (event && publishedIn) event.publishedIn = publishedIn;
  return event;
}
