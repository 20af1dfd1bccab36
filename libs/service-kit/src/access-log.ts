import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '@shiplog/telemetry/metrics';
import type { Request } from 'express';
import type { Logger } from './logger.ts';

/**
 * Paths whose segment is itself a credential: the private calendar feed's token and a project's
 * deploy webhook secret. Wherever a path is written down (access and error logs, spans) it is
 * written without them.
 */
const credentialSegments = [/(\/calendar\/)[^/?#]+/g, /(\/hooks\/deploy\/)[^/?#]+/g];

export function loggedUrl(url: string): string {
  return credentialSegments.reduce((out, pattern) => out.replace(pattern, '$1[redacted]'), url);
}

/**
 * A path as a template, for span names when no route template is known: credentials redacted, and
 * every segment that is a value rather than a name (an id, a number, a token, a user's name under
 * `/users/`) as `:value`, so a span name never carries a user's data.
 */
export function pathTemplate(path: string): string {
  const segments = loggedUrl(path.split('?')[0]!).split('/');
  return segments
    .map((segment, i) =>
      segment === '[redacted]' ||
      /^[0-9a-f]{8}-[0-9a-f]{4}-|^\d+$|^[A-Za-z0-9_-]{20,}$/i.test(segment) ||
      (segments[i - 1] === 'users' && segment !== 'summary' && segment !== '')
        ? ':value'
        : segment,
    )
    .join('/');
}

/** A request's route template as Express matched it (`/projects/:id` under its router's base), if any. */
function expressRoute(req: IncomingMessage): string | undefined {
  const { route, baseUrl } = req as Partial<Request>;
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : undefined;
}

/**
 * Each request at info level (5xx at error) once answered: a production log has its request lines.
 * With `metrics`, each is also counted and timed by its route template: `routeOf`'s when given (the
 * gateway's route table; a lean read's exact path), else Express's matched route, else `unmatched`.
 * Works on Node's own request too.
 */
export function accessLog(
  logger: Logger,
  options: { metrics?: Metrics; routeOf?: (req: IncomingMessage) => string | undefined } = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const { metrics, routeOf } = options;
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      logger[level](
        {
          method: req.method,
          url: loggedUrl((req as Partial<Request>).originalUrl ?? req.url ?? ''),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
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
