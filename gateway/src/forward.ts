import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UnauthorizedError } from '@shiplog/errors';
import {
  type Caller,
  type Logger,
  POSITION_HEADER,
  type ServiceClients,
  type ServiceName,
  sendError,
  unavailable,
} from '@shiplog/service-kit';
import { foreignOrigin, foreignOriginError, requestProtocol, type TrustProxy } from './origin.ts';
import type { PositionCookies } from './positions.ts';
import type { SessionUser } from './session-cache.ts';
import type { SessionReader } from './sessions.ts';
import type { SharedPositions } from './shared-positions.ts';

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
