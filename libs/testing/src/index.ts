import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
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

export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const name = uniqueName(`shiplog_${prefix}`).toLowerCase();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
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

export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
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
    if (await portIsFree(port)) return port;
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
    const ports = Array.from({ length: 9 }, (_, i) => base + i + 1);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return base;
  }
  throw new Error('no free range of service ports found');
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
