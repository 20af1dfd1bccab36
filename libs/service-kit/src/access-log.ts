import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { Logger } from './logger.ts';

/** A path whose segment is itself a credential (the private calendar feed's token) is logged without it. */
export function loggedUrl(url: string): string {
  return url.replace(/\/calendar\/[^/?]+/, '/calendar/[redacted]');
}

/** Each request at debug level (5xx at error) once answered. Works on Node's own request too. */
export function accessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'debug';
      logger[level](
        {
          method: req.method,
          url: loggedUrl((req as Partial<Request>).originalUrl ?? req.url ?? ''),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
