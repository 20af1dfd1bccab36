import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '@shiplog/errors';
import { comparePositions, formatPosition, type Position, parsePosition } from '@shiplog/events';
import type { Consumer } from '@shiplog/messaging';
import { SpanKind, SpanStatusCode, startSpan, type Tracing, withSpan } from '@shiplog/telemetry';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { type Caller, CORRELATION_HEADER, INTERNAL_TOKEN_HEADER, verifyInternalToken } from './internal-token.ts';
import type { Logger } from './logger.ts';

/** Read-your-writes: the gateway sends the positions of the user's own last writes, per source. */
export const CONSISTENCY_HEADER = 'x-shiplog-after';
/** Services answer a write with the position it reached: `<source>=<commit>/<prepare>`. */
export const POSITION_HEADER = 'x-shiplog-position';

const callers = new WeakMap<Request, Caller>();

export function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw new UnauthorizedError('Missing internal token', 'INTERNAL_TOKEN_REQUIRED');
  return caller;
}

/** The signed-in user's id, or 401. */
export function requireUserId(req: Request): string {
  return signedInUserId(callerOf(req));
}

/**
 * An administrator's request: 401 signed out, 403 for anyone else. Decided here, in the service, from
 * the gateway's signed caller (never from anything the client sends).
 */
export function requireAdmin(req: Request): Caller & { userId: string } {
  const caller = callerOf(req);
  const userId = signedInUserId(caller);
  if (!caller.isAdmin) throw new ForbiddenError('Only administrators can do this', 'ADMIN_REQUIRED');
  return { ...caller, userId };
}

/** The caller's user id, or 401 (a call the gateway made without a session). */
export function signedInUserId(caller: Caller): string {
  if (!caller.userId) throw new UnauthorizedError();
  return caller.userId;
}

export function reportPosition(res: Response, source: string, position: Position): void {
  res.setHeader(POSITION_HEADER, `${source}=${formatPosition(position)}`);
}

/** `<source>=<position>,…`; a source named twice (the user's own write and a shared one) keeps the later. */
export function parsePositions(header: string | undefined): Map<string, Position> {
  const out = new Map<string, Position>();
  for (const part of (header ?? '').split(',')) {
    const [source, text] = part.trim().split('=');
    const position = text ? parsePosition(text) : null;
    if (!source || !position) continue;
    const held = out.get(source);
    if (!held || comparePositions(position, held) > 0) out.set(source, position);
  }
  return out;
}

/**
 * A read answered straight from Node's HTTP server, without Express: `GET` (or `HEAD`) of one exact
 * path, answering JSON text. It keeps every rule of the Express routes: the gateway's signed caller,
 * the read-your-writes wait, the error body, the request span and the access log. Meant for the few
 * reads that carry a service's load (docs/decisions/011-lean-service-reads.md).
 */
export type LeanRead = (caller: Caller, query: URLSearchParams) => Promise<string>;

export interface HttpAppOptions {
  logger: Logger;
  internalTokenSecret: string;
  /** Named readiness checks; `/readyz` answers 200 only when all pass. */
  readiness: Record<string, () => Promise<unknown>>;
  /** This service's consumers, for read-your-writes waits. */
  consumers?: Consumer[];
  routes: (router: express.Router) => void;
  /** Reads answered without Express, by exact path (`LeanRead`). */
  reads?: Record<string, LeanRead>;
  /** Exact paths whose body reaches the route as the bytes sent (a Buffer), unparsed: signed webhooks. */
  rawBodyPaths?: string[];
  /** Each request becomes a span, child of the caller's `traceparent` (see @shiplog/telemetry). */
  tracing?: Tracing;
}

/** The service's request handler: its lean reads first, then the Express app for everything else. */
export function createHttpApp(options: HttpAppOptions): RequestListener {
  const app = createExpressApp(options);
  if (!options.reads || Object.keys(options.reads).length === 0) return app;
  const reads = leanReads(options, new Map(Object.entries(options.reads)));
  return (req, res) => {
    if (!reads(req, res)) app(req, res);
  };
}

