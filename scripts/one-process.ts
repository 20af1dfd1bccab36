/**
 * The one-process mode (`SHIPLOG_PROCESSES=one`): every service and the gateway in this one Node
 * process, as Loki's and Mimir's components run in one binary with `-target=all`. The services stay
 * separate services: each its own code, schema, event store, routes, consumers, leadership, metrics
 * registry and log name, each on its own port, talking to the others over HTTP and the bus exactly as
 * when each runs alone; what they share is one V8 heap, one module cache and one PostgreSQL pool, and
 * the gateway hands a client's call to the service's request handler in this process instead of over
 * a socket (gateway/src/serving/forward.ts). `npm start` and the small
 * image run this way; each service in a process of its own (`SHIPLOG_PROCESSES=each`) is what a cluster
 * runs and the chaos run kills one by one.
 *
 * Run directly (`node scripts/one-process.ts`), it starts the app from the environment as a
 * container does: DATABASE_URL, NATS_URL, REDIS_URL, the secrets, PORT and SERVICE_PORT_BASE.
 */
import { type RunningGateway, startGateway } from '@shiplog/gateway';
import {
  createLogger,
  loadConfig,
  openDatabase,
  type RunningService,
  type ServiceEnv,
  serviceEnv,
  startService,
  stopOnSignals,
} from '@shiplog/service-kit';
import { appProcesses } from './app-processes.ts';
import { serviceDefinitions } from './services.ts';

/**
 * The one process's PostgreSQL pool, which every service in it shares (DATABASE_POOL_MAX overrides):
 * with the session connection that holds the leader locks and the relays' LISTEN, the whole app holds
 * at most 12 backends, and those of the pool close when idle.
 */
const ONE_PROCESS_POOL_MAX = '11';

export interface OneProcess {
  stop(): Promise<void>;
}

export async function startOneProcess(options: {
  databaseUrl: string;
  portBase: number;
  gatewayPort: number;
  env?: NodeJS.ProcessEnv;
}): Promise<OneProcess> {
  const env = { DATABASE_POOL_MAX: ONE_PROCESS_POOL_MAX, ...(options.env ?? process.env) };
  const processes = appProcesses({ ...options, env });
  const gatewayProcess = processes.at(-1)!;
  const services: RunningService<ServiceEnv>[] = [];
  let gateway: RunningGateway | undefined;
  const config = loadConfig(serviceEnv, { ...env, ...processes[0]!.env });
  const database = openDatabase(config, 'app', createLogger('shiplog', config.LOG_LEVEL, config.LOG_FILE));
  const stop = async () => {
    // The gateway first, so nothing new reaches a service that is stopping; then the services, and
    // the connections they shared.
    await gateway?.stop();
    await Promise.all(services.map((service) => service.stop()));
    await database.end();
  };
  try {
    // Every service at once: each knows where the others answer before any of them does.
    await Promise.all(
      processes.slice(0, -1).map(async (service) => {
        const definition = serviceDefinitions[service.name as keyof typeof serviceDefinitions];
        services.push(await startService(definition as never, { ...env, ...service.env }, { database }));
      }),
    );
    // The gateway hands its calls to the services' request handlers, without a socket between them.
    const inProcess = Object.fromEntries(services.map((service) => [service.context.name, service.listener]));
    gateway = await startGateway({ ...env, ...gatewayProcess.env }, { inProcess });
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { stop };
}

if (import.meta.main) {
  const env = process.env;
  let app: OneProcess;
  try {
    app = await startOneProcess({
      databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/shiplog',
      portBase: Number(env.SERVICE_PORT_BASE || 4100),
      gatewayPort: Number(env.PORT || 3000),
    });
  } catch (error) {
    process.stderr.write(`shiplog: failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  stopOnSignals('shiplog', () => app.stop());
  process.stdout.write('shiplog: ready\n');
}
