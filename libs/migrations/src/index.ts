import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/**
 * The one migration runner. Every table of the system is made by a versioned `.sql` file: a library's
 * (`libs/event-store/migrations`, `libs/messaging/migrations`, `libs/vault/migrations`) or a service's
 * (`services/<name>/migrations`). Files run in name order, once each, each in its own transaction with
 * `search_path` set to the schema, recorded in `<schema>.schema_migrations`.
 */
export interface MigrationSource {
  directory: string;
  /** Recorded names are `<prefix>/<file>`; a service's own files have none. */
  prefix?: string;
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
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${schema}.schema_migrations`);
    const done = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    for (const { directory, prefix } of sources) {
      const files = existsSync(directory)
        ? readdirSync(directory)
            .filter((f) => f.endsWith('.sql'))
            .sort()
        : [];
      for (const file of files) {
        const name = prefix ? `${prefix}/${file}` : file;
        if (done.has(name)) continue;
        const sql = readFileSync(join(directory, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(`SET LOCAL search_path TO ${schema}`);
          await client.query(sql);
          await client.query(`INSERT INTO ${schema}.schema_migrations (name) VALUES ($1)`, [name]);
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
