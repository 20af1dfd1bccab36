import type { IncomingMessage, RequestListener } from 'node:http';
import { join } from 'node:path';
import { AppError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '@shiplog/errors';
import type { CurrentUser } from '@shiplog/schemas';
import {
  type Caller,
  errorHandler,
  type Logger,
  POSITION_HEADER,
  requestSpans,
  runChecks,
  type ServiceClients,
  type ServiceName,
} from '@shiplog/service-kit';
import type { Tracing } from '@shiplog/telemetry';
import cookie from 'cookie';
import express, { type Express, type Request, type Response } from 'express';
import type { RedisClientType } from 'redis';
import type { GatewayEnv } from './env.ts';
import { callerFor, servicePath } from './forward.ts';
import { createGraphql } from './graphql.ts';
import { LoginLimiter } from './login-limiter.ts';
import { appOrigin, parseTrustProxy, refuseForeignOrigins } from './origin.ts';
import { PositionCookies } from './positions.ts';
import { securityHeaders } from './security-headers.ts';
import type { SessionCache, SessionUser } from './session-cache.ts';
import { SESSION_COOKIE, SessionReader, sessionMiddleware, sessionPrefix, UserSessions } from './sessions.ts';
import { SharedPositions } from './shared-positions.ts';
import { webApp } from './web-app.ts';

/** Services the gateway depends on today: its /readyz checks each. */
export const requiredServices: ServiceName[] = ['identity', 'billing', 'projects', 'reminders', 'activity'];

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
  services: ServiceClients;
  logger: Logger;
}

/**
 * The gateway's request handler: calls to service-owned paths take the lean service path
 * (forward.ts); everything else (the session calls, GraphQL, the web app) the Express pipeline below.
 */
export function createGateway(deps: GatewayDeps): RequestListener {
  const positions = new PositionCookies(deps.secrets.session);
  const app = createExpressApp(deps, positions);
  const services = servicePath({
    services: deps.services,
    sessions: new SessionReader({
      redis: deps.sessionRedis,
      cache: deps.sessionCache,
      prefix: sessionPrefix(deps.config),
      cookieName: SESSION_COOKIE,
      secret: deps.secrets.session,
      positions,
    }),
    positions,
    shared: new SharedPositions(deps.redis, `${deps.config.BUS_NAMESPACE}:`),
    logger: deps.logger,
    trustProxy: app.get('trust proxy fn'),
    appOrigin: appOrigin(deps.config),
    ...(deps.tracing?.enabled ? { spans: requestSpans(deps.tracing, { trustParent: false }) } : {}),
  });
  const secure = securityHeaders({ https: deps.config.APP_URL?.startsWith('https:') ?? false });
  return (req, res) => {
    secure(res);
    if (!services(req, res)) app(req, res);
  };
}

