import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Span, withSpan } from '@shiplog/telemetry';
import type { Metrics } from '@shiplog/telemetry/metrics';
import { declareSecretPaths, loggedUrl, pathTemplate } from '@shiplog/telemetry/redaction';

export { declareSecretPaths, loggedUrl, pathTemplate };

import type { Request } from 'express';
import type { Logger } from './logger.ts';

/** A request's route template as Express matched it (`/projects/:id` under its router's base), if any. */
function expressRoute(req: IncomingMessage): string | undefined {
  const { route, baseUrl } = req as Partial<Request>;
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : undefined;
}

/** An answer that took this long is logged at warn level: a log kept at `warn` still shows it. */
const SLOW_ANSWER_MS = 5000;

/**
 * Each request at info level (5xx at error, a slow one at warn) once answered: a production log has its request lines.
 * With `metrics`, each is also counted and timed by its route template: `routeOf`'s when given (the
 * gateway's route table; a lean read's exact path), else Express's matched route, else `unmatched`.
 * Works on Node's own request too.
 */
/** The span each request is answered in (`requestSpans`): its line is written inside it, with its ids. */
const spanOfAnswer = new WeakMap<ServerResponse, Span>();
export const answerIn = (res: ServerResponse, span: Span) => spanOfAnswer.set(res, span);

export function accessLog(
  logger: Logger,
  options: { metrics?: Metrics; routeOf?: (req: IncomingMessage) => string | undefined } = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const { metrics, routeOf } = options;
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : ms >= SLOW_ANSWER_MS ? 'warn' : 'info';
      // Below the log's level the line is not made at all: it costs a busy read path a few per cent.
      if (logger.isLevelEnabled(level)) {
        const line = {
          method: req.method,
          url: loggedUrl((req as Partial<Request>).originalUrl ?? req.url ?? ''),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        };
        const span = spanOfAnswer.get(res);
        if (span) withSpan(span, () => logger[level](line, 'request'));
        else logger[level](line, 'request');
      }
      metrics?.request(
        req.method ?? 'GET',
        routeOf?.(req) ?? expressRoute(req) ?? 'unmatched',
        res.statusCode,
        ms / 1000,
      );
    });
    next();
  };
}
