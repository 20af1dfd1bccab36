import type { DomainEvent } from './catalog.ts';

/** Who and what caused an event: carried from the HTTP request through every reaction. */
export interface EventMetadata {
  /** Who acted: the user whose request made the event; null for a platform, a webhook or Shiplog itself. */
  userId: string | null;
  /** The name of the personal API token the request came with, when one did (the timeline shows it). */
  token?: string;
  /** The client's address, on a change to a team workspace's things only (its audit log shows it). */
  address?: string;
  correlationId: string;
  causationId: string | null;
  schemaVersion: number;
  traceparent?: string;
}

/**
 * Position in a store's global order: `commit` then `prepare` (EventStoreDB's own pair; the PostgreSQL
 * adapter uses the writing transaction id and the row's sequence number). Positions from one store
 * compare as tuples; they are carried as the string `commit/prepare`.
 */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export const START: Position = { commit: 0n, prepare: 0n };

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

export function parsePosition(text: string): Position | null {
  const match = /^(\d{1,20})\/(\d{1,20})$/.exec(text);
  return match ? { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) } : null;
}

/** An event as stored: what `readStream` and subscriptions hand out. */
export interface StoredEvent<E extends { type: string; data: unknown } = DomainEvent> {
  id: string;
  type: E['type'];
  data: E['data'];
  streamId: string;
  revision: number;
  occurredAt: Date;
  metadata: EventMetadata;
  position: Position;
}
