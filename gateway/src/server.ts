import type { RequestListener } from 'node:http';
import { connectBus } from '@shiplog/messaging';
import {
  busOptions,
  createLogger,
  type LogDestination,
  loadConfig,
  ServiceClients,
  type ServiceName,
  serveHttp,
  serviceNames,
  serviceUrlsOf,
  unavailable,
} from '@shiplog/service-kit';
import { startTracing } from '@shiplog/telemetry';
import { createMetrics } from '@shiplog/telemetry/metrics';
import { createClient, type RedisClientType } from 'redis';
import { LiveFeed, liveEvents } from './actions/live.ts';
import { PublicHolds } from './actions/public-holds.ts';
import { createGateway } from './app.ts';
import { gatewayEnv, secretsOf } from './env.ts';
import { sessionPrefix } from './session/keys.ts';
import { PositionCookies, RequestPositions } from './session/positions.ts';
import { pushDeviceSweep } from './session/push-devices.ts';
import { callerFor, SessionCache } from './session/session-cache.ts';
import { TokenCache, tokenEndingEvents } from './session/token-cache.ts';

export interface RunningGateway {
  url: string;
  stop: () => Promise<void>;
}

/**
 * The gateway from its environment; `options.now` is the clock sessions are timed by (tests), and
 * `options.inProcess` the request handlers of the services in this process (scripts/one-process.ts),
 * which it calls without a socket.
 */
export async function startGateway(
  env: NodeJS.ProcessEnv = process.env,
  options: {
    now?: () => number;
    inProcess?: Partial<Record<ServiceName, RequestListener>>;
    /** Where its log lines go instead of standard output or LOG_FILE (a test harness's memory). */
    log?: LogDestination;
  } = {},
): Promise<RunningGateway> {
  const config = loadConfig(gatewayEnv, env);
  const logger = createLogger('gateway', config.LOG_LEVEL, options.log ?? config.LOG_FILE);
  const secrets = secretsOf(config);
  const redis = createClient({ url: config.REDIS_URL }) as RedisClientType;
  redis.on('error', (error) => logger.error({ err: error }, 'redis connection error'));
  await redis.connect();
  // Sessions for the read path: RESP3 with client-side caching. Redis tracks the keys this connection
  // read and pushes an invalidation when one changes (sign-out, password change, expiry); the cache
  // is dropped whenever the connection is lost. The TTL only bounds memory held for idle sessions.
  const sessionCache = new SessionCache({ prefix: sessionPrefix(config), ttlMs: 10 * 60_000, maxEntries: 50_000 });
  const sessionRedis = createClient({
    url: config.REDIS_URL,
    RESP: 3,
    clientSideCache: sessionCache,
  }) as unknown as RedisClientType;
  sessionRedis.on('error', (error) => logger.error({ err: error }, 'redis (session cache) connection error'));
  await sessionRedis.connect();
  const services = new ServiceClients(serviceUrlsOf(config), secrets.internalToken, { inProcess: options.inProcess });
  const tracing = await startTracing('gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const bus = await connectBus({ ...busOptions(config), name: 'gateway' });
  const tokens = new TokenCache({ ttlMs: config.API_TOKEN_CACHE_SECONDS * 1000, maxEntries: 10_000 });
  const holds = new PublicHolds(redis, `${config.BUS_NAMESPACE}:`);
  const feed = new LiveFeed({
    bus,
    services,
    readSides: serviceNames,
    logger,
    onEvent: (type, userId) => {
      if (tokenEndingEvents.has(type)) tokens.forgetUser(userId);
      // Whatever a user changes may change their public pages: this replica holds none of theirs.
      holds.forgetUser(userId);
    },
  });
  await feed.start();
  // Push devices end with the session they were turned on in, however it ends.
  const pushDevices = pushDeviceSweep({ config, redis, services, logger });
  pushDevices.start();
  const streamPositions = new RequestPositions(new PositionCookies(secrets.session));
  const live = liveEvents({
    feed,
    sessionAlive: async (sid) => (await redis.exists(`${sessionPrefix(config)}${sid}`)) === 1,
    workspacesOf: async (user, req) => {
      const answer = await services.call<{ id: string }[]>('identity', {
        method: 'GET',
        path: '/workspaces',
        caller: callerFor(user),
        after: streamPositions.of(req),
      });
      if (answer.status !== 200) throw unavailable('identity', new Error(`workspaces answered ${answer.status}`));
      return answer.body.map((workspace) => workspace.id);
    },
  });
  const http = await serveHttp(
    createGateway({
      config,
      secrets,
      redis,
      sessionRedis,
      sessionCache,
      tokens,
      holds,
      services,
      logger,
      tracing,
      events: live.action,
      liveSeq: () => feed.announced,
      busReady: () => bus.nc.flush(),
      metrics: createMetrics('gateway'),
      ...(options.now ? { now: options.now } : {}),
    }),
    config.PORT,
    config.HOST,
  );
  const { port } = http;
  const url = `http://localhost:${port}`;
  logger.info({ url }, 'gateway listening');
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop() {
      stopping ??= (async () => {
        const closed = http.close();
        // Live streams never end on their own.
        live.closeAll();
        await closed;
        await feed.stop();
        await pushDevices.stop();
        await bus.close().catch(() => undefined);
        const cut = await services.close();
        if (cut > 0) logger.warn({ cut }, 'calls to the services still open at the stop were cut');
        await redis.quit().catch(() => undefined);
        // The session reads' connection only reads: closed at once. Its QUIT can wait for ever once the
        // connection has been re-established after a Redis restart (client-side caching's tracking).
        sessionRedis.destroy();
        await tracing.shutdown().catch(() => undefined);
      })();
      return stopping;
    },
  };
}
