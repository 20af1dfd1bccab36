import type pg from 'pg';

/** What an event's `data` holds once sealed. */
export interface SealedData {
  $sealed: 'aes-256-gcm';
  subject: string;
  iv: string;
  /** Ciphertext then the 16-byte tag, base64. */
  data: string;
}

/** An opened event whose key is gone: its data no longer exists. */
export const SHREDDED: unique symbol = Symbol('shredded');

export function isSealed(data: unknown): data is SealedData {
  return typeof data === 'object' && data !== null && (data as { $sealed?: unknown }).$sealed === 'aes-256-gcm';
}

export interface EventLike {
  id: string;
  type: string;
  data: unknown;
}

export type Queryable = Pick<pg.Pool, 'query'> | pg.ClientBase;
