import { createHash, randomBytes } from 'node:crypto';
import { type RunningGateway, startGateway } from '@shiplog/gateway';
import { type Bus, connectBus, lockConsumer } from '@shiplog/messaging';
import { runMigrations, sourcesChecksum } from '@shiplog/migrations';
import {
  createLogger,
  loadConfig,
  openDatabase,
  type RunningService,
  type ServiceDefinition,
  type ServiceName,
  serviceDirectory,
  serviceEnv as serviceEnvSchema,
  serviceMigrations,
  serviceNames,
  serviceUrlVariables,
  startService,
} from '@shiplog/service-kit';
import {
  cookiesFrom,
  createTestBusNamespace,
  createTestDatabase,
  freeServicePortBase,
  natsUrl,
  redisUrl,
  type TestDatabaseTemplate,
  waitUntil,
} from '@shiplog/testing';
import { watchLog } from '@shiplog/testing/failure-logs';
import pg from 'pg';
import { serviceDefinitions } from '../../scripts/services.ts';
import { apiSurface } from './api-surface.ts';

/** Each service's definition, by name: the type asks for every service of the directory. */
const definitions = serviceDefinitions;
type Definitions = typeof definitions;
/** A running service of the directory, typed with its own environment. */
export type RunningOf<N extends ServiceName> =
  Definitions[N] extends ServiceDefinition<infer Env> ? RunningService<Env> : never;
type Running = Record<ServiceName, RunningService<never>>;

/** Every service's tables, as their starts make them: made once per set of migrations, copied for each backend. */
const migrated: TestDatabaseTemplate = (() => {
  const steps = serviceNames.flatMap((name) => serviceMigrations(definitions[name]));
  return {
    key: createHash('sha256')
      .update(steps.map((step) => `${step.schema}:${sourcesChecksum(step.sources)}`).join('\n'))
      .digest('hex'),
    async build(url) {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        for (const step of steps) await runMigrations(pool, step.schema, step.sources);
      } finally {
        await pool.end();
      }
    },
  };
})();

/**
 * Services of the directory in this process, each on its own port (every one's address known before
 * any starts, so all start at once, each told where the others answer), with a database (a copy of
 * the template holding every service's tables), a NATS namespace and an internal token secret of
 * their own. As in the one-process mode (scripts/one-process.ts), they share one pool and one
 * session connection (DATABASE_POOL_MAX sizes the pool). `env` is added to every service's
 * environment (NODE_ENV, pool sizes, timers: the caller's choice). The backend of the tests starts
 * every service this way; a benchmark starts the few it measures.
 */
