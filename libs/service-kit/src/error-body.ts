import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@shiplog/errors';
import type { ErrorRequestHandler } from 'express';
import { loggedUrl } from './access-log.ts';
import type { Logger } from './logger.ts';

export const DATABASE_UNAVAILABLE_MESSAGE = 'Shiplog is not available right now. Please try again in a moment.';

/** SQLSTATE classes 08 (connection exception) and 57P (the server shutting down or starting up). */
const UNAVAILABLE_STATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_TEXT =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)|is not currently accepting connections/;

/**
 * A request that failed because PostgreSQL could not be reached (down, restarting, refusing
 * connections, or a connection cut): nothing was wrong with the request, and trying again soon is the
 * answer (503), not "something went wrong" (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || /^(ECONNREFUSED|ECONNRESET|EPIPE)$/.test(code)))
    return true;
  return UNAVAILABLE_TEXT.test(error.message);
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
    return { status: 413, body: { message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
  }
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    return { status: 400, body: { message: 'The request could not be read', code: 'BAD_REQUEST' } };
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, method: request.method, url: loggedUrl(request.url ?? '') }, 'database unavailable');
    return { status: 503, body: { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' } };
  }
  logger.error({ err: error, method: request.method, url: loggedUrl(request.url ?? '') }, 'unhandled error');
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

/**
 * Node's `clientError`: a request its HTTP parser refused (headers too large, a malformed request
 * line, a bad encoding) never reaches a handler. It still gets the fixed error body, not Node's bare
 * status line, and the connection closes once the client has read it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, { message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { message: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' }]
        : [400, { message: 'The request could not be read', code: 'BAD_REQUEST' }];
  const text = JSON.stringify(body);
  // A lingering close: what the client is still sending is read and dropped until it has read the
  // answer and closed; closing with bytes unread would reset the connection before it could.
  socket.on('data', () => undefined);
  const linger = setTimeout(() => socket.destroy(), 5_000).unref();
  socket.once('close', () => clearTimeout(linger));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
