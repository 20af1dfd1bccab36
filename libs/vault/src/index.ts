import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { NotFoundError } from '@shiplog/errors';
import { dataSubjectOf } from '@shiplog/events';
import { type MigrationSource, runMigrations } from '@shiplog/migrations';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { BARE_KEY_LENGTH, KeyWrapping } from './key-wrapping.ts';
import { type EventLike, isSealed, type Queryable, type SealedData } from './sealed-data.ts';

/**
 * Crypto-shredding. Each user has a data key; every event holding a user's personal data is stored
 * sealed with it (AES-256-GCM, bound to the event's id and type), in the event store and in every copy
 * the bus keeps. Deleting the account destroys the key and records the user as forgotten, so those
 * events can no longer be opened anywhere and no new key is ever made for that user.
 *
 * The keys live in PostgreSQL's `vault` schema, shared by every service like a key-management service,
 * each wrapped with a master key from the environment (VAULT_KEY_SECRET), so the database alone opens
 * nothing.
 */

export interface VaultOptions {
  /**
   * The secret every data key is wrapped with at rest (VAULT_KEY_SECRET, at least 32 characters): a
   * copy of the database alone opens no personal data. Every process that opens events needs the same.
   */
  masterKey: string;
  /**
   * While rotating the master key: the ones it replaces (VAULT_KEY_SECRET_PREVIOUS). Keys wrapped
   * with one of them still open, and `rewrapKeys` wraps them anew with `masterKey`.
   */
  previousMasterKeys?: string[];
  /** How long a key read by the command path is reused. Consumers read keys fresh (see `open`). */
  cacheTtlMs?: number;
  cacheSize?: number;
}

/** The vault's tables (its own schema, `vault`, shared by every service). */
export const vaultMigrations: MigrationSource = {
  directory: join(import.meta.dirname, '..', 'migrations'),
  prefix: 'vault',
};

export class Vault {
  readonly #pool: pg.Pool;
  /** Keys as KeyObjects: a cipher made from one costs ~5 µs, from the raw bytes ~18 µs. */
  readonly #cache: LRUCache<string, KeyObject>;

  /** Wraps the data keys (VaultOptions.masterKey) and opens those of earlier ones (previousMasterKeys). */
  readonly #keys: KeyWrapping;

  constructor(pool: pg.Pool, options: VaultOptions) {
    this.#pool = pool;
    this.#keys = new KeyWrapping(options.masterKey, options.previousMasterKeys);
    this.#cache = new LRUCache({ max: options.cacheSize ?? 10_000, ttl: options.cacheTtlMs ?? 60_000 });
  }

  /** Creates the vault's tables (its versioned migrations, in the `vault` schema); safe from every service at every start. */
  static async migrate(pool: pg.Pool): Promise<void> {
    await runMigrations(pool, 'vault', [vaultMigrations]);
  }

  /** Seals the personal events (see the catalog's `personal`); others pass unchanged. */
  async seal<E extends EventLike>(events: E[]): Promise<E[]> {
    return Promise.all(
      events.map(async (event) => {
        const subject = dataSubjectOf(event.type, event.data);
        if (!subject || isSealed(event.data)) return event;
        const key = await this.#keyFor(subject);
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        cipher.setAAD(aad(event));
        const body = Buffer.concat([
          cipher.update(JSON.stringify(event.data), 'utf8'),
          cipher.final(),
          cipher.getAuthTag(),
        ]);
        const sealed: SealedData = {
          $sealed: 'aes-256-gcm',
          subject,
          iv: iv.toString('base64'),
          data: body.toString('base64'),
        };
        return { ...event, data: sealed };
      }),
    );
  }