export async function startServices<const N extends ServiceName>(
  names: readonly N[],
  options: { name?: string; env?: Record<string, string> } = {},
) {
  const db = await createTestDatabase(options.name ?? 'api', migrated);
  const bus = createTestBusNamespace(options.name ?? 'api');
  const internalTokenSecret = randomBytes(32).toString('hex');
  const serviceEnv: Record<string, string> = {
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    BUS_NAMESPACE: bus.namespace,
    INTERNAL_TOKEN_SECRET: internalTokenSecret,
    // Warnings and errors, kept for a failed test's report (@shiplog/testing/failure-logs).
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // The services' and the gateway's lines, unless the caller sends them to a file of its own.
  let logged = '';
  const keep = (line: string) => {
    logged += line;
  };
  const log = serviceEnv.LOG_FILE ? undefined : { write: keep };
  const unwatch = log ? watchLog(bus.namespace, () => logged) : () => {};
  const portBase = await freeServicePortBase();
  const portOf = (name: ServiceName) => portBase + serviceDirectory[name] - 4100;
  const urls = serviceUrlVariables((name) => `http://127.0.0.1:${portOf(name)}`);
  const config = loadConfig(serviceEnvSchema, { ...serviceEnv, ...urls });
  const openShared = () =>
    openDatabase(config, 'app', createLogger('backend', config.LOG_LEVEL, log ?? config.LOG_FILE));
  let database = openShared();
  const start = <M extends N>(name: M): Promise<RunningOf<M>> =>
    startService(
      // biome-ignore lint/suspicious/noExplicitAny: each definition has its own environment type
      definitions[name] as ServiceDefinition<any>,
      { ...serviceEnv, ...urls, SERVICE_PORT: String(portOf(name)) },
      { database, log },
    ) as Promise<RunningOf<M>>;
  const startAll = async () =>
    Object.fromEntries(await Promise.all(names.map(async (name) => [name, await start(name)] as const))) as {
      [M in N]: RunningOf<M>;
    };
  let running = await startAll();
  const stopAll = () => Promise.all(names.map((name) => running[name].stop()));
  return {
    /** Each running service by name: its URL, context (pool, store, bus), consumers. */
    get running() {
      return running;
    },
    databaseUrl: db.url,
    busNamespace: bus.namespace,
    /** Signs the internal tokens the services accept (`signInternalToken`). */
    internalTokenSecret,
    /** The environment every service started with, but its port: to start another copy of one. */
    serviceEnv,
    /** Where the services' log lines go (kept for a failed test's report), unless LOG_FILE names a file. */
    log,
    /** What the services (and a gateway given `log`) have logged so far: warnings and errors. */
    logged: () => logged,
    /** Deletes the namespace's JetStream stream, as if NATS had lost it. */
    dropBusStream: () => bus.drop(),
    /**
     * Stops every service and runs `between` (with none running, and none of their connections open),
     * then starts them all again, each at its address.
     */
    async restart(between: () => Promise<void> = async () => {}) {
      await stopAll();
      await database.end();
      await between();
      database = openShared();
      running = await startAll();
    },
    /** Starts a service stopped by its caller again, at its address: the others find it as before. */
    async startAgain(name: N): Promise<void> {
      running[name] = await start(name);
    },
    /** Stops every service, and drops the namespace and the database. */
    async stop() {
      await stopAll();
      await database.end();
      await bus.drop();
      await db.drop();
      unwatch();
    },
  };
}

export type Services<N extends ServiceName = ServiceName> = Awaited<ReturnType<typeof startServices<N>>>;

/**
 * The whole backend in one test process: every service (`startServices`) and the gateway on free
 * ports, with a database, a NATS namespace and Redis key prefix of their own. Services still talk only
 * over HTTP, PostgreSQL and NATS, exactly as in production.
 */
export async function startBackend(options: { adminPassword?: string; env?: Record<string, string> } = {}) {
  const system = await startServices(serviceNames, {
    env: {
      NODE_ENV: 'test',
      // Tests drive the reminder scheduler and the monitors' checker with their own clock.
      SCHEDULER_ENABLED: 'false',
      CHECKER_ENABLED: 'false',
      // The backend's one pool (its services share it): test files run side by side, some with three
      // backends each, within PostgreSQL's 100 connections.
      DATABASE_POOL_MAX: '8',
      ...(options.adminPassword ? { ADMIN_PASSWORD: options.adminPassword } : {}),
      ...options.env,
    },
  });
  const { internalTokenSecret, busNamespace } = system;
  const pool = new pg.Pool({ connectionString: system.databaseUrl, max: 4 });
  pool.on('error', () => {});
  const sessionSecret = randomBytes(32).toString('hex');
  const running = (): Running => system.running as Running;
  const gatewayEnvFor = (services: Running) => ({
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: redisUrl,
    BUS_NAMESPACE: busNamespace,
    INTERNAL_TOKEN_SECRET: internalTokenSecret,
    SESSION_SECRET: sessionSecret,
    ...serviceUrlVariables((name) => services[name].url),
    TRUST_PROXY: 'loopback',
    // As the services log (startServices), and where.
    LOG_LEVEL: system.serviceEnv.LOG_LEVEL!,
    NODE_ENV: 'test',
    // Suites sign up many users from one address; limits.int.test.ts turns them on.
    RATE_LIMITS: 'off',
    ...options.env,
  });
  let gatewayEnv = gatewayEnvFor(running());
  /** A connection to the namespace's bus for the tests' own looks at it, made when first wanted. */
  let watching: Promise<Bus> | undefined;
  const watch = () => {
    watching ??= connectBus({ url: natsUrl, namespace: busNamespace, name: 'harness' });
    return watching;
  };
  let gateway = await startGateway(gatewayEnv, { log: system.log });
  const replicas: RunningGateway[] = [];
  return {
    url: gateway.url,
    /** A new account, signed in: its client (holding the session), id and username. */
    async signUp(prefix = 'user', fields: Record<string, unknown> = {}) {
      const client = new Client(gateway.url);
      const body = { username: uniqueUsername(prefix), password: 'secret-pass-1', ...fields };
      const response = await client.post('/api/register', body);
      if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${response.text}`);
      return { client, username: body.username as string, id: response.body.id as string };
    },
    /**
     * Stops every service and the gateway, runs `between` (with nothing running), and starts them all
     * again on the same database, bus namespace and gateway address, as a redeploy would.
     */
    async restart(between: () => Promise<void> = async () => {}) {
      await gateway.stop();
      await system.restart(between);
      gatewayEnv = { ...gatewayEnvFor(running()), PORT: new URL(gateway.url).port };
      gateway = await startGateway(gatewayEnv, { log: system.log });
    },
    /** The bus's last sequence now: take it before a write, then wait with `untilPublished`. */
    async busSequence(): Promise<number> {
      const bus = await watch();
      return (await bus.jsm.streams.info(bus.stream)).state.last_seq;
    },
    /** Resolves once the relay has published an event of `source` and `type` after the sequence `after`. */
    async untilPublished(source: string, type: string, after: number): Promise<void> {
      const bus = await watch();
      await waitUntil(
        async () =>
          bus.jsm.streams
            .getMessage(bus.stream, { last_by_subj: bus.subject(source, type) })
            .then((message) => (message?.seq ?? 0) > after)
            .catch(() => false),
        5000,
        `${type} on the bus`,
      );
    },
    /** Deletes the namespace's JetStream stream, as if NATS had lost it. */
    loseBusStream: () => system.dropBusStream(),
    /**
     * Another gateway over the same Redis and services, as a second replica behind a load balancer;
     * `env` changes its configuration (another address for a service, say), `options.now` its clock.
     */
    async startReplica(env: Record<string, string> = {}, options: { now?: () => number } = {}): Promise<string> {
      const replica = await startGateway({ ...gatewayEnv, ...env }, { ...options, log: system.log });
      replicas.push(replica);
      return replica.url;
    },
    /**
     * Holds a consumer at its batch lock, as a rebuild does, so its read model lags on purpose until
     * `release` (idempotent: call it again in a `finally`). `untilWaiting` resolves once the
     * consumer's next batch waits on the lock; `untilReadWaits` once a read waits for the consumer
     * to catch up (read-your-writes) in its service, the schema's owner.
     */
    async holdConsumer(schema: ServiceName, consumer: string) {
      // Two connections: the held transaction, and one to watch the consumer arrive at the lock from.
      const pool = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
      const held = await pool.connect();
      await held.query('BEGIN');
      await lockConsumer(held, schema, consumer);
      let released = false;
      return {
        untilWaiting: () =>
          waitUntil(
            async () =>
              // An advisory lock on one bigint key: its low 32 bits are the lock's objid.
              (
                await pool.query(
                  `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
                     AND objid::bigint = (hashtext($1)::bigint & 4294967295)`,
                  [`consumer:${schema}.${consumer}`],
                )
              ).rows.length > 0,
            5000,
            `${consumer} to wait on its lock`,
          ),
        untilReadWaits: () =>
          waitUntil(
            () => running()[schema].consumers.some((c) => c.name === consumer && c.readsWaiting() > 0),
            5000,
            `a read to wait for ${consumer}`,
          ),
        async release() {
          if (released) return;
          released = true;
          await held.query('COMMIT');
          held.release();
          await pool.end();
        },
      };
    },
    /** The whole `/api` surface, read off the route table and each running service (api-surface.ts). */
    apiSurface: () => apiSurface(running()),
    /** A running service of this backend: its URL, context (pool, store, bus), consumers. */
    service<N extends ServiceName>(name: N): RunningService<never> {
      return running()[name];
    },
    /** Starts a service stopped by the test again, at its address: its callers find it as before. */
    async startAgain(name: ServiceName): Promise<void> {
      await system.startAgain(name);
    },
    /** Every row of every table of every service's schema and of the vault, as text, by table. */
    async everyRow(): Promise<Map<string, string[]>> {
      const { rows: tables } = await pool.query<{ schema: string; table: string }>(
        `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
         WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE'`,
        [[...Object.keys(running()), 'vault']],
      );
      const out = new Map<string, string[]>();
      for (const { schema, table } of tables) {
        const { rows } = await pool.query<{ row: string }>(`SELECT t::text AS row FROM ${schema}.${table} t`);
        out.set(
          `${schema}.${table}`,
          rows.map((r) => r.row),
        );
      }
      return out;
    },
    /** Every message the bus holds for this backend, as text. */
    async everyBusMessage(): Promise<string[]> {
      const { bus } = running().identity.context;
      const info = await bus.jsm.streams.info(bus.stream);
      const out: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const message = await bus.jsm.streams.getMessage(bus.stream, { seq }).catch(() => null);
        if (message) out.push(message.string());
      }
      return out;
    },
    databaseUrl: system.databaseUrl,
    /** The environment every service started with: to start another copy of one, configured otherwise. */
    serviceEnv: system.serviceEnv,
    /** The test's own connections to the backend's database, to look at what the services wrote. */
    pool,
    busNamespace,
    internalTokenSecret,
    /** What the services and the gateways have logged so far: warnings and errors. */
    logged: system.logged,
    async stop() {
      await (await watching)?.close();
      await Promise.all([gateway, ...replicas].map((g) => g.stop()));
      await pool.end();
      await system.stop();
    },
  };
}

