import { randomUUID } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '@shiplog/errors';
import type { Request, RequestHandler } from 'express';
import { type Caller, CORRELATION_HEADER, INTERNAL_TOKEN_HEADER, verifyInternalToken } from './internal-token.ts';
import { refuseTokenWrite } from './token-grants.ts';

/** Who is calling: the gateway's signed caller, checked on every request (Express and lean reads alike). */
const callers = new WeakMap<Request, Caller>();
/** Requests on a route that takes a personal API token (`apiTokenAccepted`). */
const tokenRoutes = new WeakSet<Request>();

/**
 * Who is calling. A call a personal API token made is refused here unless its route said it takes one
 * (`apiTokenAccepted`): whatever path the gateway matched, a token reaches only the routes meant for it.
 */
export function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw new UnauthorizedError('Missing internal token', 'INTERNAL_TOKEN_REQUIRED');
  if (caller.apiToken && !tokenRoutes.has(req)) throw tokenNotAccepted();
  return caller;
}

/**
 * A route a personal API token may call (the project and activity routes the CLI uses): a read-only
 * token only reads it (`token-grants.ts`).
 */
export const apiTokenAccepted: RequestHandler = (req, _res, next) => {
  tokenRoutes.add(req);
  try {
    refuseTokenWrite(callerOf(req), req.method);
    next();
  } catch (error) {
    next(error);
  }
};

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
  if (!caller.isAdmin) throw adminRequired();
  return { ...caller, userId };
}

/** An administrators' route, called by anyone else. */
export const adminRequired = () => new ForbiddenError('Only administrators can do this', 'ADMIN_REQUIRED');

/** The caller's user id, or 401 (a call the gateway made without a session). */
export function signedInUserId(caller: Caller): string {
  if (!caller.userId) throw new UnauthorizedError();
  return caller.userId;
}

/** A personal API token on a route that takes none. */
export const tokenNotAccepted = () =>
  new UnauthorizedError(
    'API tokens are accepted on the project and activity routes, /api/user and /api/export only',
    'API_TOKEN_NOT_ACCEPTED',
  );

/** The answer to a sensitive change without a recent password: the app asks for it and tries again. */
export const reauthRequired = () =>
  new ForbiddenError('Please enter your password again to continue.', 'REAUTH_REQUIRED');

/**
 * A change that makes a credential or moves the account's mail: only with a session whose user typed
 * the password lately, as the gateway signed it (`Caller.recentAuth`), never with a token.
 */
export const recentAuthOnly: RequestHandler = (req, _res, next) => {
  next(callerOf(req).recentAuth ? undefined : reauthRequired());
};

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
