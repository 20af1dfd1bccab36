import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/**
 * The one migration runner. Every table of the system is made by a versioned `.sql` file: a library's
 * (`libs/event-store/migrations`, `libs/messaging/migrations`, `libs/vault/migrations`) or a service's
 * (`services/<name>/migrations`). Files run in name order, once each, each in its own transaction with
 * `search_path` set to the schema, recorded in `<schema>.schema_migrations` with its checksum: a file
 * edited after it ran stops the start (`MigrationChangedError`), since the databases it already ran
 * on would never see the edit.
 */
export interface MigrationSource {
  directory: string;
  /** Recorded names are `<prefix>/<file>`; a service's own files have none. */
  prefix?: string;
}

/** A migration that ran was edited since: the start stops, saying which and what to do. */
export class MigrationChangedError extends Error {
  constructor(schema: string, name: string, recorded: string, now: string) {
    super(
      `Migration ${schema}/${name} was changed after it ran here (recorded sha256 ${recorded.slice(0, 12)}, ` +
        `the file is now ${now.slice(0, 12)}). A migration that ran is never edited: restore the file, and put ` +
        'the change in a new migration.',
    );
    this.name = 'MigrationChangedError';
  }
}

/** A file's checksum, its line endings as LF: a checkout that writes CRLF is the same migration. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/**
 * One checksum of every file of the sources, names included: equal exactly when the sources would
 * make the same tables (a pre-migrated test database is keyed by it).
 */
export function sourcesChecksum(sources: MigrationSource[]): string {
  const hash = createHash('sha256');
  for (const { directory, prefix } of sources) {
    const files = existsSync(directory)
      ? readdirSync(directory)
          .filter((f) => f.endsWith('.sql'))
          .sort()
      : [];
    for (const file of files)
      hash.update(`${prefix ?? ''}/${file}:${migrationChecksum(readFileSync(join(directory, file), 'utf8'))}\n`);
  }
  return hash.digest('hex');
}

/**
 * Runs the sources' pending migrations in `schema`, in the order given. A session advisory lock keeps
 * two replicas (or a service's consumers) starting together from racing. Answers what was applied.
 */
export async function runMigrations(pool: pg.Pool, schema: string, sources: MigrationSource[]): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    // Recorded since checksums were kept; a row from before has none until its next start records it.
    await client.query(`ALTER TABLE ${schema}.schema_migrations ADD COLUMN IF NOT EXISTS checksum text`);
    const { rows } = await client.query<{ name: string; checksum: string | null }>(
      `SELECT name, checksum FROM ${schema}.schema_migrations`,
    );
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    const applied: string[] = [];
    for (const { directory, prefix } of sources) {
      const files = existsSync(directory)
        ? readdirSync(directory)
            .filter((f) => f.endsWith('.sql'))
            .sort()
        : [];
      for (const file of files) {
        const name = prefix ? `${prefix}/${file}` : file;
        const sql = readFileSync(join(directory, file), 'utf8');
        const checksum = migrationChecksum(sql);
        if (done.has(name)) {
          const recorded = done.get(name);
          if (recorded === null || recorded === undefined)
            await client.query(`UPDATE ${schema}.schema_migrations SET checksum = $1 WHERE name = $2`, [
              checksum,
              name,
            ]);
          else if (recorded !== checksum) throw new MigrationChangedError(schema, name, recorded, checksum);
          continue;
        }
        await client.query('BEGIN');
        try {
          await client.query(`SET LOCAL search_path TO ${schema}`);
          await client.query(sql);
          await client.query(`INSERT INTO ${schema}.schema_migrations (name, checksum) VALUES ($1, $2)`, [
            name,
            checksum,
          ]);
          await client.query('COMMIT');
          applied.push(name);
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`Migration ${schema}/${name} failed: ${(error as Error).message}`);
        }
      }
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    client.release();
  }
}