export type Backend = Awaited<ReturnType<typeof startBackend>>;

/** A browser-like client: keeps its cookies (the session's and the positions'), sends our own Origin unless told otherwise. */
export class Client {
  /** Told of every answer any client gets (a test that checks them all against the API contract). */
  static observer: ((answer: Answer) => void) | undefined;
  /** Every cookie held, as a `Cookie` header (see `cookiesFrom`); undefined when none. */
  cookie: string | undefined;
  readonly baseUrl: string;
  /** A request not answered within this many ms is abandoned (fetch rejects); none by default. */
  readonly timeoutMs: number | undefined;

  constructor(baseUrl: string, options: { timeoutMs?: number } = {}) {
    this.baseUrl = baseUrl;
    this.timeoutMs = options.timeoutMs;
  }

  /** The session cookie alone, `shiplog.sid=…` (`__Host-shiplog.sid=…` when APP_URL is https). */
  get sessionCookie(): string | undefined {
    return this.cookie?.split('; ').find((pair) => /^(__Host-)?shiplog\.sid=/.test(pair));
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
      ...(this.timeoutMs ? { signal: AbortSignal.timeout(this.timeoutMs) } : {}),
    });
    const setCookie = response.headers.get('set-cookie');
    this.cookie = cookiesFrom(response, this.cookie) || undefined;
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    Client.observer?.({
      method,
      path,
      status: response.status,
      type: response.headers.get('content-type'),
      body: json,
    });
    return {
      status: response.status,
      // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field
      body: json as any,
      text,
      headers: response.headers,
      setCookie,
      setCookies: response.headers.getSetCookie(),
    };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }

  /**
   * Until this client reaches a project someone else made or moved a moment ago, in every service that
   * decides from a view of its own (projects, monitors, reminders, the timeline): its requests carry no position of
   * another's write, so the bus's delay is waited out here, not by the services.
   */
  untilReaches(projectId: string, timeoutMs = 10_000): Promise<void> {
    const paths = [
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/monitors`,
      `/api/reminders/project/${projectId}`,
      `/api/projects/${projectId}/activities`,
    ];
    return waitUntil(
      async () => (await Promise.all(paths.map(async (path) => (await this.get(path)).status))).every((s) => s === 200),
      timeoutMs,
      `project ${projectId} reached in every service`,
    );
  }
}

/** One answer as a client got it: what was asked, and the status, media type and JSON body of the answer. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  type: string | null;
  body: unknown;
}

let counter = 0;
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}