function createExpressApp(
  { config, secrets, redis, services, logger, tracing }: GatewayDeps,
  positions: PositionCookies,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.TRUST_PROXY) app.set('trust proxy', parseTrustProxy(config.TRUST_PROXY));
  const limiter = new LoginLimiter(redis, {
    prefix: `${config.BUS_NAMESPACE}:`,
    secret: secrets.session,
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_WINDOW_SECONDS,
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runChecks({
      redis: () => redis.ping(),
      ...Object.fromEntries(
        requiredServices.map((service) => [
          service,
          async () => {
            const response = await services.pool(service).request({ method: 'GET', path: '/readyz' });
            await response.body.dump();
            if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
          },
        ]),
      ),
    });
    res.status(Object.values(checks).every((c) => c === 'ok') ? 200 : 503).json({ checks });
  });

  const api = express.Router();
  if (tracing?.enabled) api.use(requestSpans(tracing, { trustParent: false }));
  api.use(sessionMiddleware(config, redis, secrets.session));
  api.use(refuseForeignOrigins(config));

  const callerOf = (req: Request): Caller => callerFor(req.session.user);
  const cookiesOf = (req: Request) => cookie.parse(req.headers.cookie ?? '');
  /** Positions reached by writes earlier in this same request (sign-in reads the user it just wrote). */
  const reachedNow = new WeakMap<Request, string>();
  const positionsOf = (req: Request): string | undefined => {
    const sent = positions.after(cookiesOf(req));
    const now = reachedNow.get(req);
    return now && sent ? `${sent},${now}` : (now ?? sent);
  };
  /** A write's position goes back to the client, which sends it with every later call (positions.ts). */
  const rememberPosition = (req: Request, res: Response, header: string | string[] | undefined) => {
    const setCookie = positions.setCookie(header, req.secure);
    if (!setCookie) return;
    res.append('Set-Cookie', setCookie);
    const now = reachedNow.get(req);
    reachedNow.set(req, now ? `${now},${header}` : (header as string));
  };
  const forgetPositions = (req: Request, res: Response) => {
    for (const setCookie of positions.clearCookies(cookiesOf(req))) res.append('Set-Cookie', setCookie);
  };

  /** GET /api/user's answer: the account from identity, the subscription from billing. */
  async function currentUser(req: Request): Promise<CurrentUser | null> {
    if (!req.session.user) return null;
    const caller = callerOf(req);
    const after = positionsOf(req);
    const [account, subscription] = await Promise.all([
      services.call<{ id: string; username: string; email: string | null; isAdmin: boolean }>('identity', {
        method: 'GET',
        path: '/users/me',
        caller,
        after,
      }),
      services
        .call<{ status: CurrentUser['subscriptionStatus']; trialEndDate: string | null }>('billing', {
          method: 'GET',
          path: '/subscription/status',
          caller,
          after,
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'billing unavailable; answering the user without a subscription status');
          return null;
        }),
    ]);
    if (account.status === 404 || account.status === 401) {
      await destroySession(req);
      return null;
    }
    if (account.status !== 200) throw new AppError(502, 'UPSTREAM_FAILED', 'The account service did not answer');
    const sub = subscription?.status === 200 ? subscription.body : null;
    return {
      id: account.body.id,
      username: account.body.username,
      email: account.body.email,
      subscriptionStatus: sub?.status ?? null,
      trialEndDate: sub?.trialEndDate ?? null,
      isAdmin: account.body.isAdmin,
    };
  }

  const userSessions = new UserSessions(redis, config);
  const endSessions = (userId: string, keep?: string) => userSessions.end(userId, keep);

  async function signIn(req: Request, res: Response, user: SessionUser, positionHeader: unknown) {
    // A new session id at every sign-in: a session id planted before login is worth nothing after it.
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((error) => (error ? reject(error) : resolve())),
    );
    req.session.user = { id: user.id, username: user.username, isAdmin: user.isAdmin };
    rememberPosition(req, res, positionHeader as string | undefined);
    await userSessions.add(user.id, req.sessionID);
  }

  // The calls the gateway passes on send the body's bytes as they came, not a re-serialisation:
  // JSON.stringify overflows the stack on a deeply nested body that JSON.parse accepted (a 500 where
  // identity answers the bad input with a 400).
  const received = new WeakMap<IncomingMessage, Buffer>();
  const json = express.json({ limit: '100kb', verify: (req, _res, body) => received.set(req, body) });
  const bodyOf = (req: Request) => received.get(req);

  api.post('/register', json, async (req, res) => {
    const result = await services.call<SessionUser>('identity', {
      method: 'POST',
      path: '/register',
      body: bodyOf(req),
      caller: callerOf(req),
    });
    if (result.status !== 201) return sendUpstreamError(res, result);
    await signIn(req, res, result.body, result.headers[POSITION_HEADER]);
    res.status(201).json(await currentUser(req));
  });

  api.post('/login', json, async (req, res) => {
    const username = typeof req.body?.username === 'string' ? req.body.username : '';
    const ip = req.ip ?? 'unknown';
    const wait = await limiter.retryAfter(username, ip);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new TooManyRequestsError(
        `Too many failed login attempts. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      );
    }
    const result = await services.call<SessionUser>('identity', {
      method: 'POST',
      path: '/login',
      body: bodyOf(req),
      caller: callerOf(req),
    });
    if (result.status === 401) await limiter.recordFailure(username, ip);
    if (result.status !== 200) return sendUpstreamError(res, result);
    await limiter.recordSuccess(username, ip);
    await signIn(req, res, result.body, result.headers[POSITION_HEADER]);
    res.json(await currentUser(req));
  });

  // Password change: identity checks the current password; then every other session of the user ends.
  api.post('/user/change-password', json, async (req, res) => {
    if (!req.session.user) throw new UnauthorizedError();
    const result = await services.call('identity', {
      method: 'POST',
      path: '/user/change-password',
      body: bodyOf(req),
      caller: callerOf(req),
    });
    if (result.status !== 200) return sendUpstreamError(res, result);
    rememberPosition(req, res, result.headers[POSITION_HEADER]);
    await endSessions(req.session.user.id, req.sessionID);
    res.json(result.body);
  });

  // Account deletion: identity deletes the account (every service follows); every session of it ends.
  api.delete('/user', async (req, res) => {
    if (!req.session.user) throw new UnauthorizedError();
    const result = await services.call('identity', { method: 'DELETE', path: '/user', caller: callerOf(req) });
    if (result.status !== 204) return sendUpstreamError(res, result);
    await endSessions(req.session.user.id);
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    forgetPositions(req, res);
    res.json({ message: 'Account deleted' });
  });

  // An administrator deletes an account: identity refuses anyone else and the admin account itself; the
  // cascade runs as for a user deleting themselves, and every session of the deleted account ends.
  api.delete('/admin/users/:userId', async (req, res) => {
    if (!req.session.user) throw new UnauthorizedError();
    const userId = req.params.userId!;
    const result = await services.call('identity', {
      method: 'DELETE',
      path: `/admin/users/${encodeURIComponent(userId)}`,
      caller: callerOf(req),
    });
    if (result.status !== 204) return sendUpstreamError(res, result);
    rememberPosition(req, res, result.headers[POSITION_HEADER]);
    await endSessions(userId);
    res.status(204).end();
  });

  api.post('/logout', async (req, res) => {
    if (req.session?.user) await userSessions.remove(req.session.user.id, req.sessionID);
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    forgetPositions(req, res);
    res.json({ message: 'Logged out' });
  });

  api.get('/user', async (req, res) => {
    const user = await currentUser(req);
    if (!user) throw new UnauthorizedError();
    res.json(user);
  });

  const graphql = createGraphql({ services, callerOf, positionsOf });
  api.use('/graphql', (req, res) => graphql.requestListener(req, res));

  // Calls to service-owned paths never get here: the gateway's service path takes them (forward.ts).
  api.use((_req, _res, next) => next(new NotFoundError('Not found')));
  api.use(errorHandler(logger));
  app.use('/api', api);

  app.use(webApp(config.WEB_DIST ?? join(import.meta.dirname, '..', '..', 'web', 'dist'), logger));
  return app;

  async function destroySession(req: Request) {
    if (!req.session) return;
    await new Promise<void>((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
  }
}

function sendUpstreamError(res: Response, result: { status: number; body: unknown }) {
  const body = (result.body ?? {}) as Record<string, unknown>;
  res.status(result.status).json({
    message: typeof body.message === 'string' ? body.message : 'Request failed',
    code: typeof body.code === 'string' ? body.code : 'UPSTREAM_ERROR',
    ...(body.fieldErrors ? { fieldErrors: body.fieldErrors } : {}),
  });
}
