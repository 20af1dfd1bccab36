/**
 * The processes a chaos run starts, and only those: its own PostgreSQL, NATS (JetStream) and Redis,
 * each on a scratch directory, and the app as `npm start` runs it (every service and the gateway a process of its own,
 * from scripts/app-processes.ts). Each is known by the id it was spawned with; `kill` sends SIGKILL to
 * that id alone, and `restart` spawns the same command again on the same port.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { appProcesses, root, startCommand, waitUntilReady } from '../../scripts/app-processes.ts';

export interface Managed {
  name: string;
  pid(): number | undefined;
  /** The last lines it printed. */
  output(): string;
  /** SIGKILL to this process's id; resolves once it has exited. */
  kill(): Promise<void>;
  /** Spawns it again and waits until it answers. */
  restart(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

function findBinary(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/bin'];
  for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} was not found: the chaos run starts (and kills) a ${name} of its own`);
}

/** A PostgreSQL server program (`initdb`, `postgres`): on the PATH, or in Debian's versioned directories. */
function findPostgresBinary(name: string): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length > 0 ? join(base, versions[0]!, 'bin', name) : findBinary(name);
}

/** PostgreSQL will not run as root: as root, its programs run as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const [uid, gid] = [id('-u'), id('-g')];
  if (!Number.isInteger(uid) || !Number.isInteger(gid))
    throw new Error('running as root, and there is no postgres user');
  return { uid, gid };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(port: number, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await portAnswers(port)) return true;
    await sleep(100);
  }
  return false;
}

/**
 * Until the PostgreSQL server at `url` answers a query: its port opens while it is still starting up
 * (it refuses connections then, "the database system is starting up"), and on a busy machine for long.
 */
async function waitForPostgres(url: string, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    const answered = await client
      .connect()
      .then(() => client.query('SELECT 1'))
      .then(
        () => true,
        () => false,
      );
    await client.end().catch(() => undefined);
    if (answered) return true;
    await sleep(100);
  }
  return false;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * One process under the run's control. `output` keeps the last lines it printed, for the report of a
 * process that would not start.
 */
function managed(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: () => Promise<boolean>,
  crashes: Crash[],
  user?: { uid: number; gid: number },
): Managed & { start(): Promise<void> } {
  let child: ChildProcess | undefined;
  let output = '';
  let ending = false;
  const start = async () => {
    output = '';
    ending = false;
    const spawned = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], ...user });
    child = spawned;
    for (const stream of [spawned.stdout, spawned.stderr])
      stream?.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4000);
      });
    // An exit the run did not cause is a crash: reported, and the process is not brought back.
    spawned.once('exit', (code, signal) => {
      if (!ending) crashes.push({ name, at: Date.now(), exit: signal ?? `code ${code}`, output: output.slice(-1500) });
    });
    if (!(await ready())) throw new Error(`${name} did not start:\n${output}`);
  };
  return {
    name,
    start,
    pid: () => child?.pid,
    output: () => output,
    async kill() {
      if (!child?.pid) return;
      ending = true;
      const done = exited(child);
      process.kill(child.pid, 'SIGKILL');
      await done;
    },
    async restart() {
      await start();
    },
    async stop() {
      if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
      ending = true;
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/** A process that exited without the run ending it. */
export interface Crash {
  name: string;
  at: number;
  exit: string;
  output: string;
}

export interface Fleet {
  /** The run's database, on the run's own PostgreSQL server. */
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  gatewayUrl: string;
  /** PostgreSQL, NATS, Redis, then every service, then the gateway. */
  all: Managed[];
  byName(name: string): Managed;
  /** Every exit the run did not cause. */
  crashes: Crash[];
  stopApp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the run's servers and the app. PostgreSQL is a server of the run's own, not the machine's:
 * its pause and the app's pools touch nothing else (the run can go on beside other tests), and it
 * goes with its scratch directory at the end.
 */
export async function startFleet(options: {
  ports: { postgres: number; nats: number; redis: number; gateway: number; serviceBase: number };
  env: Record<string, string>;
  /** `each`: every service and the gateway a process of its own; `one`: all in one (`app`). */
  processes?: 'each' | 'one';
}): Promise<Fleet> {
  const { ports } = options;
  const natsDir = mkdtempSync(join(tmpdir(), 'shiplog-chaos-nats-'));
  const postgresDir = mkdtempSync(join(tmpdir(), 'shiplog-chaos-postgres-'));
  const crashes: Crash[] = [];
  const user = postgresUser();
  if (user) chownSync(postgresDir, user.uid, user.gid);
  const init = spawnSync(
    findPostgresBinary('initdb'),
    ['-D', postgresDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    { encoding: 'utf8', ...user },
  );
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
  const postgres = managed(
    'postgres',
    findPostgresBinary('postgres'),
    // Room for every pool of the app (nine processes of DATABASE_POOL_MAX 10) and the run's own checks.
    [
      '-D',
      postgresDir,
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.postgres),
      '-k',
      postgresDir,
      '-c',
      'max_connections=150',
    ],
    process.env,
    () => waitForPostgres(`postgres://postgres@127.0.0.1:${ports.postgres}/postgres`, 30),
    crashes,
    user,
  );
  const databaseUrl = `postgres://postgres@127.0.0.1:${ports.postgres}/shiplog`;
  const nats = managed(
    'nats',
    findBinary('nats-server'),
    ['-a', '127.0.0.1', '-p', String(ports.nats), '-js', '-sd', natsDir],
    process.env,
    () => waitForPort(ports.nats, 20),
    crashes,
  );
  const redis = managed(
    'redis',
    findBinary('redis-server'),
    ['--bind', '127.0.0.1', '--port', String(ports.redis), '--save', '', '--appendonly', 'no'],
    process.env,
    () => waitForPort(ports.redis, 20),
    crashes,
  );
  const natsUrl = `nats://127.0.0.1:${ports.nats}`;
  const redisUrl = `redis://127.0.0.1:${ports.redis}`;
  const specs = appProcesses({
    databaseUrl,
    portBase: ports.serviceBase,
    gatewayPort: ports.gateway,
    env: { ...process.env, ...options.env },
  });
  const gatewaySpec = specs.at(-1)!;
  const oneProcess = startCommand({ ...process.env, ...options.env });
  const app =
    options.processes === 'one'
      ? // As the image runs it: scripts/one-process.ts with the one process's options, configured by its
        // environment, ready when the gateway is.
        [
          managed(
            'app',
            process.execPath,
            [...oneProcess.nodeArgs, join(root, 'scripts', 'one-process.ts')],
            {
              ...process.env,
              ...options.env,
              ...oneProcess.env,
              DATABASE_URL: databaseUrl,
              NATS_URL: natsUrl,
              REDIS_URL: redisUrl,
              PORT: String(ports.gateway),
              SERVICE_PORT_BASE: String(ports.serviceBase),
            },
            () => waitUntilReady(gatewaySpec, 60),
            crashes,
          ),
        ]
      : specs.map((spec) =>
          managed(
            spec.name,
            process.execPath,
            [...spec.nodeArgs, join(root, spec.entry)],
            { ...process.env, ...options.env, NATS_URL: natsUrl, REDIS_URL: redisUrl, ...spec.env },
            () => waitUntilReady(spec, 60),
            crashes,
          ),
        );
  const all = [postgres, nats, redis, ...app];
  const stopApp = async () => {
    await Promise.all(app.map((p) => p.stop()));
  };
  const removeDirectories = () => {
    for (const dir of [natsDir, postgresDir]) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await postgres.start();
    const admin = new pg.Client({ connectionString: databaseUrl.replace(/\/shiplog$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE shiplog').finally(() => admin.end());
    await nats.start();
    await redis.start();
    // The services at once, then the gateway (its readiness asks every service).
    await Promise.all(app.slice(0, -1).map((p) => p.start()));
    await app.at(-1)!.start();
  } catch (error) {
    await Promise.all(all.map((p) => p.stop()));
    removeDirectories();
    throw error;
  }
  return {
    databaseUrl,
    natsUrl,
    redisUrl,
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    all,
    crashes,
    byName(name) {
      const found = all.find((p) => p.name === name);
      if (!found) throw new Error(`no process ${name}`);
      return found;
    },
    stopApp,
    async stop() {
      await stopApp();
      await Promise.all([postgres.stop(), nats.stop(), redis.stop()]);
      removeDirectories();
    },
  };
}
