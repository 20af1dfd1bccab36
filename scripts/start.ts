/**
 * `npm start` (after scripts/bootstrap.mjs has set up Node 24, pnpm, dependencies and the servers):
 * creates the database, builds the web app, starts every service and the gateway as processes of
 * their own (as in production), waits until the gateway is ready, and prints the address. Ctrl-C
 * (SIGINT) or SIGTERM stops them all cleanly.
 *
 * Environment: everything in README's configuration table; in addition SERVICE_PORT_BASE (default
 * 4100: identity 4101, billing 4104, …) moves the services' ports, and SKIP_WEB_BUILD=1 serves the
 * existing web/dist.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const root = join(import.meta.dirname, '..');
const services = [
  { name: 'identity', offset: 1 },
  { name: 'projects', offset: 2 },
  { name: 'reminders', offset: 3 },
  { name: 'billing', offset: 4 },
  { name: 'chat', offset: 5 },
  { name: 'integrations', offset: 6 },
  { name: 'activity', offset: 7 },
] as const;

const env = { ...process.env };
const databaseUrl = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/shiplog';
const portBase = Number(env.SERVICE_PORT_BASE || 4100);
const gatewayPort = Number(env.PORT || 3000);

function log(message: string) {
  process.stdout.write(`[shiplog] ${message}\n`);
}

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new Error(`Unsupported database name in DATABASE_URL: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${name}`);
      log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

const children: { name: string; process: ChildProcess }[] = [];
let stopping = false;

function launch(name: string, entry: string, extraEnv: Record<string, string>) {
  const child = spawn(process.execPath, [join(root, entry)], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${name.padEnd(8)} | ${line}\n`));
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
    void stopAll(1);
  });
  children.push({ name, process: child });
}

async function stopAll(exitCode: number) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  const exits = children.map(
    ({ process: child }) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  );
  await Promise.all(exits);
  log('stopped');
  process.exit(exitCode);
}

async function waitUntilReady(url: string, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline && !stopping) {
    try {
      const response = await fetch(url);
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return false;
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

await ensureDatabase(databaseUrl);
if (env.SKIP_WEB_BUILD !== '1') {
  log('building the web app');
  const build = spawnSync('pnpm', ['--filter', '@shiplog/web', 'build'], { cwd: root, stdio: 'inherit', env });
  if (build.status !== 0) {
    log('web build failed');
    process.exit(1);
  }
}

const serviceUrls = Object.fromEntries(
  services.map(({ name, offset }) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${portBase + offset}`]),
);
for (const { name, offset } of services) {
  // Every process learns where the services answer: the gateway forwards there, a service asks another.
  launch(name, `services/${name}/src/main.ts`, {
    SERVICE_PORT: String(portBase + offset),
    DATABASE_URL: databaseUrl,
    ...serviceUrls,
  });
}
for (const { name } of services) {
  if (!(await waitUntilReady(`${serviceUrls[`${name.toUpperCase()}_URL`]}/healthz`, 60))) {
    log(`${name} did not start`);
    await stopAll(1);
  }
}
launch('gateway', 'gateway/src/main.ts', { PORT: String(gatewayPort), ...serviceUrls });
if (!(await waitUntilReady(`http://127.0.0.1:${gatewayPort}/readyz`, 60))) {
  log('the gateway did not become ready');
  await stopAll(1);
}
log(`Shiplog is running at http://localhost:${gatewayPort}  (Ctrl-C stops it)`);
