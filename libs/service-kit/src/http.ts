import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { NotFoundError } from '@shiplog/errors';
import type { ConsumerView } from '@shiplog/messaging';
import { SpanKind, SpanStatusCode, startSpan, type Tracing, withSpan } from '@shiplog/telemetry';
import type { Metrics } from '@shiplog/telemetry/metrics';
import express, { type Express, type Request } from 'express';
import { accessLog, answerIn, declareSecretPaths, loggedUrl, pathTemplate } from './access-log.ts';
import { identify, internalAuth, internalTokenRequired, tokenNotAccepted } from './caller.ts';
import { errorHandler, sendError } from './error-body.ts';
import { healthRoutes, type MetricsAccess, metricsRoute, type ReadinessChecks } from './health.ts';
import { type Caller, CORRELATION_HEADER, INTERNAL_TOKEN_HEADER } from './internal-token.ts';
import type { Logger } from './logger.ts';
import { CONSISTENCY_HEADER, consistency, positionsBehind, waitFor } from './read-your-writes.ts';

/**
 * A read answered straight from Node's HTTP server, without Express: `GET` (or `HEAD`) of one exact
 * path, answering JSON text. It keeps every rule of the Express routes: the gateway's signed caller,
 * the read-your-writes wait, the error body, the request span and the access log. Meant for the few
 * reads that carry a service's load (docs/decisions/011-lean-service-reads.md).
 */
export interface LeanRead {
  read: (caller: Caller, query: URLSearchParams) => Promise<string>;
  /** A personal API token may call it (as `apiTokenAccepted` says of an Express route). */
  apiToken?: boolean;
}

export interface HttpAppOptions {
  logger: Logger;
  internalTokenSecret: string;
  /** Named readiness checks; `/readyz` answers 200 only when all pass. */
  readiness: ReadinessChecks;
  /** This service's consumers, for read-your-writes waits. */
  consumers?: ConsumerView[];
  routes: (router: express.Router) => void;
  /** Reads answered without Express, by exact path (`LeanRead`). */
  reads?: Record<string, LeanRead>;
  /** Exact paths whose body reaches the route as the bytes sent (a Buffer), unparsed: signed webhooks. */
  rawBodyPaths?: string[];
  /** Each request becomes a span, child of the caller's `traceparent` (see @shiplog/telemetry). */
  tracing?: Tracing;
  /** Each request counted and timed by route template, and `/metrics` served to whom `access` allows. */
  metrics?: { metrics: Metrics; access: MetricsAccess };
}

/** One route a service answers: its method and its Express path (`/projects/:id`). */
export interface DeclaredRoute {
  method: string;
  path: string;
}

export interface HttpApp {
  /** The service's request handler: its lean reads first, then the Express app for everything else. */
  listener: RequestListener;
  /** Every route it answers, read off the router it built: what tests generate their matrices from. */
  routes: DeclaredRoute[];
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  // Each route answers its one path as written: not in another case, not with a trailing slash. The
  // gateway forwards only canonical paths; a variant that got past it would otherwise reach a route
  // whose rules it skipped (`/projects/:id/DEPLOY-HOOK/` under the rules of `/projects/…`).
  const router = express.Router({ caseSensitive: true, strict: true });
  options.routes(router);
  const app = createExpressApp(options, router);
  const routes = [
    ...Object.keys(options.reads ?? {}).map((path) => ({ method: 'GET', path })),
    ...declaredRoutes(router),
  ];
  declareSecretPaths(routes.map((route) => route.path));
  if (!options.reads || Object.keys(options.reads).length === 0) return { listener: app, routes };
  const reads = leanReads(options, new Map(Object.entries(options.reads)));
  return {
    listener: (req, res) => {
      if (!reads(req, res)) app(req, res);
    },
    routes,
  };
}

/** The router's routes (its `router.get(…)` and the like), in the order they were declared. */
function declaredRoutes(router: express.Router): DeclaredRoute[] {
  const stack = (router as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] })
    .stack;
  return stack.flatMap(({ route }) =>
    route
      ? Object.keys(route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method: method.toUpperCase(), path: route.path }))
      : [],
  );
}

function createExpressApp(options: HttpAppOptions, router: express.Router): Express {
  const { logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  // Without metrics to read, nobody reads what failed (`healthRoutes`).
  healthRoutes(app, options.readiness, { access: options.metrics?.access ?? { production: true } });
  if (options.metrics) metricsRoute(app, options.metrics.metrics, options.metrics.access);

  if (options.tracing?.enabled) app.use(requestSpans(options.tracing, { trustParent: true }));
  app.use(accessLog(logger, { metrics: options.metrics?.metrics }));
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
  // The gateway's live feed asks before it tells a browser that something changed: answered once this
  // service's read models hold the positions in `x-shiplog-after` (the step above waited for them).
  app.get('/caught-up', (_req, res) => {
    res.status(204).end();
  });
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
  // A lean read's route is its exact path (the map's key).
  const log = accessLog(logger, { metrics: options.metrics?.metrics, routeOf: (req) => req.url?.split('?')[0] });
  const answer = async (req: IncomingMessage, res: ServerResponse, read: LeanRead, query: string) => {
    try {
      const caller = identify(internalTokenSecret, req.headers[INTERNAL_TOKEN_HEADER], req.headers[CORRELATION_HEADER]);
      if (!caller) throw internalTokenRequired();
      if (caller.apiToken && !read.apiToken) throw tokenNotAccepted();
      const behind = positionsBehind(consumers, req.headers[CONSISTENCY_HEADER]);
      if (behind) await waitFor(behind, logger);
      const body = await read.read(caller, new URLSearchParams(query));
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
 * Each request a span, named by its route template (`GET /projects/:id`, OpenTelemetry's
 * `http.route`), never by the raw path: a path can hold a credential (a deploy webhook's secret) or a
 * user's data. `routeOf` names the route when the caller knows it before Express does (the gateway's
 * route table); else Express's matched route, else the path with its values and credentials blanked
 * (`pathTemplate`). `trustParent`: continue the caller's `traceparent` (the gateway's, inside the
 * system); the gateway itself starts every trace, whatever a browser sends. Works on Node's own request
 * and response too (the gateway's forwarding path runs without Express).
 */
export function requestSpans(
  tracing: Tracing,
  options: { trustParent: boolean; routeOf?: (req: IncomingMessage) => string | undefined },
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const path = ((req as Partial<Request>).originalUrl ?? req.url ?? '/').split('?')[0]!;
    const traceparent = req.headers.traceparent;
    const parent = options.trustParent && typeof traceparent === 'string' ? traceparent : undefined;
    const method = req.method ?? 'GET';
    const span = startSpan(
      tracing,
      `${method} ${options.routeOf?.(req) ?? pathTemplate(path)}`,
      SpanKind.SERVER,
      parent,
      {
        'http.request.method': method,
        'url.path': loggedUrl(path),
      },
    );
    answerIn(res, span);
    res.once('finish', () => {
      const route = options.routeOf?.(req) ?? expressRoute(req as Partial<Request>) ?? pathTemplate(path);
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    withSpan(span, next);
  };
}

/** The template of the route Express matched (`/projects/:id`), with the routers' mount paths. */
function expressRoute(req: Partial<Request>): string | undefined {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}
