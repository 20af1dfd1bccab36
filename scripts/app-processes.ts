/**
 * The app as `npm start` runs it: which processes (every service and the gateway, each a process of
 * its own), where each answers, and the environment each is started with. `scripts/start.ts` starts
 * them and stops all when one dies; the chaos run (`pnpm chaos`) kills and restarts them one by one.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ServiceName, serviceDirectory, serviceNames, serviceUrlVariables } from '@shiplog/service-kit';
import pg from 'pg';

export const root = join(import.meta.dirname, '..');

/**
 * The services, in start order; each answers at SERVICE_PORT_BASE + its offset, the offset being its
 * default port's distance from 4100 (the service directory, `libs/service-kit`).
 */
export const appServices = serviceNames.map((name) => ({ name, offset: serviceDirectory[name] - 4100 }));

export type AppProcessName = ServiceName | 'gateway';

export interface AppProcess {
  name: AppProcessName;
  /** The script node runs, relative to the repository. */
  entry: string;
  /** Node's options for this process alone, before the script (see `readPathOptions`). */
  nodeArgs: string[];
  /** Its environment on top of the caller's. */
  env: Record<string, string>;
  /** Answers 200 once the process serves. */
  readyUrl: string;
  /** Sent with each readiness request (the gateway's whole-system view is for whom may read the metrics). */
  readyHeaders?: Record<string, string>;
}

/** The preload that starts OpenTelemetry before a process's own code when an OTLP endpoint is set. */
const tracingPreload = join(root, 'libs', 'telemetry', 'src', 'register.ts');

/**
 * What every process of the app runs with, as the image sets it (Dockerfile):
 * - a compile cache, so TypeScript is stripped and compiled once, not at every start: a process that
 *   strips types loads Node's TypeScript parser, about 17 MB that stay;
 * - a young generation of 1 MB semi-spaces instead of V8's 16: the processes' requests and events
 *   allocate little that lives, and the default's touched pages stay resident (about 17 MB each);
 * - at most two malloc arenas (glibc): Node's helper threads would each get one, pages that stay
 *   resident (about 2 MB a process, 13 in the gateway);
 * - tracing's preload (libs/telemetry/src/register.ts), which loads nothing unless an OTLP endpoint
 *   is configured.
 * A semi-space size already in NODE_OPTIONS is kept; other options there come after ours.
 */
export function processEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const semiSpace = env.NODE_OPTIONS?.includes('--max-semi-space-size') ? [] : ['--max-semi-space-size=1'];
  return {
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE || join(root, 'node_modules', '.cache', 'node-compile'),
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || '2',
    NODE_OPTIONS: [...semiSpace, `--import=${tracingPreload}`, env.NODE_OPTIONS].filter(Boolean).join(' '),
  };
}

/**
 * The processes every read passes through (the gateway and the projects service) take 4 MB semi-spaces
 * on their command line, which wins over NODE_OPTIONS, as the compose file and the Kubernetes manifests
 * do too. Under load, with 1 MB they spent about 16% of their CPU scavenging; with 4 MB a
 * `GET /api/projects` costs them about 20% less CPU, for 8 MB more resident at idle (`docs/operations.md`).
 */
export const readPathOptions = ['--max-semi-space-size=4'];
const readPath = new Set<AppProcessName>(['gateway', 'projects']);

/**
 * The one process (scripts/one-process.ts) does the gateway's work and every service's on one heap:
 * 8 MB semi-spaces. `GET /api/projects` cost it 425 µs of CPU with 1 MB, 346 with 4 and 323 with 8
 * (V8's default 315, which lets the young generation grow to 32 MB); idle, the semi-spaces start at
 * 1 MB whatever their limit. The Dockerfile, the compose file and the small Kubernetes layout run it
 * with these options too.
 */
export const oneProcessOptions = ['--max-semi-space-size=8'];

/**
 * How scripts/start.ts itself runs, in either mode: the one process's options on its command line
 * (a supervisor of separate processes does little and allocates less), and `processEnv`.
 */
export function startCommand(env: NodeJS.ProcessEnv = process.env): {
  nodeArgs: string[];
  env: Record<string, string>;
} {
  return { nodeArgs: oneProcessOptions, env: processEnv(env) };
}

/** The services first (in order), then the gateway, which forwards to them. */
export function appProcesses(options: {
  databaseUrl: string;
  portBase: number;
  gatewayPort: number;
  /** The processes' environment, for who may read the gateway's whole-system readiness. */
  env?: NodeJS.ProcessEnv;
}): AppProcess[] {
  const { METRICS_TOKEN: metricsToken, NODE_ENV } = options.env ?? process.env;
  const serviceUrls = serviceUrlVariables(
    (name) => `http://127.0.0.1:${options.portBase + serviceDirectory[name] - 4100}`,
  );
  // Every process learns where the services answer: the gateway forwards there, a service asks another.
  const services = appServices.map(
    ({ name, offset }): AppProcess => ({
      name,
      entry: `services/${name}/src/main.ts`,
      nodeArgs: readPath.has(name) ? readPathOptions : [],
      env: {
        ...processEnv(),
        SERVICE_PORT: String(options.portBase + offset),
        DATABASE_URL: options.databaseUrl,
        ...serviceUrls,
      },
      readyUrl: `http://127.0.0.1:${options.portBase + offset}/healthz`,
    }),
  );
  const gateway: AppProcess = {
    name: 'gateway',
    entry: 'gateway/src/main.ts',
    nodeArgs: readPathOptions,
    env: { ...processEnv(), PORT: String(options.gatewayPort), ...serviceUrls },
    // The whole app is up when the gateway sees every service ready (its own /readyz: Redis and NATS),
    // which it says to whom may read the metrics; in production without a metrics token, to nobody,
    // and its own readiness is what is left.
    readyUrl: `http://127.0.0.1:${options.gatewayPort}/readyz${metricsToken || NODE_ENV !== 'production' ? '/system' : ''}`,
    ...(metricsToken ? { readyHeaders: { authorization: `Bearer ${metricsToken}` } } : {}),
  };
  return [...services, gateway];
}

/** Creates the database DATABASE_URL names when it does not exist yet. */
export async function ensureDatabase(url: string, log: (message: string) => void = () => {}) {
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

/** Polls `url` until it answers 2xx (true) or the time is up, or `cancelled()` says to stop (false). */
export async function waitUntilReady(
  process: Pick<AppProcess, 'readyUrl' | 'readyHeaders'>,
  seconds: number,
  cancelled = () => false,
): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline && !cancelled()) {
    try {
      const response = await fetch(process.readyUrl, {
        headers: process.readyHeaders ?? {},
        signal: AbortSignal.timeout(2000),
      });
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return false;
}