function createExpressApp(options: HttpAppOptions): Express {
  const { logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runChecks(options.readiness);
    res.status(Object.values(checks).every((c) => c === 'ok') ? 200 : 503).json({ checks });
  });

  if (options.tracing?.enabled) app.use(requestSpans(options.tracing, { trustParent: true }));
  app.use(accessLog(logger));
  app.use(internalAuth(options.internalTokenSecret));
  const raw = new Set(options.rawBodyPaths ?? []);
  // A signed body must reach its check byte for byte: no JSON parser runs on those paths.
  if (raw.size > 0) app.use([...raw], express.raw({ type: () => true, limit: '1mb' }));
  app.use(
    express.json({
      limit: '1mb',
      type: (req) => !raw.has((req as Request).path) && Boolean((req as Request).is('application/json')),
    }),
  );
  app.use(consistency(options.consumers ?? [], logger));
  const router = express.Router();
  options.routes(router);
  app.use(router);
  app.use((_req, _res, next) => next(new NotFoundError('Not found')));
  app.use(errorHandler(logger));
  return app;
}

/**
 * The lean reads: answers whether it took the request. The same steps as the Express pipeline, in
 * the same order, through the same functions (`identify`, `positionsBehind`, `errorResponse`).
 */
function leanReads(
  options: HttpAppOptions,
  reads: Map<string, LeanRead>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { logger, internalTokenSecret } = options;
  const consumers = options.consumers ?? [];
  const spans = options.tracing?.enabled ? requestSpans(options.tracing, { trustParent: true }) : undefined;
  const log = accessLog(logger);
  const answer = async (req: IncomingMessage, res: ServerResponse, read: LeanRead, query: string) => {
    try {
      const caller = identify(internalTokenSecret, req.headers[INTERNAL_TOKEN_HEADER], req.headers[CORRELATION_HEADER]);
      if (!caller) throw internalTokenRequired();
      const behind = positionsBehind(consumers, req.headers[CONSISTENCY_HEADER]);
      if (behind) await waitFor(behind, logger);
      const body = await read(caller, new URLSearchParams(query));
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      sendError(req, res, error, logger);
    }
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const read = reads.get(mark === -1 ? url : url.slice(0, mark));
    if (!read) return false;
    const run = () => log(req, res, () => void answer(req, res, read, mark === -1 ? '' : url.slice(mark + 1)));
    if (spans) spans(req, res, run);
    else run();
    return true;
  };
}

/**
 * Each request a span. `trustParent`: continue the caller's `traceparent` (the gateway's, inside the
 * system); the gateway itself starts every trace, whatever a browser sends. Works on Node's own request
 * and response too (the gateway's forwarding path runs without Express).
 */
export function requestSpans(
  tracing: Tracing,
  options: { trustParent: boolean },
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const path = ((req as Partial<Request>).originalUrl ?? req.url ?? '/').split('?')[0]!;
    const traceparent = req.headers.traceparent;
    const parent = options.trustParent && typeof traceparent === 'string' ? traceparent : undefined;
    const span = startSpan(tracing, `${req.method} ${path}`, SpanKind.SERVER, parent, {
      'http.request.method': req.method ?? 'GET',
      'url.path': path,
    });
    res.once('finish', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    withSpan(span, next);
  };
}

