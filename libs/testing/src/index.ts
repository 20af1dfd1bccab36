import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { z } from 'zod';

export { type RoundRobin, roundRobin } from './round-robin.ts';

/**
 * Test isolation: every test file gets its own PostgreSQL database and its own NATS namespace
 * (JetStream stream and subject prefix), so suites run in parallel and again and again on the same
 * servers without seeing each other's data.
 */
const testEnv = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://postgres@127.0.0.1:5432/shiplog'),
  NATS_URL: z.url({ protocol: /^nats$/ }).default('nats://127.0.0.1:4222'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
});

/** The servers the tests use, from the environment (an empty variable means unset), checked at load. */
function readTestEnv(): z.infer<typeof testEnv> {
  const set = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const result = testEnv.safeParse(set);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid test configuration:\n${lines.join('\n')}`);
}

const env = readTestEnv();
export const baseDatabaseUrl = env.DATABASE_URL;
export const natsUrl = env.NATS_URL;
export const redisUrl = env.REDIS_URL;

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = new URL(baseDatabaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

/**
 * What a test database starts from: the tables every start would make, made once per set of
 * migrations (`key`, e.g. their checksum) in a template database, and copied for each test file
 * instead of running every migration again.
 */
export interface TestDatabaseTemplate {
  key: string;
  /** Makes the tables in the empty database at `url`; closes its connections before answering. */
  build(url: string): Promise<void>;
}

function databaseUrl(name: string): string {
  const url = new URL(baseDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const TEMPLATE_PREFIX = 'shiplog_template_';
const templates = new Map<string, Promise<string>>();

/**
 * The template database for `template`, made when missing. Built under another name and renamed
 * when whole, under an advisory lock, so parallel test processes wait for one build and never copy
 * a half-made one. Templates of other keys (older migrations) are dropped on the way.
 */
function templateDatabase(template: TestDatabaseTemplate): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${template.key.slice(0, 16)}`.toLowerCase();
  let made = templates.get(name);
  if (!made) {
    made = withAdmin(async (admin) => {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_PREFIX]);
      try {
        const { rows } = await admin.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%'`,
        );
        for (const { datname } of rows.filter((row) => row.datname !== name)) {
          await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`).catch(() => undefined);
          await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
        }
        if (rows.some((row) => row.datname === name)) return name;
        const building = uniqueName('shiplog_building').toLowerCase();
        await admin.query(`CREATE DATABASE ${building}`);
        try {
          await template.build(databaseUrl(building));
          await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
          await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
        } catch (error) {
          await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => undefined);
          throw error;
        }
        return name;
      } finally {
        await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_PREFIX]);
      }
    });
    made.catch(() => templates.delete(name));
    templates.set(name, made);
  }
  return made;
}

let fileCopy: Promise<string> | undefined;

/**
 * How a copy of a template is made: from PostgreSQL 15, file by file rather than through the WAL
 * (its default there), which writes the whole template into the log. A run makes a copy for every
 * integration test file: measured on 2026-11-28, PostgreSQL's share of the integration tests' CPU
 * went from 92 to 83 s.
 */
function copiedByFile(): Promise<string> {
  if (!fileCopy) {
    fileCopy = withAdmin(async (admin) => {
      const { rows } = await admin.query<{ server_version_num: string }>('SHOW server_version_num');
      return Number(rows[0]?.server_version_num) >= 150_000 ? ' STRATEGY FILE_COPY' : '';
    });
    // Asked again after a failure, as a template is made again.
    fileCopy.catch(() => {
      fileCopy = undefined;
    });
  }
  return fileCopy;
}

/**
 * Where a run's global setup (`spare-copies.ts`) names the run whose test processes each keep a copy
 * of a template made ahead (see takeSpareCopy).
 */
export const SPARE_COPIES_VARIABLE = 'SHIPLOG_TEST_SPARE_COPIES';
/** By template key: the copy being made ahead in this process (its name; null if it could not be made). */
const spareCopies = new Map<string, Promise<string | null>>();

/**
 * A copy of `template` named `name`, from the copy made ahead while this process's file before ran,
 * and the next one begun: making a copy waits on PostgreSQL's file copy and checkpoints (about 0.6 s,
 * with little work for the cores), once for every integration test file. Answers false where there is
 * none ready to take (no run names spare copies, the first file, or the copy failed): the caller makes
 * its own. The last copy is the run's to drop (dropSpareCopies).
 */
async function takeSpareCopy(template: TestDatabaseTemplate, name: string): Promise<boolean> {
  const run = process.env[SPARE_COPIES_VARIABLE];
  if (!run || !/^[a-z0-9]+$/.test(run)) return false;
  const ready = spareCopies.get(template.key);
  const next = uniqueName(`shiplog_spare_${run}`).toLowerCase();
  spareCopies.set(
    template.key,
    copyTemplate(template, next).then(
      () => next,
      () => null,
    ),
  );
  const spare = await ready;
  if (!spare) return false;
  return withAdmin((admin) => admin.query(`ALTER DATABASE ${spare} RENAME TO ${name}`)).then(
    () => true,
    () => false,
  );
}

async function copyTemplate(template: TestDatabaseTemplate, name: string): Promise<void> {
  const from = `TEMPLATE ${await templateDatabase(template)}${await copiedByFile()}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} ${from}`));
}

/**
 * Drops the copies made ahead by runs that ended more than an hour ago without dropping them (stopped
 * with Ctrl-C, killed): named by `uniqueName`, which says when they were made.
 */
export async function dropStaleSpareCopies(): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, 'shiplog_spare_')",
    );
    for (const { datname } of rows) {
      const made = Number.parseInt(datname.split('_').at(-2) ?? '', 36);
      if (Number.isFinite(made) && Date.now() - made > 3_600_000)
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  });
}

/**
 * Drops the copies a run's processes made ahead and did not take, once none is still being made (a
 * process that ended while making one leaves PostgreSQL finishing it), or after 30 s in any case: a
 * copy left over is not the run's failure.
 */
export async function dropSpareCopies(run: string): Promise<void> {
  await waitUntil(
    () =>
      withAdmin(async (admin) => {
        const { rows } = await admin.query(
          "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'CREATE DATABASE shiplog_spare_' || $1 || '%'",
          [run],
        );
        return rows.length === 0;
      }),
    30_000,
    'the spare copies being made',
  ).catch(() => undefined);
  await dropTestResources(`spare_${run}`);
}

/** A database of its own for a test file: empty, or a copy of `template`'s tables. */
export async function createTestDatabase(prefix = 'test', template?: TestDatabaseTemplate): Promise<TestDatabase> {
  const name = uniqueName(`shiplog_${prefix}`).toLowerCase();
  const create = async () => {
    if (template) await copyTemplate(template, name);
    else await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  };
  try {
    if (!template || !(await takeSpareCopy(template, name))) await create();
  } catch (error) {
    // Another run with other migrations dropped this one's template meanwhile: made again, once.
    if (!template || (error as { code?: string }).code !== '3D000') throw error;
    templates.clear();
    await create();
  }
  return {
    url: databaseUrl(name),
    name,
    async drop() {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export interface TestBusNamespace {
  namespace: string;
  drop(): Promise<void>;
}

/** A NATS namespace of its own: the relay and consumers derive stream and subject names from it. */
export function createTestBusNamespace(prefix = 'test'): TestBusNamespace {
  const namespace = uniqueName(prefix).toLowerCase();
  return {
    namespace,
    async drop() {
      const nc = await connect({ servers: natsUrl });
      try {
        const jsm = await jetstreamManager(nc);
        await jsm.streams.delete(`${namespace.toUpperCase()}_EVENTS`).catch(() => false);
      } finally {
        await nc.close();
      }
    },
  };
}

/**
 * Drops every test database and bus namespace whose name starts with `prefix` (as given to
 * createTestDatabase and createTestBusNamespace): what a run's shared apps leave when it ends.
 */
export async function dropTestResources(prefix: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(prefix)) throw new Error(`Invalid test resource prefix: ${prefix}`);
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [`shiplog_${prefix}_`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const name of jsm.streams.names())
      if (name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(name).catch(() => false);
  } finally {
    await nc.close();
  }
}

/** Whether a process with this id is still running (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 5; Date.now() < deadline; pause = Math.min(pause * 2, 100)) {
    if (await check()) return;
    await sleep(pause);
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Where the ports handed out on this machine are claimed: one file a port, naming its process. */
const claims = join(tmpdir(), 'shiplog-test-ports');

/**
 * Claims `port` for this process among every process on the machine that hands out ports here (the
 * test runs side by side, the chaos run, the benches): its claim file, made only if there is none, or
 * taken over from a process that has ended. Between the check that a port is free and the listen of
 * the server that takes it, no other process is then handed the same one.
 */
function claim(port: number): boolean {
  mkdirSync(claims, { recursive: true });
  const file = join(claims, String(port));
  const make = () => {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  };
  if (make()) return true;
  let owner: number;
  try {
    owner = Number(readFileSync(file, 'utf8'));
  } catch {
    return make();
  }
  if (owner === process.pid || (owner > 0 && processAlive(owner))) return false;
  // Its process ended: the claim is taken over (of two processes taking it over at once, one makes it).
  try {
    unlinkSync(file);
  } catch {}
  return make();
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 now, for a server a test starts (the app, NATS, Redis, a stand-in). Chosen
 * below Linux's ephemeral range (32768 and up), where the machine's own outgoing connections take
 * their ports and could claim it between this check and the server's listen; and below the service
 * ports (`freeServicePortBase`).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 12_000 + Math.floor(Math.random() * 8_000);
    if (claim(port) && (await portIsFree(port))) return port;
  }
  throw new Error('no free port found');
}

/**
 * A `SERVICE_PORT_BASE` for `scripts/start.ts` whose service ports (base + 1 … base + 9) are all free.
 * Chosen below Linux's ephemeral range (32768 and up), where the machine's own outgoing connections
 * take their ports and could claim a service's port between this check and its listen.
 */
export async function freeServicePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + 10 * Math.floor(Math.random() * 1_200);
    if (claim(base) && (await servicePortsFree(base))) return base;
  }
  throw new Error('no free range of service ports found');
}

/** Whether the service ports of `base` (base + 1 … base + 9) are all free on 127.0.0.1 now. */
export async function servicePortsFree(base: number): Promise<boolean> {
  const ports = Array.from({ length: 9 }, (_, i) => base + i + 1);
  return (await Promise.all(ports.map(portIsFree))).every(Boolean);
}

/**
 * The `Cookie` header a browser would send after this response: the cookies it held before (`held`,
 * a `Cookie` header) updated with every cookie the response sets, the session's and the
 * read-your-writes positions' alike. A cookie set to an empty value is dropped.
 */
export function cookiesFrom(response: Response, held = ''): string {
  const jar = new Map<string, string>();
  const keep = (pair: string) => {
    const at = pair.indexOf('=');
    if (at <= 0) return;
    const value = pair.slice(at + 1);
    if (value) jar.set(pair.slice(0, at).trim(), value);
    else jar.delete(pair.slice(0, at).trim());
  };
  for (const pair of held.split(';')) keep(pair);
  for (const setCookie of response.headers.getSetCookie()) keep(setCookie.split(';')[0]!);
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