  /**
   * Opens sealed events; unsealed ones pass unchanged, and an event whose key is gone comes back as
   * null. `fresh` reads the keys in `client` (a consumer's transaction) instead of the cache, so that a
   * reaction handled after a `UserDeleted` can never open that user's older events.
   */
  async open<E extends EventLike>(
    events: E[],
    options: { client?: Queryable; fresh?: boolean; keyRows?: KeyRow[] } = {},
  ): Promise<(E | null)[]> {
    const subjects = subjectsOf(events);
    if (subjects.size === 0) return events;
    const keys = new Map<string, KeyObject>();
    const missing: string[] = [];
    for (const subject of subjects) {
      const cached = options.fresh ? undefined : this.#cached(subject);
      if (cached) keys.set(subject, cached);
      else missing.push(subject);
    }
    if (missing.length > 0) {
      const rows =
        options.keyRows ??
        (
          await (options.client ?? this.#pool).query<KeyRow>(
            'SELECT subject, key FROM vault.subject_keys WHERE subject = ANY($1::uuid[])',
            [missing],
          )
        ).rows;
      for (const row of rows) {
        const key = createSecretKey(this.#keys.unwrap(row.subject, row.key));
        keys.set(row.subject, key);
        this.#remember(row.subject, key);
      }
    }
    return events.map((event) => {
      if (!isSealed(event.data)) return event;
      const key = keys.get(event.data.subject);
      if (!key) return null;
      const body = Buffer.from(event.data.data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(event.data.iv, 'base64'));
      decipher.setAAD(aad(event));
      decipher.setAuthTag(body.subarray(body.length - 16));
      // A wrong tag (tampered or misplaced data) throws: that is corruption, never a silent skip.
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
      return { ...event, data: JSON.parse(plain.toString('utf8')) };
    });
  }

  /**
   * The statement that reads the keys `open` needs for these events, for a caller that sends it in a
   * round trip with others and passes its rows to `open` as `keyRows`. Undefined when none is sealed.
   */
  keysStatement(events: EventLike[]): { text: string; values: unknown[] } | undefined {
    const subjects = subjectsOf(events);
    if (subjects.size === 0) return undefined;
    return {
      text: 'SELECT subject, key FROM vault.subject_keys WHERE subject = ANY($1::uuid[])',
      values: [[...subjects]],
    };
  }

  /**
   * Whether the subject's key was destroyed (the account deleted). A process that sealed for the
   * subject a moment before still holds the key in its cache: a write no session guards (a deploy
   * webhook's) asks this first, so it never records for a deleted account.
   */
  async isForgotten(subject: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query('SELECT 1 FROM vault.forgotten_subjects WHERE subject = $1', [subject]);
    return rowCount === 1;
  }

  /** Destroys the subject's key for good. Idempotent; join the caller's transaction with `client`. */
  async forget(subject: string, client?: Queryable): Promise<void> {
    await (client ?? this.#pool).query(
      `WITH forgotten AS (INSERT INTO vault.forgotten_subjects (subject) VALUES ($1) ON CONFLICT DO NOTHING)
       DELETE FROM vault.subject_keys WHERE subject = $1`,
      [subject],
    );
    this.#cache.delete(subject);
  }

  async #keyFor(subject: string): Promise<KeyObject> {
    const cached = this.#cached(subject);
    if (cached) return cached;
    const select = 'SELECT key FROM vault.subject_keys WHERE subject = $1';
    let row = (await this.#pool.query<{ key: Buffer }>(select, [subject])).rows[0];
    if (!row) {
      // A concurrent creator may win: then nothing is returned here and the next read finds its key.
      row = (
        await this.#pool.query<{ key: Buffer }>(
          `INSERT INTO vault.subject_keys (subject, key)
           SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM vault.forgotten_subjects WHERE subject = $1)
           ON CONFLICT (subject) DO NOTHING RETURNING key`,
          [subject, this.#keys.wrap(subject, randomBytes(32))],
        )
      ).rows[0];
      row ??= (await this.#pool.query<{ key: Buffer }>(select, [subject])).rows[0];
    }
    if (!row) throw forgottenSubject();
    const key = createSecretKey(this.#keys.unwrap(subject, row.key));
    this.#remember(subject, key);
    return key;
  }

  /**
   * Wraps with the master key every data key not yet wrapped with it: those stored bare (before keys
   * were wrapped) and, while rotating, those wrapped with a previous master key. Each row is changed
   * only if unchanged meanwhile, so services starting together wrap each once. Every service runs it
   * at start: it reads every row only while previous master keys are configured, else only the bare
   * ones, through their partial index. Answers how many.
   */
  async rewrapKeys(): Promise<number> {
    const which = this.#keys.rotating ? '' : ` AND length(key) = ${BARE_KEY_LENGTH}`;
    let rewrapped = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.#pool.query<KeyRow>(
        `SELECT subject, key FROM vault.subject_keys WHERE subject > $1${which} ORDER BY subject LIMIT 500`,
        [after],
      );
      if (rows.length === 0) return rewrapped;
      after = rows.at(-1)!.subject;
      for (const { subject, key } of rows) {
        const { key: plain, current } = this.#keys.unwrapAny(subject, key);
        if (current) continue;
        const { rowCount } = await this.#pool.query(
          'UPDATE vault.subject_keys SET key = $3 WHERE subject = $1 AND key = $2',
          [subject, key, this.#keys.wrap(subject, plain)],
        );
        rewrapped += rowCount ?? 0;
      }
    }
  }

  /**
   * Opens every data key with the configured master keys (after a restore: were these the keys the
   * backup was made with?). Throws at the first that none opens; answers how many opened.
   */
  async verifyKeys(): Promise<number> {
    let opened = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.#pool.query<KeyRow>(
        'SELECT subject, key FROM vault.subject_keys WHERE subject > $1 ORDER BY subject LIMIT 500',
        [after],
      );
      if (rows.length === 0) return opened;
      after = rows.at(-1)!.subject;
      for (const { subject, key } of rows) {
        this.#keys.unwrapAny(subject, key);
        opened += 1;
      }
    }
  }

  #cached(subject: string): KeyObject | undefined {
    return this.#cache.get(subject);
  }

  #remember(subject: string, key: KeyObject): void {
    this.#cache.set(subject, key);
  }
}

/** A row of vault.subject_keys as `open` reads it. */
export interface KeyRow {
  subject: string;
  key: Buffer;
}

function subjectsOf(events: EventLike[]): Set<string> {
  const subjects = new Set<string>();
  for (const event of events) if (isSealed(event.data)) subjects.add(event.data.subject);
  return subjects;
}

function aad(event: EventLike): Buffer {
  return Buffer.from(`${event.id}:${event.type}`, 'utf8');
}

export { isSealed, type Queryable, type SealedData, SHREDDED } from './sealed-data.ts';

/** What sealing for a subject whose key was destroyed (a deleted account) throws. */
const forgottenSubject = () => new NotFoundError('User not found', 'USER_NOT_FOUND');

/**
 * What an append sealed for a forgotten subject comes to, for a caller for whom that is nothing: the
 * subject's streams went with it (its key is gone, so nothing more can be sealed for it). Any other
 * error is thrown again.
 */
export function unlessForgotten(error: unknown): null {
  if (error instanceof NotFoundError && error.code === 'USER_NOT_FOUND') return null;
  throw error;
}
export { SealedEventStore } from './sealed-store.ts';
export { SecretBox } from './secret-box.ts';
