/**
 * A newcomer's machine, as far as the stores go: PostgreSQL, NATS and Redis not answering, and none of
 * their binaries on PATH (Debian keeps PostgreSQL's per version under /usr/lib/postgresql and NATS in
 * /usr/sbin, off a user's PATH; here even Redis is hidden). `node scripts/bootstrap.mjs stores`, the
 * part of `npm start` and `npm test` that sets the stores up, finds them where their packages put them
 * (installing the packages first where they are missing, with apt-get or Homebrew) and starts all
 * three, with their data in a directory of their own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { freePort, processAlive, waitUntil } from '@shiplog/testing';
import pg from 'pg';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the stores on a machine that lacks them on PATH', () => {
  it('finds and starts PostgreSQL, NATS and Redis with data of their own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiplog-bootstrap-'));
    // PostgreSQL refuses to run as root: as root, the script runs it as the postgres user, who must reach the data.
    chmodSync(dir, 0o755);
    // The tools every system has (sh, id, runuser), and nothing of the stores'.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['sh', 'id', 'runuser'])
      for (const place of ['/usr/bin', '/bin', '/usr/sbin', '/sbin'])
        if (existsSync(join(place, tool)) && !existsSync(join(bin, tool)))
          symlinkSync(join(place, tool), join(bin, tool));
    const [postgresPort, natsPort, redisPort] = [await freePort(), await freePort(), await freePort()];
    const data = join(dir, 'data');
    const setUp = spawnSync(process.execPath, [join(root, 'scripts', 'bootstrap.mjs'), 'stores'], {
      env: {
        HOME: process.env.HOME,
        PATH: [dirname(process.execPath), bin].join(':'),
        SHIPLOG_DATA_DIR: data,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/postgres`,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    try {
      expect(spawnSync('sh', ['-c', `PATH=${bin} command -v initdb nats-server redis-server`]).stdout.toString()).toBe(
        '',
      );
      expect(setUp.status, setUp.stdout + setUp.stderr).toBe(0);
      expect(setUp.stdout).toContain('PostgreSQL, NATS and Redis answer');

      const db = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${postgresPort}/postgres` });
      await db.connect();
      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await db.end();
      const nats = await connect({ servers: `127.0.0.1:${natsPort}` });
      expect(nats.info?.jetstream).toBe(true);
      await nats.close();
      const redis = createClient({ url: `redis://127.0.0.1:${redisPort}` });
      await redis.connect();
      expect(await redis.ping()).toBe('PONG');
      await redis.quit();
      // Their data is where it was told to be.
      expect(existsSync(join(data, 'postgres', 'PG_VERSION'))).toBe(true);
    } finally {
      await stopStores(data);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

/** Stops what the script started (PostgreSQL by its data directory's pid, NATS and Redis by their pid files), and waits for them to go. */
async function stopStores(data: string) {
  const pids = [
    join(data, 'postgres', 'postmaster.pid'),
    join(data, 'nats', 'nats.pid'),
    join(data, 'redis', 'redis.pid'),
  ]
    .filter((file) => existsSync(file))
    .map((file) => Number(readFileSync(file, 'utf8').split('\n')[0]!.trim()));
  // SIGINT is PostgreSQL's fast shutdown, and stops NATS and Redis as well.
  for (const pid of pids) process.kill(pid, 'SIGINT');
  await waitUntil(() => !pids.some(processAlive), 20_000, 'the stores to stop');
}
