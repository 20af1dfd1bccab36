import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from './index.ts';

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
