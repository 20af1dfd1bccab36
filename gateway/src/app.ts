import type { IncomingMessage, RequestListener } from 'node:http';
import { join } from 'node:path';
import { AppError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '@shiplog/errors';
import {
  accessLog,
  adminRequired,
  declareSecretPaths,
  errorHandler,
  healthRoutes,
  type Logger,
  metricsRoute,
  reauthRequired,
  refuseTokenWrite,
  requestSpans,
  routeInput,
  type ServiceClients,
  sendError,
  serviceNames,
  tokenNotAccepted,
} from '@shiplog/service-kit';
import type { Tracing } from '@shiplog/telemetry';
import type { Metrics } from '@shiplog/telemetry/metrics';
import express, { type Express, type Response as ExpressResponse, type Request } from 'express';
import type { RedisClientType } from 'redis';
import { accountActions } from './actions/account.ts';
import { type Action, type ActionOf, actAsTokenUser, userOf } from './actions/action.ts';
import { exportActions } from './actions/export.ts';
import { createGraphql } from './actions/graphql.ts';
import { LIVE_SEQ_HEADER } from './actions/live.ts';
import type { PublicHolds } from './actions/public-holds.ts';
import { publicProfiles } from './actions/public-profile.ts';
import { pushDeviceActions } from './actions/push-devices.ts';
import type { GatewayRouteKey } from './actions/routes.ts';
import { sessionListActions } from './actions/session-list.ts';
import type { GatewayEnv } from './env.ts';
import { openApiDocument } from './openapi/document.ts';
import { isServiceRoute, routeOf, routes, secretPaths } from './routes.ts';
import { bearerToken, servicePath, verifyToken } from './serving/forward.ts';
import { Limits } from './serving/limits.ts';
import { appOrigin, parseTrustProxy, refuseForeignOrigins } from './serving/origin.ts';
import { securityHeaders } from './serving/security-headers.ts';
import { webApp } from './serving/web-app.ts';
import { sessionPrefix } from './session/keys.ts';
import { LoginLimiter } from './session/login-limiter.ts';
import { PositionCookies, RequestPositions } from './session/positions.ts';
import { callerFor, type SessionCache } from './session/session-cache.ts';
import {
  authenticatedAt,
  isRecentAuth,
  SessionLifetime,
  SessionReader,
  sessionCookie,
  sessionMiddleware,
} from './session/sessions.ts';
import { SharedPositions } from './session/shared-positions.ts';
import { grantOf, type TokenCache } from './session/token-cache.ts';
import { UserSessions } from './session/user-sessions.ts';

export interface GatewayDeps {
  /** Each /api request is a span; the services' spans and the events they append join its trace. */
  tracing?: Tracing;
  config: GatewayEnv;
  secrets: { session: string; internalToken: string };
  redis: RedisClientType;
  /**
   * A second Redis connection with server-assisted client-side caching (RESP3), for the read path's
   * session lookups, and its cache (`SessionCache`, see server.ts): Redis invalidates a cached session
   * on every replica as soon as it changes.
   */
  sessionRedis: RedisClientType;
  sessionCache: SessionCache;
  /** API tokens identity has verified lately; the live feed forgets a user's when one may have ended. */
  tokens: TokenCache;
  /** Public pages held by this gateway; the live feed drops a user's on each of their events. */
  holds: PublicHolds;
  services: ServiceClients;
  logger: Logger;
  /** `GET /api/events`, the live feed's stream (live.ts). */
  events: Action;
  /** The live feed's last announced sequence, sent on every `/api` answer (LIVE_SEQ_HEADER). */
  liveSeq: () => number;
  /** Resolves when the NATS connection answers (a round trip to the server): part of readiness. */
  busReady: () => Promise<unknown>;
  /** The clock sessions are timed by; `Date.now` unless a test brings its own. */
  now?: () => number;
  /** Each request counted and timed by route template; `/metrics` serves them (health.ts). */
  metrics: Metrics;
}

/**
 * The `/api` surface's version, on every `/api` answer: a client made for an older major version (the
 * CLI) says what to do instead of misreading a newer server. Raised when a change breaks a client.
 */
export const API_VERSION = '1';
export const API_VERSION_HEADER = 'x-shiplog-api-version';
/**
 * The oldest version still served. A client says the version it speaks in the same header; a newer
 * server keeps serving an older client (the CLI in a pinned CI job) until this is raised past it, and
 * then answers it 400 `API_VERSION_UNSUPPORTED`, which says what to do.
 */
export const API_OLDEST_SUPPORTED = 1;

/** The refusal of a client whose version is no longer served, or null. */
export function unsupportedVersion(header: string | string[] | undefined): AppError | null {
  if (typeof header !== 'string' || !/^\d{1,6}$/.test(header)) return null;
  if (Number(header) >= API_OLDEST_SUPPORTED) return null;
  return new AppError(
    400,
    'API_VERSION_UNSUPPORTED',
    `This Shiplog no longer serves version ${header} of its API (it serves ${API_OLDEST_SUPPORTED} to ${API_VERSION}).`,
  );
}

/**
 * The gateway's request handler. The `/api` surface is one table (routes.ts): a service's route takes
 * the lean service path (forward.ts); a gateway action, the health checks and the web app take the
 * Express pipeline below. Why two paths: docs/decisions/017-one-route-table-two-serving-paths.md.
 */
export function createGateway(deps: GatewayDeps): RequestListener {
  declareSecretPaths(secretPaths);
  const positions = new PositionCookies(deps.secrets.session);
  const lifetime = new SessionLifetime(deps.config, deps.redis, deps.now);
  // The positions writes reached that are kept in Redis rather than in a client's cookies: an API
  // token's own writes, and writes everyone reads (administrators' messages).
  const shared = new SharedPositions(deps.redis, `${deps.config.BUS_NAMESPACE}:`);
  const app = createExpressApp(deps, positions, lifetime, shared);
  const limits: Limits = app.get('limits');
  const services = servicePath({
    services: deps.services,
    sessions: new SessionReader({
      redis: deps.sessionRedis,
      cache: deps.sessionCache,
      prefix: sessionPrefix(deps.config),
      cookieName: sessionCookie(deps.config).name,
      secret: deps.secrets.session,
      positions,
      lifetime,
    }),
    positions,
    shared,
    tokens: deps.tokens,
    holds: deps.holds,
    logger: deps.logger,
    trustProxy: app.get('trust proxy fn'),
    limits,
    appOrigin: appOrigin(deps.config),
    ...(deps.tracing?.enabled
      ? { spans: requestSpans(deps.tracing, { trustParent: false, routeOf: routeTemplate }) }
      : {}),
  });
  const secure = securityHeaders({ https: deps.config.APP_URL?.startsWith('https:') ?? false });
  // Where an answer stands in the live feed, for the app's own reads: a request with a session cookie
  // (the stream's ids tell a signed-in user the same), never an anonymous visitor's.
  const session = `${sessionCookie(deps.config).name}=`;
  // Every request's line once answered, whichever path served it (with its trace's ids when traced).
  const log = accessLog(deps.logger, { metrics: deps.metrics, routeOf: metricsRouteOf });
  return (req, res) => {
    secure(res);
    if (req.url?.startsWith('/api/')) {
      res.setHeader(API_VERSION_HEADER, API_VERSION);
      const unsupported = unsupportedVersion(req.headers[API_VERSION_HEADER]);
      if (unsupported) {
        log(req, res, () => sendError(req, res, unsupported, deps.logger));
        return;
      }
      if (req.headers.cookie?.includes(session)) res.setHeader(LIVE_SEQ_HEADER, String(deps.liveSeq()));
    }
    log(req, res, () => {
      if (!services(req, res)) app(req, res);
    });
  };
}

function createExpressApp(
  {
    config,
    secrets,
    redis,
    sessionCache,
    tokens,
    holds,
    services,
    logger,
    tracing,
    events,
    busReady,
    metrics,
  }: GatewayDeps,
  cookies: PositionCookies,
  lifetime: SessionLifetime,
  shared: SharedPositions,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.TRUST_PROXY) app.set('trust proxy', parseTrustProxy(config.TRUST_PROXY));
  const limits = new Limits({
    redis,
    prefix: `${config.BUS_NAMESPACE}:`,
    env: config,
    trustProxy: app.get('trust proxy fn'),
  });
  // Both serving paths count against the same limits.
  app.set('limits', limits);

  // Ready when it can serve: its own Redis and NATS. A service that is down makes its routes answer 503
  // and leaves the rest serving (forward.ts); every service's state is at /readyz/system, for whom may
  // read the metrics.
  const operator = { token: config.METRICS_TOKEN, production: config.NODE_ENV === 'production' };
  healthRoutes(
    app,
    { redis: () => redis.ping(), nats: busReady },
    {
      access: operator,
      system: Object.fromEntries(
        serviceNames.map((service) => [
          service,
          async () => {
            const response = await (await services.pool(service)).request({ method: 'GET', path: '/readyz' });
            await response.body.dump();
            if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
          },
        ]),
      ),
    },
  );

  metricsRoute(app, metrics, operator);

  // The calls the gateway passes on send the body's bytes as they came, not a re-serialisation:
  // JSON.stringify overflows the stack on a deeply nested body that JSON.parse accepted (a 500 where
  // identity answers the bad input with a 400).
  const received = new WeakMap<IncomingMessage, Buffer>();
  const jsonUpTo = (limit: string) => express.json({ limit, verify: (req, _res, body) => received.set(req, body) });
  const json = jsonUpTo('100kb');
  const largeJson = new Map(
    routes.flatMap((r) =>
      !isServiceRoute(r) && r.declaration.bodyLimit ? [[r.gateway, jsonUpTo(r.declaration.bodyLimit)] as const] : [],
    ),
  );
  const positions = new RequestPositions(cookies);
  const sessions = new UserSessions(redis, config);
  const graphql = createGraphql({
    services,
    logger,
    callerOf: (req) => callerFor(req.session.user),
    positionsOf: (req) => positions.of(req),
  });
  /** This server's address as readers reach it: APP_URL's origin, else the request's. */
  const originOf = (req: Request) => appOrigin(config) ?? `${req.protocol}://${req.get('host')}`;
  const profiles = publicProfiles({ services, positions, holds, origin: originOf });
  /** A public page's preview costs service calls: counted as the page's data is; over the limit, none. */
  const previewCounted = async (req: Request, res: ExpressResponse): Promise<boolean> => {
    try {
      await limits.take('publicRead', { userId: undefined, req }, res);
      return true;
    } catch (error) {
      if (error instanceof TooManyRequestsError) return false;
      throw error;
    }
  };
  let apiDocument: string | undefined;
  const account = accountActions({
    cookieName: sessionCookie(config).name,
    services,
    tokens,
    positions,
    sessions,
    limiter: new LoginLimiter(redis, {
      prefix: `${config.BUS_NAMESPACE}:`,
      secret: secrets.session,
      maxFailures: config.LOGIN_MAX_FAILURES,
      maxFailuresPerName: config.LOGIN_MAX_FAILURES_PER_NAME,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
    }),
    logger,
    bodyOf: (req) => received.get(req),
  });
  const sessionList = sessionListActions(sessions);
  const pushDevices = pushDeviceActions({ services, sessions, bodyOf: (req) => received.get(req) });
  const data = exportActions({ services, positions });
  // The action that answers each of the gateway's routes (actions/routes.ts declares them).
  const actions: { [K in GatewayRouteKey]: ActionOf<K> } = {
    'POST /api/register': account.register,
    'POST /api/login': account.login,
    'POST /api/logout': account.logout,
    'GET /api/user': account.user,
    'POST /api/user/change-password': account.changePassword,
    'POST /api/reauth': account.reauth,
    'DELETE /api/user': account.deleteAccount,
    'DELETE /api/admin/users/:userId': account.deleteUser,
    'GET /api/sessions': sessionList.sessions,
    'POST /api/sessions/end-others': sessionList.endOtherSessions,
    'DELETE /api/sessions/:sessionId': sessionList.endSession,
    'POST /api/reminders/push/subscriptions': pushDevices.turnPushOn,
    'GET /api/export': data.exportData,
    'POST /api/import': data.importData,
    'GET /api/public/users/:username': profiles.publicProfile,
    'GET /api/public/users/:username/status': profiles.publicStatus,
    'GET /api/public/workspaces/:slug/status': profiles.teamStatus,
    'GET /api/public/users/:username/projects/:projectId/changelog': profiles.changelog,
    'GET /api/public/users/:username/projects/:projectId/changelog.atom': profiles.changelogFeed,
    'GET /api/badges/:username/:projectId/:badge': profiles.badge,
    'POST /api/graphql': graphql,
    'GET /api/graphql': graphql,
    'GET /api/events': events,
    'GET /api/openapi.json': async (_req, res) => {
      apiDocument ??= JSON.stringify(openApiDocument({ version: API_VERSION }));
      res.type('json').setHeader('Cache-Control', 'no-cache').send(apiDocument);
    },
  };

  const api = express.Router();
  if (tracing?.enabled) api.use(requestSpans(tracing, { trustParent: false, routeOf: routeTemplate }));
  api.use(sessionMiddleware(config, redis, secrets.session, lifetime, sessions, (sid) => sessionCache.forget(sid)));
  api.use(refuseForeignOrigins(config));
  // The gateway's actions, by the route table: the same rules as the service path (a session unless
  // public), then the body, then the action. Service routes never get here (forward.ts takes them).
  api.use(async (req: Request, res, next) => {
    const route = routeOf(req);
    if (!route || isServiceRoute(route)) throw new NotFoundError('Not found');
    // A personal API token stands for the session where the route takes one (`GET /api/user`, the export).
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) {
      if (!route.token) throw tokenNotAccepted();
      const verified = await verifyToken(services, tokens, token);
      refuseTokenWrite({ apiToken: grantOf(verified) }, req.method);
      actAsTokenUser(req, verified.user, grantOf(verified));
      // Its client keeps no cookies: its reads wait for its own writes as kept by token (forward.ts).
      const own = await shared.after(`api-token-${verified.tokenId}`);
      if (own) positions.include(req, own);
    }
    const user = userOf(req);
    if (!route.public && !user) throw new UnauthorizedError();
    if (route.admin && !user?.isAdmin) throw adminRequired();
    if (route.recentAuth && !isRecentAuth(authenticatedAt(req.session))) throw reauthRequired();
    if (route.limit) await limits.take(route.limit, { userId: user?.id, req }, res);
    const params = paramsOf(route.pattern, req.originalUrl);
    if (!params) throw new NotFoundError('Not found');
    const run = () => (actions[route.gateway] as Action)(req, res, params, routeInput(req, route.declaration));
    const parse = largeJson.get(route.gateway) ?? json;
    parse(req, res, (error?: unknown) => (error ? next(error) : run().catch(next)));
  });
  api.use(errorHandler(logger));
  app.use('/api', api);

  app.use(
    webApp(config.WEB_DIST ?? join(import.meta.dirname, '..', '..', 'web', 'dist'), logger, [
      {
        pattern: /^\/u\/(?<username>[^/]+)\/(?<projectId>[0-9a-f-]{36})\/changelog\/?$/,
        head: async ({ username, projectId }, req, res) =>
          (await previewCounted(req, res)) ? profiles.changelogHead(req, username ?? '', projectId ?? '') : null,
      },
      {
        pattern: /^\/u\/(?<username>[^/]+)(?<status>\/status)?\/?$/,
        head: async ({ username, status }, req, res) =>
          (await previewCounted(req, res))
            ? profiles.pageHead(req, username ?? '', originOf(req), status ? 'status' : 'profile')
            : null,
      },
    ]),
  );
  // Anything else (a POST to a page's address, a path no page has with a method no page takes) gets the
  // one error body, as under /api.
  app.use((_req, _res, next) => next(new NotFoundError('Not found')));
  app.use(errorHandler(logger));
  return app;
}

