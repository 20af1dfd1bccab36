/**
 * `pnpm backup [file]` and `pnpm restore <file>`: Shiplog's state in PostgreSQL as one file, and back.
 *
 * The file is a `pg_dump` custom-format archive of Shiplog's schemas only: each service's (its event
 * store, the source of truth, with what it keeps beside it: secret-link hashes, push subscriptions,
 * consumer positions) and the vault's (each user's data key, wrapped by the master keys). The master
 * keys (`VAULT_KEY_SECRET`) are not in it: keep them in your secret store, apart from the backups; without
 * them the file's personal data cannot be read, which is the point. A user erased before the backup
 * stays erased: their key is not in it.
 *
 * A restore goes into a database without Shiplog's schemas (a new one, or the old one emptied), checks
 * that the configured master keys open the restored data keys, then rebuilds every read model from
 * the restored events (`pnpm projections:rebuild`), so what the services serve is what the events say.
 * Start the services afterwards. With the KurrentDB event store (`EVENT_STORE=esdb`) the events
 * live there: back it up with KurrentDB's own backup at the same time; this file holds the rest.
 * Reads the services' environment (DATABASE_URL, VAULT_KEY_SECRET, …).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkServiceEnv, loadConfig, serviceDirectory, serviceEnv, vaultKeys } from '@shiplog/service-kit';
import { Vault } from '@shiplog/vault';
import pg from 'pg';
import { rebuildAll } from './projections-rebuild.ts';

/** The schemas a backup holds: every service's and the vault's. */
export const backedUpSchemas = [...Object.keys(serviceDirectory), 'vault'];

/**
 * `pg_dump`'s arguments for a backup of `databaseUrl` into `file` (the documented commands use the same),
 * with the extensions installed in those schemas (identity's pg_trgm, for the admin's search).
 */
export const dumpArguments = (databaseUrl: string, file: string, extensions: string[]) => [
  '--format=custom',
  '--no-owner',
  '--no-privileges',
  ...backedUpSchemas.map((schema) => `--schema=${schema}`),
  ...extensions.map((extension) => `--extension=${extension}`),
  `--file=${file}`,
  `--dbname=${databaseUrl}`,
];

export async function backup(env: NodeJS.ProcessEnv, file: string): Promise<{ file: string; events: number }> {
  const config = loadConfig(serviceEnv.superRefine(checkServiceEnv), env);
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
  try {
    const tool = await matchingTool(pool, 'pg_dump');
    mkdirSync(dirname(file), { recursive: true });
    const { rows } = await pool.query<{ name: string }>(
      `SELECT extname AS name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       WHERE n.nspname = ANY($1)`,
      [backedUpSchemas],
    );
    await run(
      tool,
      dumpArguments(
        config.DATABASE_URL,
        file,
        rows.map((r) => r.name),
      ),
    );
    return { file, events: await countEvents(pool) };
  } finally {
    await pool.end();
  }
}

export async function restore(
  env: NodeJS.ProcessEnv,
  file: string,
): Promise<{ events: number; keys: number; rebuilt: { projection: string; events: number }[] }> {
  const config = loadConfig(serviceEnv.superRefine(checkServiceEnv), env);
  if (!existsSync(file)) throw new Error(`No backup at ${file}`);
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
  try {
    const { rows } = await pool.query<{ schema: string }>(
      'SELECT nspname AS schema FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname',
      [backedUpSchemas],
    );
    if (rows.length > 0)
      throw new Error(
        `The database already holds Shiplog's schemas (${rows.map((r) => r.schema).join(', ')}): restore into a new database, or drop them first.`,
      );
    const tool = await matchingTool(pool, 'pg_restore');
    await run(tool, ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${config.DATABASE_URL}`, file]);
    const keys = await checkKeys(new Vault(pool, vaultKeys(config)));
    const events = await countEvents(pool);
    const rebuilt = await rebuildAll(env);
    return { events, keys, rebuilt };
  } finally {
    await pool.end();
  }
}

/** Every data key the backup holds must open with the configured master keys: otherwise stop and say so. */
async function checkKeys(vault: Vault): Promise<number> {
  try {
    return await vault.verifyKeys();
  } catch (error) {
    throw new Error(
      `The restored data keys do not open with VAULT_KEY_SECRET (${(error as Error).message}): set the master keys the backup was made with.`,
    );
  }
}

async function countEvents(pool: pg.Pool): Promise<number> {
  let total = 0;
  for (const schema of Object.keys(serviceDirectory)) {
    const { rows } = await pool.query<{ n: boolean }>('SELECT to_regclass($1) IS NOT NULL AS n', [`${schema}.events`]);
    if (!rows[0]?.n) continue;
    const counted = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.events`);
    total += counted.rows[0]!.n;
  }
  return total;
}

/** The PostgreSQL client tool of the server's major version when installed side by side (Debian), else PATH's. */
async function matchingTool(pool: pg.Pool, name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const { rows } = await pool.query<{ version: string }>('SHOW server_version_num');
  const major = Math.floor(Number(rows[0]!.version) / 10_000);
  const versioned = join('/usr/lib/postgresql', String(major), 'bin', name);
  if (existsSync(versioned)) return versioned;
  if (spawnSync(name, ['--version']).status === 0) return name;
  throw new Error(`${name} is not installed: install PostgreSQL's client tools (postgresql-client-${major}).`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} stopped with code ${code}: ${errors.trim()}`)),
    );
  });
}

if (import.meta.main) {
  const [command, file] = process.argv.slice(2);
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const made = await backup(process.env, file ?? join('backups', `shiplog-${stamp}.dump`));
    process.stdout.write(
      `backed up ${made.events} events and the data keys to ${made.file}; keep VAULT_KEY_SECRET apart from it\n`,
    );
  } else if (command === 'restore' && file) {
    const restored = await restore(process.env, file);
    process.stdout.write(`restored ${restored.events} events and ${restored.keys} data keys\n`);
    for (const { projection, events } of restored.rebuilt)
      process.stdout.write(`rebuilt ${projection} from ${events} events\n`);
    process.stdout.write('start the services now\n');
  } else {
    process.stderr.write('usage: pnpm backup [file]  |  pnpm restore <file>\n');
    process.exit(2);
  }
}
