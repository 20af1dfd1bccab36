import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { UnauthorizedError } from '@shiplog/errors';
import {
  adminRequired,
  CALL_TIMEOUT_MS,
  type Caller,
  type Logger,
  POSITION_HEADER,
  reauthRequired,
  refuseTokenWrite,
  type ServiceClients,
  sendError,
  type TokenGrant,
  tokenNotAccepted,
  unavailable,
} from '@shiplog/service-kit';
import { currentTraceparent } from '@shiplog/telemetry';
import type { PublicHolds } from '../actions/public-holds.ts';
import { isServiceRoute, routeOf, type ServiceRoute } from '../routes.ts';
import { POSITIONS_HEADER, type PositionCookies } from '../session/positions.ts';
import { callerFor, type SessionUser } from '../session/session-cache.ts';
import { isRecentAuth, type SessionReader } from '../session/sessions.ts';
import type { SharedPositions } from '../session/shared-positions.ts';
import { grantOf, type TokenCache, type VerifiedToken } from '../session/token-cache.ts';
import type { Limits } from './limits.ts';
import { foreignOrigin, foreignOriginError, requestProtocol, type TrustProxy } from './origin.ts';

/** Request headers passed on to services; everything else (cookies, any identity header) stays here. */
const forwardedRequestHeaders = [
  'content-type',
  'content-length',
  'accept',
  'accept-language',
  'user-agent',
  // Signed deliveries: Stripe's signature; GitHub's signature, event name and delivery id.
  'stripe-signature',
  'x-hub-signature-256',
  'x-github-event',
  'x-github-delivery',
  // A create's retry key (service-kit's createdId).
  'idempotency-key',
];
const droppedResponseHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', POSITION_HEADER]);

/**
 * Passes one call on to the service that owns it and streams the answer back: undici writes the
 * service's answer straight into our response. `onPosition` sees the position a write reports, before
 * the status and headers are copied.
 */
