import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationChangedError, migrationChecksum, runMigrations } from './index.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('migrations');
  pool = new pg.Pool({ connectionString: db.url });
  pool.on('error', () => {});
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('migrations', () => {
  it('applies each file once, in order, inside the service schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '001-things.sql'), 'CREATE TABLE things (id int PRIMARY KEY);');
    writeFileSync(join(dir, '002-seed.sql'), 'INSERT INTO things VALUES (1);');
    expect(await runMigrations(pool, 'kitschema', [{ directory: dir }])).toEqual(['001-things.sql', '002-seed.sql']);
    expect(await runMigrations(pool, 'kitschema', [{ directory: dir }])).toEqual([]);
    writeFileSync(join(dir, '003-broken.sql'), 'INSERT INTO nowhere VALUES (1);');
    await expect(runMigrations(pool, 'kitschema', [{ directory: dir }])).rejects.toThrow(
      'Migration kitschema/003-broken.sql failed',
    );
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM kitschema.things');
    expect(rows[0].n).toBe(1);
  });

  it('stops the start when a migration that ran was edited, and names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    const original = 'CREATE TABLE notes (id int PRIMARY KEY);\n';
    writeFileSync(join(dir, '001-notes.sql'), original);
    expect(await runMigrations(pool, 'edited', [{ directory: dir }])).toEqual(['001-notes.sql']);
    const { rows } = await pool.query('SELECT checksum FROM edited.schema_migrations');
    expect(rows).toEqual([{ checksum: migrationChecksum(original) }]);

    writeFileSync(join(dir, '001-notes.sql'), 'CREATE TABLE notes (id int PRIMARY KEY, body text);\n');
    writeFileSync(join(dir, '002-more.sql'), 'CREATE TABLE more (id int);');
    const refused = runMigrations(pool, 'edited', [{ directory: dir }]);
    await expect(refused).rejects.toBeInstanceOf(MigrationChangedError);
    await expect(refused).rejects.toThrow(
      /^Migration edited\/001-notes\.sql was changed after it ran here .* restore the file, and put the change in a new migration\.$/,
    );
    // Nothing after it ran.
    const { rows: tables } = await pool.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'edited' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(['notes', 'schema_migrations']);

    // Restored, with Windows line endings: the same migration; the next one runs.
    writeFileSync(join(dir, '001-notes.sql'), original.replace(/\n/g, '\r\n'));
    expect(await runMigrations(pool, 'edited', [{ directory: dir }])).toEqual(['002-more.sql']);
  });

  it('records the checksum of a migration that ran before checksums were kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    const sql = 'CREATE TABLE old (id int);';
    writeFileSync(join(dir, '001-old.sql'), sql);
    await pool.query('CREATE SCHEMA legacy');
    await pool.query('CREATE TABLE legacy.old (id int)');
    await pool.query(
      'CREATE TABLE legacy.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await pool.query("INSERT INTO legacy.schema_migrations (name) VALUES ('001-old.sql')");
    expect(await runMigrations(pool, 'legacy', [{ directory: dir }])).toEqual([]);
    const { rows } = await pool.query('SELECT checksum FROM legacy.schema_migrations');
    expect(rows).toEqual([{ checksum: migrationChecksum(sql) }]);
  });

  it('lets concurrent starters apply a migration exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '001-counter.sql'), 'CREATE TABLE counter (n int); INSERT INTO counter VALUES (1);');
    await Promise.all([
      runMigrations(pool, 'racing', [{ directory: dir }]),
      runMigrations(pool, 'racing', [{ directory: dir }]),
      runMigrations(pool, 'racing', [{ directory: dir }]),
    ]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM racing.counter');
    expect(rows[0].n).toBe(1);
  });
});

describe('library migrations', () => {
  it('records a library’s files under its prefix and runs the sources in the order given', async () => {
    const lib = mkdtempSync(join(tmpdir(), 'migrations-'));
    const own = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(lib, '001-base.sql'), 'CREATE TABLE base (id int PRIMARY KEY);');
    writeFileSync(join(own, '001-uses-base.sql'), 'CREATE TABLE child (id int REFERENCES base (id));');
    expect(await runMigrations(pool, 'layered', [{ directory: lib, prefix: 'lib' }, { directory: own }])).toEqual([
      'lib/001-base.sql',
      '001-uses-base.sql',
    ]);
    const { rows } = await pool.query('SELECT name FROM layered.schema_migrations ORDER BY applied_at, name');
    expect(rows.map((r) => r.name).sort()).toEqual(['001-uses-base.sql', 'lib/001-base.sql']);
  });

  it('refuses a schema name that is not an identifier', async () => {
    await expect(runMigrations(pool, 'bad; DROP', [])).rejects.toThrow('Invalid schema name');
  });
});
