import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForbiddenError, UnauthorizedError } from '@shiplog/errors';
import {
  type Caller,
  type Logger,
  POSITION_HEADER,
  type ServiceClients,
  type ServiceName,
  sendError,
  unavailable,
} from '@shiplog/service-kit';
import cookie from 'cookie';
import type { RedisClientType } from 'redis';
import type { PositionCookies } from './positions.ts';
import type { SessionCache, SessionUser } from './session-cache.ts';
import { SignedValues } from './signed-values.ts';

/**
 * Forwarding: which service owns which part of the `/api` surface, and the one way a call is passed on
 * to it. The gateway answers the session calls itself (register, login, logout, user, GraphQL) and
 * forwards the rest with the `/api` prefix removed.
 */
export const apiRoutes: ApiRoute[] = [
  { pattern: /^\/api\/subscription(\/|$)/, service: 'billing' },
  { pattern: /^\/api\/admin\/users\/[^/]+\/(subscription|extend-trial)$/, service: 'billing' },
  // Stripe's deliveries carry no session: the signature over the raw body (passed on untouched) is the credential.
  { pattern: /^\/api\/stripe\/webhook$/, methods: ['POST'], service: 'billing', public: true },
  { pattern: /^\/api\/stripe\//, service: 'billing' },
  // DELETE /api/admin/users/{id} is the gateway's own: every session of the deleted user ends with it.
  { pattern: /^\/api\/admin\/users(\/summary)?$/, methods: ['GET', 'HEAD'], service: 'identity' },
  { pattern: /^\/api\/admin\/contact-messages(\/|$)/, service: 'identity' },
  { pattern: /^\/api\/projects\/[^/]+\/activities$/, methods: ['GET', 'HEAD'], service: 'activity' },
  { pattern: /^\/api\/projects(\/|$)/, service: 'projects' },
  { pattern: /^\/api\/activities$/, methods: ['POST'], service: 'projects' },
  { pattern: /^\/api\/activities$/, methods: ['GET', 'HEAD'], service: 'activity' },
  { pattern: /^\/api\/reminders(\/|$)/, service: 'reminders' },
  { pattern: /^\/api\/profile$/, service: 'identity' },
  // Administrators' messages: everyone reads them, so everyone's reads wait for the latest change.
  { pattern: /^\/api\/admin\/comments(\/|$)/, service: 'identity', shared: 'admin-comments' },
  { pattern: /^\/api\/contact-admin$/, service: 'identity' },
  { pattern: /^\/api\/user\/account-info$/, service: 'identity' },
  { pattern: /^\/api\/notifications\/settings$/, service: 'identity' },
  // The private calendar feed: the secret in the path is the credential, calendar apps have no session.
  { pattern: /^\/api\/calendar\/[^/]+\.ics$/, methods: ['GET', 'HEAD'], service: 'reminders', public: true },
];

export interface ApiRoute {
  pattern: RegExp;
  /** Only these methods (the same path can belong to two services: reads to activity, writes to projects). */
  methods?: string[];
  service: ServiceName;
  /** Answered without a session. */
  public?: boolean;
  /**
   * Writes here change what every user reads here: each write's position is kept for everyone
   * (`SharedPositions`), and every read waits for it, as for the reader's own writes.
   */
  shared?: string;
}

export function routeFor(method: string, url: string): ApiRoute | undefined {
  const path = url.split('?')[0]!;
  return apiRoutes.find((r) => r.pattern.test(path) && (!r.methods || r.methods.includes(method)));
}

export function callerFor(user: SessionUser | undefined): Caller {
  return {
    userId: user?.id ?? null,
    username: user?.username ?? null,
    isAdmin: user?.isAdmin ?? false,
    correlationId: randomUUID(),
  };
}

/** Request headers passed on to services; everything else (cookies, any identity header) stays here. */
const forwardedRequestHeaders = [
  'content-type',
  'content-length',
  'accept',
  'accept-language',
  'user-agent',
  'stripe-signature',
];
const droppedResponseHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', POSITION_HEADER]);

/**
 * Passes one call on to the service that owns it and streams the answer back: undici writes the
 * service's answer straight into our response. `onPosition` sees the position a write reports, before
 * the status and headers are copied.
 */
export async function forward(
  services: ServiceClients,
  route: ApiRoute,
  req: IncomingMessage,
  res: ServerResponse,
  caller: Caller,
  after: string | undefined,
  onPosition?: (header: string | string[] | undefined) => void,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name of forwardedRequestHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  Object.assign(headers, services.internalHeaders(caller, after));
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  await services
    .pool(route.service)
    .stream(
      {
        method: method as 'GET',
        path: url.replace(/^\/api/, ''),
        headers,
        body: hasBody ? req : null,
      },
      ({ statusCode, headers: upstreamHeaders }) => {
        onPosition?.(upstreamHeaders[POSITION_HEADER]);
        res.statusCode = statusCode;
        for (const [name, value] of Object.entries(upstreamHeaders)) {
          if (value !== undefined && !droppedResponseHeaders.has(name)) res.setHeader(name, value);
        }
        return res;
      },
    )
    .catch((error: unknown) => {
      if (res.headersSent) throw error;
      throw unavailable(route.service, error);
    });
}

/**
 * Reads the session express-session keeps: the same signed cookie, the same Redis key and JSON. It
 * never writes: only the Express pipeline changes sessions.
 *
 * `redis` is a connection with server-assisted client-side caching (RESP3 tracking) whose cache is
 * `cache` (see server.ts): a session changes only at sign-in and sign-out, so nearly every read is
 * answered from the users the cache holds, and Redis tells every gateway replica the moment a session
 * it holds is changed, ended or expires. The read-your-writes positions are not in the session; they
 * come with the request (`PositionCookies`).
 */
export class SessionReader {
  readonly #redis: RedisClientType;
  readonly #cache: SessionCache;
  readonly #prefix: string;
  readonly #cookieName: string;
  readonly #signed: SignedValues;
  readonly #positions: PositionCookies;

  constructor(options: {
    redis: RedisClientType;
    cache: SessionCache;
    prefix: string;
    cookieName: string;
    secret: string;
    positions: PositionCookies;
  }) {
    this.#redis = options.redis;
    this.#cache = options.cache;
    this.#prefix = options.prefix;
    this.#cookieName = options.cookieName;
    this.#signed = new SignedValues(options.secret);
    this.#positions = options.positions;
  }

  /** The signed-in user (or null) and the positions of their own last writes. */
  async read(cookieHeader: string | undefined): Promise<{ user: SessionUser | null; after: string | undefined }> {
    if (!cookieHeader) return { user: null, after: undefined };
    const cookies = cookie.parse(cookieHeader);
    return { user: await this.#user(cookies[this.#cookieName]), after: this.#positions.after(cookies) };
  }

  async #user(raw: string | undefined): Promise<SessionUser | null> {
    // express-session's cookie value: `s:` and the signed session id.
    const sid = raw?.startsWith('s:') ? this.#signed.open(raw.slice(2)) : undefined;
    if (sid === undefined) return null;
    const held = this.#cache.user(sid);
    if (held !== undefined) return held;
    const generation = this.#cache.generation;
    const stored = await this.#redis.get(`${this.#prefix}${sid}`);
    const user = stored ? ((JSON.parse(stored) as { user?: SessionUser }).user ?? null) : null;
    this.#cache.remember(sid, user, generation);
    return user;
  }
}

/**
 * Read-your-writes for writes whose effect every user reads (an administrator's message): the latest
 * such write's position, per route, in Redis. One connection for both sides, so a read that arrives
 * after a write's answer is queued behind that write's SET.
 */
export class SharedPositions {
  readonly #redis: RedisClientType;
  readonly #prefix: string;

  constructor(redis: RedisClientType, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async after(name: string): Promise<string | null> {
    return this.#redis.get(`${this.#prefix}shared-position:${name}`);
  }

  async record(name: string, reported: string | string[] | undefined): Promise<void> {
    if (typeof reported !== 'string' || !/^[a-z]+=\d{1,20}\/\d{1,20}$/.test(reported)) return;
    await this.#redis.set(`${this.#prefix}shared-position:${name}`, reported);
  }
}

/** The request's scheme as Express computes `req.protocol`: X-Forwarded-Proto only from a trusted proxy. */
export function requestProtocol(req: IncomingMessage, trustProxy: TrustProxy): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trustProxy(req.socket.remoteAddress ?? '', 0)) return own;
  const header = req.headers['x-forwarded-proto'];
  const value = (typeof header === 'string' ? header : own).split(',')[0]!.trim();
  return value || own;
}

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * State-changing requests must come from our own pages. Browsers send Origin on cross-site POSTs
 * (and Sec-Fetch-Site); either naming another site is refused. Calls without them (curl, servers)
 * carry no ambient cookie risk from a browser and pass.
 */
