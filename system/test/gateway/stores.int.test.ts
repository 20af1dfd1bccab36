/**
 * The stores as docker-compose.yml runs them, started here from the same settings with the machine's
 * own nats-server and redis-server: NATS lets in the URL's user and password and nobody else, and
 * Redis asks for its password and keeps what it holds through a crash (appendonly), so a signed-in
 * user stays signed in across a Redis restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus } from '@shiplog/messaging';
import { startBackend } from '@shiplog/system';
import { freePort, waitUntil } from '@shiplog/testing';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..', '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, { command: string[] }>;
};
const scratch = mkdtempSync(join(tmpdir(), 'shiplog-stores-'));
const children: ChildProcess[] = [];

/** The machine's server binaries: Debian puts nats-server in /usr/sbin, which a user's PATH may lack. */
function run(binary: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const PATH = [process.env.PATH, '/usr/sbin', '/usr/local/sbin', '/usr/local/bin'].filter(Boolean).join(':');
  const child = spawn(binary, args, { env: { ...process.env, PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const hear = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  said.set(child, () => output);
  children.push(child);
  return child;
}

/** What each server has written, to wait on what it says when it is ready. */
const said = new WeakMap<ChildProcess, () => string>();
async function untilSays(child: ChildProcess, text: string, what: string): Promise<void> {
  const output = said.get(child)!;
  try {
    await waitUntil(() => output().includes(text), 15_000, what);
  } catch (error) {
    throw new Error(`${(error as Error).message}; it said: ${output().slice(-1000) || 'nothing'}`);
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  rmSync(scratch, { recursive: true, force: true });
});

describe('the stores as docker-compose.yml runs them', () => {
  it('NATS (deploy/compose/nats.conf) lets in the URL’s user and password, and nobody else', async () => {
    const port = await freePort();
    const config = join(scratch, 'nats.conf');
    writeFileSync(
      config,
      readFileSync(join(root, 'deploy/compose/nats.conf'), 'utf8').replace('/data', join(scratch, 'jetstream')),
    );
    // Begun with a letter, as .env.example says: NATS would read `2e5…` as a number and not start.
    const password = `n${randomBytes(16).toString('hex')}`;
    const nats = run('nats-server', ['-c', config, '-a', '127.0.0.1', '-p', String(port)], {
      NATS_PASSWORD: password,
    });
    // Ready once JetStream has started on its store: connecting earlier can leave a request unanswered.
    await untilSays(nats, 'Server is ready', 'NATS with a password');
    const url = (credentials: string) => `nats://${credentials}127.0.0.1:${port}`;
    const bus = await connectBus({ url: url(`shiplog:${password}@`), namespace: 'storestest' });
    await bus.js.publish(bus.subject('test', 'Checked'), 'hello');
    await bus.close();
    await expect(connectBus({ url: url(''), namespace: 'storestest' })).rejects.toThrow(/Authorization/);
    await expect(connectBus({ url: url('shiplog:wrong@'), namespace: 'storestest' })).rejects.toThrow(/Authorization/);
  });

  it('Redis asks for its password, and a session outlives a crash of Redis (appendonly)', async () => {
    const port = await freePort();
    // Begun with a letter, as .env.example says: NATS would read `2e5…` as a number and not start.
    const password = `n${randomBytes(16).toString('hex')}`;
    // Compose's own flags (only AOF keeps data here: no RDB snapshot to fall back on).
    const flags = compose.services
      .redis!.command.at(-1)!
      .replace(/^exec redis-server /, '')
      .replace('"$$REDIS_PASSWORD"', password);
    const args = [...flags.split(/\s+/), '--bind', '127.0.0.1', '--port', String(port), '--dir', scratch, '--save', ''];
    const start = () => run('redis-server', args);
    let redis = start();
    const answers = async (url: string) => {
      const client = createClient({ url, socket: { reconnectStrategy: false } });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        if (client.isOpen) await client.quit().catch(() => undefined);
      }
    };
    const redisUrl = `redis://:${password}@127.0.0.1:${port}`;
    await waitUntil(() => answers(redisUrl), 10_000, 'Redis with a password');
    expect(await answers(`redis://127.0.0.1:${port}`)).toBe(false);

    const backend = await startBackend({ env: { REDIS_URL: redisUrl } });
    try {
      const { client, username } = await backend.signUp('persisted');
      expect((await client.get('/api/user')).body.username).toBe(username);
      redis.kill('SIGKILL');
      await exited(redis);
      redis = start();
      await waitUntil(() => answers(redisUrl), 10_000, 'Redis again');
      // The gateway reconnects by itself; the same cookie is still a session.
      await waitUntil(async () => (await client.get('/api/user')).status !== 503, 10_000, 'the gateway back on Redis');
      const after = await client.get('/api/user');
      expect(after.status).toBe(200);
      expect(after.body.username).toBe(username);
    } finally {
      await backend.stop();
    }
  }, 90_000);
});