export async function runChecks(checks: Record<string, () => Promise<unknown>>): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), 2000);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : 'failed'] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Each request at debug level (5xx at error) once answered. Works on Node's own request too. */
function accessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'debug';
      logger[level](
        {
          method: req.method,
          url: (req as Partial<Request>).originalUrl ?? req.url,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}

/** The caller the gateway signed into the request, or null when the token is missing or invalid. */
function identify(
  secret: string,
  token: string | string[] | undefined,
  correlationHeader: string | string[] | undefined,
): Caller | null {
  const identity = verifyInternalToken(secret, typeof token === 'string' ? token : undefined);
  if (!identity) return null;
  const correlationId =
    typeof correlationHeader === 'string' && correlationHeader.length <= 100 ? correlationHeader : randomUUID();
  return { ...identity, correlationId };
}

const internalTokenRequired = () =>
  new UnauthorizedError(
    'This service only answers the gateway (missing or invalid internal token)',
    'INTERNAL_TOKEN_REQUIRED',
  );

function internalAuth(secret: string): RequestHandler {
  return (req, _res, next) => {
    const caller = identify(secret, req.headers[INTERNAL_TOKEN_HEADER], req.headers[CORRELATION_HEADER]);
    if (!caller) {
      next(internalTokenRequired());
      return;
    }
    callers.set(req, caller);
    next();
  };
}

const catchUps = new WeakMap<Request, () => Promise<void>>();

/**
 * Waits until this service's consumers have handled the caller's own earlier writes. Reads do it
 * before their handler; a write that decides from a projection of another service's events (is this
 * the caller's project?) calls it itself.
 */
export async function catchUp(req: Request): Promise<void> {
  await catchUps.get(req)?.();
}

type Behind = { consumer: Consumer; source: string; position: Position }[];

/**
 * The consumers still short of the caller's positions (the `x-shiplog-after` header), or undefined in
 * the usual case: this process has already seen every consumer past the caller's writes.
 */
function positionsBehind(consumers: Consumer[], header: string | string[] | undefined): Behind | undefined {
  if (typeof header !== 'string' || !header || consumers.length === 0) return undefined;
  const wanted = parsePositions(header);
  const behind = consumers.flatMap((consumer) =>
    [...wanted]
      .filter(([source, position]) => consumer.sources.includes(source) && !consumer.hasReached(source, position))
      .map(([source, position]) => ({ consumer, source, position })),
  );
  return behind.length > 0 ? behind : undefined;
}

async function waitFor(behind: Behind, logger: Logger): Promise<void> {
  await Promise.all(
    behind.map(async ({ consumer, source, position }) => {
      const caughtUp = await consumer.waitForPosition(source, position, 2000);
      if (!caughtUp)
        logger.warn({ consumer: consumer.name, source }, 'read-your-writes wait timed out; answering with older data');
    }),
  );
}

function consistency(consumers: Consumer[], logger: Logger): RequestHandler {
  return async (req, _res, next) => {
    const behind = positionsBehind(consumers, req.headers[CONSISTENCY_HEADER]);
    if (!behind) return next();
    const wait = () => waitFor(behind, logger);
    catchUps.set(req, wait);
    // Reads wait here; a write decides from the event store, which is never behind.
    if (req.method === 'GET' || req.method === 'HEAD') await wait();
    next();
  };
}

/** The fixed error body `{ message, code, fieldErrors? }` and status for anything thrown while answering. */
export function errorResponse(
  error: unknown,
  logger: Logger,
  request: { method?: string | undefined; url?: string | undefined },
): { status: number; body: { message: string; code: string; fieldErrors?: unknown } } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: {
        message: error.message,
        code: error.code,
        ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
      },
    };
  }
  const bodyError = error as { type?: string; status?: number };
  if (bodyError.type === 'entity.parse.failed') {
    return { status: 400, body: { message: 'The request body is not valid JSON', code: 'INVALID_JSON' } };
  }
  if (bodyError.type === 'entity.too.large') {
    return { status: 400, body: { message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
  }
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    return { status: 400, body: { message: 'The request could not be read', code: 'BAD_REQUEST' } };
  }
  logger.error({ err: error, method: request.method, url: request.url }, 'unhandled error');
  return {
    status: 500,
    body: { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' },
  };
}

/**
 * `errorResponse` written on Node's own response, for the paths that run without Express. An answer
 * already under way can only be cut off.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, logger: Logger): void {
  if (res.headersSent) {
    res.destroy(error as Error);
    return;
  }
  const { status, body } = errorResponse(error, logger, { method: req.method, url: req.url });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const { status, body } = errorResponse(error, logger, { method: req.method, url: req.originalUrl });
    res.status(status).json(body);
  };
}
