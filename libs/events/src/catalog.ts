import type { z } from 'zod';
import { billingEvents } from './catalog/billing.ts';
import { chatEvents } from './catalog/chat.ts';
import { identityEvents } from './catalog/identity.ts';
import { integrationEvents } from './catalog/integrations.ts';
import { monitorEvents } from './catalog/monitors.ts';
import { projectEvents } from './catalog/projects.ts';
import { reminderEvents } from './catalog/reminders.ts';
import type { CatalogEntry, EventOwner } from './catalog/shared.ts';

export type { EventOwner } from './catalog/shared.ts';

/**
 * The one event catalog: every domain event of every service, with its zod schema and version.
 * Events are past-tense facts. `owner` is the service that appends it (and the NATS subject's second
 * token); `publish: false` keeps an event inside its service's store (secrets such as password hashes
 * never travel over the bus). A new incompatible shape bumps `version` and adds an upcaster from the
 * previous one, so old stored events keep loading.
 *
 * Personal data: every event whose `data.userId` names a user is sealed with that user's key
 * (`personal`, in `catalog/shared.ts`); deleting the account destroys the key (crypto-shredding).
 *
 * Each owner's events are in `catalog/<owner>.ts`, the value lists their enums hold in
 * `catalog/values.ts` (frozen: see there), and what they share in `catalog/shared.ts`. An event's type
 * is unique across the owners (`catalog.unit.test.ts`).
 */
export const catalog = {
  ...identityEvents,
  ...billingEvents,
  ...projectEvents,
  ...reminderEvents,
  ...chatEvents,
  ...integrationEvents,
  ...monitorEvents,
} as const;

export type Catalog = typeof catalog;
export type EventType = keyof Catalog;
export type EventData<T extends EventType> = z.infer<Catalog[T]['schema']>;
/** A domain event as `decide` returns it: a tagged union over the whole catalog. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
/** The event types a service publishes on the bus (what a consumer of that source can receive). */
export type PublishedEventType<O extends EventOwner> = {
  [T in EventType]: Catalog[T] extends { owner: O; publish: true } ? T : never;
}[EventType];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(catalog, type);
}

/** Validates stored or received data against the catalog, upcasting older versions first. */
export function parseEventData<T extends EventType>(type: T, data: unknown, version: number): EventData<T> {
  const entry: CatalogEntry<z.ZodType> = catalog[type];
  let current = data;
  for (let v = version; v < entry.version; v++) {
    const upcast = entry.upcasters?.[v];
    if (!upcast) throw new Error(`No upcaster for ${type} from version ${v}`);
    current = upcast(current);
  }
  return entry.schema.parse(current) as EventData<T>;
}

/**
 * The one way an event as stored or carried becomes a typed domain event: its type checked against the
 * catalog, its data upcast from `schemaVersion` and validated. Unknown types throw.
 */
export function toDomainEvent(type: string, data: unknown, schemaVersion = 1): DomainEvent {
  if (!isEventType(type)) throw new Error(`Unknown event type: ${type}`);
  return { type, data: parseEventData(type, data, schemaVersion) } as DomainEvent;
}

export function eventVersion(type: EventType): number {
  return catalog[type].version;
}

/** The user whose personal data an event holds (its key seals the event), or null. */
export function dataSubjectOf(type: string, data: unknown): string | null {
  if (!isEventType(type)) return null;
  const entry: CatalogEntry<z.ZodType> = catalog[type];
  if (entry.personal === false) return null;
  const { userId, workspaceId } = (data ?? {}) as { userId?: unknown; workspaceId?: unknown };
  // A team workspace's project is the team's: sealed with the workspace's key, not its maker's.
  if (typeof workspaceId === 'string') return workspaceId;
  return typeof userId === 'string' ? userId : null;
}

export function isPublished(type: string): boolean {
  return isEventType(type) && catalog[type].publish;
}

/** Every published event type a service appends: what a consumer of that source subscribes to. */
export function publishedEventTypesOf<O extends EventOwner>(owner: O): PublishedEventType<O>[] {
  return (Object.keys(catalog) as EventType[]).filter(
    (type) => catalog[type].owner === owner && catalog[type].publish,
  ) as PublishedEventType<O>[];
}