export async function forward(
  services: ServiceClients,
  route: ServiceRoute,
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
  // A request whose connection closed before its end was read has nobody left to answer: the client
  // went away, or what it sent next on the connection could not be read, which is answered 400 and
  // closes it. Node then destroys the request without ever ending it, and its body, piped on, would
  // keep the call open, waiting for the rest, and a stop waiting for the call.
  if (hasBody && req.destroyed && !req.readableEnded) return;
  const inProcess = services.inProcess(route.service);
  if (inProcess) {
    try {
      return await forwardInProcess(inProcess, req, res, headers, url, onPosition);
    } finally {
      // What the service left unread is read and dropped, as below.
      if (hasBody && !req.complete) req.resume();
    }
  }
  const pool = await services.pool(route.service);
  const timeout = route.timeoutMs ?? CALL_TIMEOUT_MS;
  // Through a pipe: undici destroys a body it stops sending, and the client's request must outlive
  // that (its rest is drained below) for the connection to stay usable. A request cut off while its
  // body is on its way cuts the call's body off too, for the same reason as above.
  const body = hasBody ? req.pipe(new PassThrough()) : null;
  if (body)
    req.once('close', () => {
      if (!req.readableEnded) body.destroy(new Error('the request was cut off before its end'));
    });
  try {
    // What fails after the answer began (the client went away mid-stream), or because the client
    // went away before it, is not the service's failure: it comes out of the breaker as a value. A
    // burst of callers giving up (a load balancer's timeout, closed tabs) would otherwise open the
    // breaker and turn everyone away from a healthy service.
    const late = await services.guarded(route.service, () =>
      pool
        .stream(
          {
            headersTimeout: timeout,
            bodyTimeout: timeout,
            method: method as 'GET',
            path: url.replace(/^\/api/, ''),
            headers,
            body,
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
        .then(
          () => undefined,
          (error: unknown) => {
            if (!res.headersSent && !res.destroyed) throw error;
            return { error };
          },
        ),
    );
    // Nobody is left to answer.
    if (late && res.destroyed && !res.headersSent) return;
    if (late) throw late.error;
  } catch (error) {
    if (res.headersSent) throw error;
    throw unavailable(route.service, error);
  } finally {
    // A service may answer before reading the whole body (a type it does not take): what is left
    // is read and dropped, or it would stall the connection's next request behind it.
    if (hasBody && !req.complete) {
      req.unpipe();
      req.resume();
    }
  }
}

/**
 * A call to a service in this process (the one-process mode): its request handler answers the
 * client's own request and response, with what a forwarded call carries and nothing else (the path
 * without `/api`, the headers above, the signed caller), so nothing is written to a socket and parsed
 * back on either side. The position the service reports is taken out of its answer as `forward` takes
 * it; `originalUrl` keeps the path as the client asked it, for the gateway's access log and the
 * service's. A service in this process is never out of reach, so no breaker or timeout stands between.
 */
function forwardInProcess(
  listener: RequestListener,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
  url: string,
  onPosition: ((header: string | string[] | undefined) => void) | undefined,
): Promise<void> {
  // A body sent in chunks has no length: its framing says there is one.
  const framing = req.headers['transfer-encoding'];
  if (typeof framing === 'string') headers['transfer-encoding'] = framing;
  const traceparent = currentTraceparent();
  if (traceparent) headers.traceparent = traceparent;
  (req as { originalUrl?: string }).originalUrl = url;
  req.url = url.replace(/^\/api/, '');
  req.headers = headers;
  const { writeHead } = res;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    res.writeHead = writeHead;
    const given = args.find((arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && !Array.isArray(arg));
    const position = given?.[POSITION_HEADER] ?? res.getHeader(POSITION_HEADER);
    if (given) delete given[POSITION_HEADER];
    res.removeHeader(POSITION_HEADER);
    onPosition?.(position as string | string[] | undefined);
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  return new Promise<void>((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
    listener(req, res);
  });
}

/**
 * The token of an `Authorization: Bearer <token>` header; undefined without one. Other schemes are
 * not ours (a proxy's Basic sign-in in front of the app) and are left alone.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || !/^bearer\b/i.test(header)) return undefined;
  const match = /^bearer +(\S+) *$/i.exec(header);
  if (!match) throw new UnauthorizedError('Authorization must be "Bearer <token>"', 'INVALID_API_TOKEN');
  return match[1];
}

/** Whose a personal API token is: as identity last said, while the cache holds it (token-cache.ts), else asked. */
export async function verifyToken(services: ServiceClients, tokens: TokenCache, token: string): Promise<VerifiedToken> {
  const held = tokens.get(token);
  if (held) return held;
  const generation = tokens.generation;
  const answer = await services.call<VerifiedToken | { message: string; code: string }>('identity', {
    method: 'POST',
    path: '/tokens/verify',
    body: { token },
    caller: callerFor(undefined),
  });
  if (answer.status === 200) {
    const verified = answer.body as VerifiedToken;
    tokens.remember(token, verified, generation);
    return verified;
  }
  if (answer.status === 401)
    throw new UnauthorizedError(
      (answer.body as { message?: string }).message ?? 'Invalid or revoked API token',
      'INVALID_API_TOKEN',
    );
  throw unavailable('identity', new Error(`token check answered ${answer.status}`));
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
  limits: Limits;
  /** API tokens identity has verified lately. */
  tokens: TokenCache;
  /** Public pages held by the gateways: a write on a `publicPages` route drops its user's. */
  holds: PublicHolds;
  /** APP_URL's origin, also accepted as a write's Origin. */
  appOrigin: string | null;
  spans?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { services, sessions, positions, shared, logger, trustProxy, limits, tokens, holds, appOrigin, spans } =
    options;
  const answer = async (req: IncomingMessage, res: ServerResponse, route: ServiceRoute) => {
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
          const { setCookies, header: signed } = positions.answer(header, protocol === 'https');
          for (const setCookie of setCookies) res.appendHeader('Set-Cookie', setCookie);
          if (signed) res.setHeader(POSITIONS_HEADER, signed);
        };
      }
      // A personal API token stands for the session on the routes that take one. Its
      // client keeps no cookies, so its writes' positions are kept by token, for its later reads.
      const token = bearerToken(req.headers.authorization);
      let user: SessionUser | null;
      let after: string | undefined;
      let ownWrites: string | undefined;
      let authAt = 0;
      let grant: TokenGrant | undefined;
      if (token !== undefined) {
        if (!route.token) throw tokenNotAccepted();
        const verified = await verifyToken(services, tokens, token);
        grant = grantOf(verified);
        refuseTokenWrite({ apiToken: grant }, req.method);
        user = verified.user;
        ownWrites = `api-token-${verified.tokenId}`;
        after = (await shared.after(ownWrites)) ?? undefined;
        if (!reading)
          onPosition = (header) => {
            reported = header;
          };
      } else {
        ({ user, after, authAt } = await sessions.read(req.headers.cookie, req.headers[POSITIONS_HEADER]));
        // A change made with the session may end one of the user's API tokens (a revocation): their
        // cached tokens are forgotten before its answer leaves, so the token's next call is checked.
        if (!reading && user) {
          const { id } = user;
          const report = onPosition;
          onPosition = (header) => {
            tokens.forgetUser(id);
            report?.(header);
          };
        }
      }
      if (!user && !route.public) throw new UnauthorizedError();
      if (route.admin && !user?.isAdmin) throw adminRequired();
      if (route.recentAuth && !isRecentAuth(authAt)) throw reauthRequired();
      if (route.limit) await limits.take(route.limit, { userId: user?.id, req }, res);
      if (route.shared && reading) {
        const latest = await shared.after(route.shared);
        if (latest) after = after ? `${after},${latest}` : latest;
      }
      // What the gateway saw, signed for the service to check again: a token's call, a recent password.
      const caller = {
        ...callerFor(user ?? undefined),
        ...(grant ? { apiToken: grant } : {}),
        recentAuth: token === undefined && user !== null && isRecentAuth(authAt),
        // Where a change came from, for a team workspace's audit log.
        ...(reading ? {} : { address: limits.addressOf(req) }),
      };
      // What a write here makes private is served to nobody once it is answered: from no gateway's
      // hold, nor from a read model behind it (public-holds.ts).
      if (route.publicPages && !reading && user) {
        await holds.changing(user, route.timeoutMs ?? CALL_TIMEOUT_MS);
        const { username } = user;
        const report = onPosition;
        onPosition = (header) => {
          holds.written(username, header);
          report?.(header);
        };
      }
      await forward(services, route, req, res, caller, after, onPosition);
      if (route.shared && !reading) await shared.record(route.shared, reported);
      // A token's last write matters to its next reads for seconds, not for ever: kept an hour.
      if (ownWrites && !reading) await shared.record(ownWrites, reported, 3600);
    } catch (error) {
      sendError(req, res, error, logger);
    }
  };
  return (req, res) => {
    if (!req.url?.startsWith('/api/')) return false;
    const route = routeOf(req);
    if (!route || !isServiceRoute(route)) return false;
    if (spans) spans(req, res, () => void answer(req, res, route));
    else void answer(req, res, route);
    return true;
  };
}