export function foreignOrigin(req: IncomingMessage, protocol: string, configuredOrigin: string | null): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false;
  const origin = req.headers.origin;
  const own = `${protocol}://${req.headers.host}`;
  const foreign = origin !== undefined && origin !== own && origin !== configuredOrigin;
  return foreign || req.headers['sec-fetch-site'] === 'cross-site';
}

export const foreignOriginError = () =>
  new ForbiddenError('Requests from other sites are not allowed', 'FOREIGN_ORIGIN');

/**
 * The gateway's hot path: a call to a service-owned path goes from Node's HTTP server straight to the
 * owning service, without Express and express-session. Forwarded calls never change the session (it
 * holds only who the user is; a write's position goes back in its own cookie, positions.ts), so
 * reading it is all they need. A write keeps the rules the Express pipeline applies to writes: the
 * Origin check, and the position cookie (Secure over HTTPS, as Express sees the scheme). Answers
 * whether it took the request; the gateway's own calls (sign-in, sign-out, the user, GraphQL) and the
 * web app go to the Express pipeline.
 */
export function servicePath(options: {
  services: ServiceClients;
  sessions: SessionReader;
  positions: PositionCookies;
  shared: SharedPositions;
  logger: Logger;
  trustProxy: TrustProxy;
  /** APP_URL's origin, also accepted as a write's Origin. */
  appOrigin: string | null;
  spans?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { services, sessions, positions, shared, logger, trustProxy, appOrigin, spans } = options;
  const answer = async (req: IncomingMessage, res: ServerResponse, route: ApiRoute) => {
    try {
      const reading = req.method === 'GET' || req.method === 'HEAD';
      // A write: the Origin check, and its position back to the client as a cookie.
      let onPosition: ((header: string | string[] | undefined) => void) | undefined;
      let reported: string | string[] | undefined;
      if (!reading) {
        const protocol = requestProtocol(req, trustProxy);
        if (foreignOrigin(req, protocol, appOrigin)) throw foreignOriginError();
        onPosition = (header) => {
          reported = header;
          const setCookie = positions.setCookie(header, protocol === 'https');
          if (setCookie) res.appendHeader('Set-Cookie', setCookie);
        };
      }
      const session = await sessions.read(req.headers.cookie);
      const { user } = session;
      if (!user && !route.public) throw new UnauthorizedError();
      let { after } = session;
      if (route.shared && reading) {
        const latest = await shared.after(route.shared);
        if (latest) after = after ? `${after},${latest}` : latest;
      }
      await forward(services, route, req, res, callerFor(user ?? undefined), after, onPosition);
      if (route.shared && !reading) await shared.record(route.shared, reported);
    } catch (error) {
      sendError(req, res, error, logger);
    }
  };
  return (req, res) => {
    if (!req.url?.startsWith('/api/')) return false;
    const route = routeFor(req.method ?? 'GET', req.url);
    if (!route) return false;
    if (spans) spans(req, res, () => void answer(req, res, route));
    else void answer(req, res, route);
    return true;
  };
}
