import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceDirectory, serviceNames } from '@shiplog/service-kit';
import { Client } from '@shiplog/system';
import {
  createTestBusNamespace,
  createTestDatabase,
  freePort,
  freeServicePortBase,
  natsUrl,
  redisUrl,
} from '@shiplog/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { oneProcessOptions, processEnv, root } from '../../../scripts/app-processes.ts';
import { launch } from '../../../scripts/launch.ts';

/**
 * The one-process mode as a container runs it (`node scripts/one-process.ts`, configured by its
 * environment alone): every service and the gateway in one process serve the app, and a SIGTERM
 * stops them all cleanly. Its services share one pool and one session connection (the leader locks
 * and the relays' LISTEN), so the whole app holds at most 12 PostgreSQL backends. The browser tests
 * run the app this way through `npm start`.
 */
/** TCP connections established to `port` on this machine (Linux's /proc/net/tcp and tcp6). */
function connectionsTo(port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter(([, address, , state]) => address?.endsWith(local) && state === '01'),
  ).length;
}

describe('the one-process mode', () => {
  it('serves the whole app from one process, and stops it cleanly on SIGTERM', async () => {
    const db = await createTestDatabase('one_process');
    const bus = createTestBusNamespace('one_process');
    const port = await freePort();
    const serviceBase = await freeServicePortBase();
    const app = await launch(
      [join(import.meta.dirname, '..', '..', '..', 'scripts', 'one-process.ts')],
      {
        DATABASE_URL: db.url,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        BUS_NAMESPACE: bus.namespace,
        PORT: String(port),
        SERVICE_PORT_BASE: String(serviceBase),
        LOG_LEVEL: 'info',
        NODE_ENV: 'test',
        RATE_LIMITS: 'off',
      },
      'shiplog: ready',
      90_000,
    );
    try {
      const client = new Client(`http://127.0.0.1:${port}`);
      const registered = await client.post('/api/register', {
        username: `one${Date.now()}`,
        password: 'secret-pass-1',
      });
      expect(registered.status).toBe(201);
      const made = await client.post('/api/projects', { name: 'In one process' });
      expect(made.status).toBe(201);
      // Read through the gateway in the same process, from the projects service's read model.
      expect((await client.get('/api/projects')).body).toMatchObject([{ name: 'In one process' }]);
      // The timeline is another service's projection, fed over the bus.
      expect((await client.get(`/api/projects/${made.body.id}/activities`)).body).toMatchObject([
        { eventType: 'project_created' },
      ]);
      // The gateway handed those calls to the services' handlers in its process: no connection was
      // made to the projects or the activity service's port.
      for (const service of ['projects', 'activity'] as const)
        expect(connectionsTo(serviceBase + serviceDirectory[service] - 4100), service).toBe(0);
      // Every service's connections, after start-up, a sign-up and a timeline fed over the bus.
      const reader = new pg.Client({ connectionString: db.url });
      await reader.connect();
      const { rows: backends } = await reader
        .query<{ application_name: string }>(
          `SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        )
        .finally(() => reader.end());
      expect(backends.length).toBeLessThanOrEqual(12);
      expect(new Set(backends.map((b) => b.application_name))).toEqual(new Set(['shiplog-app', 'shiplog-app:session']));
      // What each service keeps its own in one process: its port and metrics registry (labelled with
      // its name, counting its own requests), its log lines' name, and its leader lock.
      for (const service of serviceNames) {
        const metrics = await (
          await fetch(`http://127.0.0.1:${serviceBase + serviceDirectory[service] - 4100}/metrics`)
        ).text();
        const labels = new Set([...metrics.matchAll(/service="([a-z]+)"/g)].map((m) => m[1]));
        expect([...labels], service).toEqual([service]);
      }
      const named = new Set(
        app
          .output()
          .split('\n')
          .flatMap((line) => (line.startsWith('{') ? [(JSON.parse(line) as { name?: string }).name] : [])),
      );
      for (const service of serviceNames) expect(named, service).toContain(service);
      const leaders = new pg.Client({ connectionString: db.url });
      await leaders.connect();
      const { rows: locks } = await leaders
        .query<{ count: string }>(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
        .finally(() => leaders.end());
      expect(Number(locks[0]!.count)).toBe(serviceNames.length);
      const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));
      await app.stop();
      expect(await exited).toBe(0);
    } finally {
      await app.stop();
      await bus.drop();
      await db.drop();
    }
  }, 120_000);

  it('runs `npm start`’s plain `node scripts/start.ts` with the options it needs, restarted in place', async () => {
    const db = await createTestDatabase('one_process_start');
    const bus = createTestBusNamespace('one_process_start');
    const port = await freePort();
    // As npm start runs it: no options, no channel to a parent.
    const child = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL: db.url,
        BUS_NAMESPACE: bus.namespace,
        PORT: String(port),
        SERVICE_PORT_BASE: String(await freeServicePortBase()),
        SKIP_WEB_BUILD: '1',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Shiplog is running at')) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        void exited.then((code) => reject(new Error(`start.ts exited with ${code}:\n${output}`)));
      });
      // The same process, now with the one process's options and `processEnv`'s environment.
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toEqual(expect.arrayContaining([...oneProcessOptions, join(root, 'scripts', 'start.ts')]));
      const environment = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      const expected = processEnv({ NODE_OPTIONS: '' });
      for (const name of ['MALLOC_ARENA_MAX', 'NODE_COMPILE_CACHE', 'NODE_OPTIONS'] as const)
        expect(environment, name).toContain(`${name}=${expected[name]}`);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await bus.drop();
      await db.drop();
    }
  }, 120_000);
});
