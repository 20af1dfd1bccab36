import { createHash } from 'node:crypto';
import type express from 'express';

/** What the gateway writes itself rather than forwards: bodies browsers may keep. */

/**
 * Sends a body with a strong ETag of its bytes; a request that already holds it (`If-None-Match`) gets
 * a 304 and no body. Only for answers that may be cached (not `no-store`). The condition is evaluated
 * as an origin server must (RFC 9110 §13.1.2), whatever `Cache-Control` the request carries: fetch
 * adds `no-cache` to a request with its own conditional headers, and that must not cost a full answer.
 */
export function sendWithETag(req: express.Request, res: express.Response, body: string): void {
  const cacheControl = String(res.getHeader('Cache-Control') ?? '');
  if (res.statusCode === 200 && !/no-store/.test(cacheControl)) {
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    res.setHeader('ETag', etag);
    if (matches(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
  }
  res.send(body);
}

/** `If-None-Match` against our ETag, by the weak comparison (a `W/` prefix is ignored). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
