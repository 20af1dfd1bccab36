import { randomUUID } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '@shiplog/errors';
import type { Request, RequestHandler } from 'express';
import { type Caller, CORRELATION_HEADER, INTERNAL_TOKEN_HEADER, verifyInternalToken } from './internal-token.ts';

/** Who is calling: the gateway's signed caller, checked on every request (Express and lean reads alike). */
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

/** The caller the gateway signed into the request, or null when the token is missing or invalid. */
export function identify(
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

export const internalTokenRequired = () =>
  new UnauthorizedError(
    'This service only answers the gateway (missing or invalid internal token)',
    'INTERNAL_TOKEN_REQUIRED',
  );

export function internalAuth(secret: string): RequestHandler {
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