/**
 * A request's route for the metrics: a gateway action's template (`/api/admin/users/:userId`), a
 * service's routes as `service:<name>` (that service's own metrics label each of its routes), the
 * path of the health and metrics endpoints, `web` for the app's pages and files, and else none
 * (counted as `unmatched`): a label never holds a path a client made up.
 */
function metricsRouteOf(req: IncomingMessage): string | undefined {
  const url = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0]!;
  if (['/healthz', '/readyz', '/readyz/system', '/metrics'].includes(url)) return url;
  if (!url.startsWith('/api/')) return 'web';
  const route = routeOf(req);
  if (!route) return undefined;
  return isServiceRoute(route) ? `service:${route.service}` : route.path;
}

/** A gateway action's path template (`/api/admin/users/:userId`); a service's route is named by its service. */
function routeTemplate(req: IncomingMessage): string | undefined {
  const route = routeOf(req);
  return route && !isServiceRoute(route) ? route.path : undefined;
}

/** The named groups of a route's pattern, decoded; null when one is not a valid encoding. */
function paramsOf(pattern: RegExp, url: string): Record<string, string> | null {
  const groups = pattern.exec(url.split('?')[0]!)?.groups ?? {};
  try {
    return Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeURIComponent(value)]));
  } catch {
    return null;
  }
}
