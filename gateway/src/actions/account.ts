import type { IncomingMessage } from 'node:http';
import { TooManyRequestsError, UnauthorizedError } from '@shiplog/errors';
import type { CurrentUser } from '@shiplog/schemas';
import { type Logger, POSITION_HEADER, type ServiceClients } from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { LoginLimiter } from '../session/login-limiter.ts';
import type { RequestPositions } from '../session/positions.ts';
import type { SessionUser } from '../session/session-cache.ts';
import { callerFor } from '../session/session-cache.ts';
import type { TokenCache } from '../session/token-cache.ts';
import type { UserSessions } from '../session/user-sessions.ts';
import { type Action, userOf } from './action.ts';

/**
 * The gateway's own actions on the account: they read or change the session, so the gateway answers
 * them itself, calling identity (and billing for the current user) for the facts.
 */
export function accountActions(deps: {
  /** The session cookie's name (sessions.ts `sessionCookie`). */
  cookieName: string;
  services: ServiceClients;
  /** A new password or a deleted account ends the user's API tokens: forgotten here at once. */
  tokens: TokenCache;
  positions: RequestPositions;
  sessions: UserSessions;
  limiter: LoginLimiter;
  logger: Logger;
  /** The body's bytes as they came (see app.ts). */
  bodyOf: (req: IncomingMessage) => Buffer | undefined;
}): Record<
  'register' | 'login' | 'logout' | 'user' | 'changePassword' | 'reauth' | 'deleteAccount' | 'deleteUser',
  Action
> {
  const { cookieName, services, tokens, positions, sessions, limiter, logger, bodyOf } = deps;
  const callerOf = (req: Request) => callerFor(userOf(req));

  /** GET /api/user's answer: the account from identity, the subscription from billing. */
  async function currentUser(req: Request): Promise<CurrentUser | null> {
    if (!userOf(req)) return null;
    const caller = callerOf(req);
    const after = positions.of(req);
    const [account, subscription] = await Promise.all([
      services
        .readOrNull<{ id: string; username: string; email: string | null; isAdmin: boolean }>('identity', '/users/me', {
          caller,
          after,
        })
        // Signed in to an account that is gone: the session goes too.
        .catch((error: unknown) => {
          if (error instanceof UnauthorizedError) return null;
          throw error;
        }),
      services
        .read<{ status: CurrentUser['subscriptionStatus']; trialEndDate: string | null }>(
          'billing',
          '/subscription/status',
          { caller, after },
        )
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'billing unavailable; answering the user without a subscription status');
          return null;
        }),
    ]);
    if (!account) {
      await destroySession(req);
      return null;
    }
    return {
      id: account.id,
      username: account.username,
      email: account.email,
      subscriptionStatus: subscription?.status ?? null,
      trialEndDate: subscription?.trialEndDate ?? null,
      isAdmin: account.isAdmin,
    };
  }

  async function signIn(req: Request, res: Response, user: SessionUser, positionHeader: unknown) {
    // A new session id at every sign-in: a session id planted before login is worth nothing after it.
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((error) => (error ? reject(error) : resolve())),
    );
    req.session.user = { id: user.id, username: user.username, isAdmin: user.isAdmin };
    req.session.since = Date.now();
    positions.remember(req, res, positionHeader as string | undefined);
    await sessions.add(user.id, req.sessionID, {
      since: req.session.since,
      userAgent: req.get('user-agent') ?? '',
      ip: req.ip ?? '',
    });
  }

  /**
   * A call to identity that checks a password, counted against the sign-in throttle for the name at
   * this address (login-limiter.ts): guesses at a password cost the same wherever they are made.
   */
  async function throttled(
    req: Request,
    res: Response,
    username: string,
    path: string,
    outcome: (answer: { status: number; body: unknown }) => 'failed' | 'succeeded' | 'not-counted',
  ) {
    const ip = req.ip ?? 'unknown';
    const wait = await limiter.attempt(username, ip);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new TooManyRequestsError(
        `Too many failed login attempts. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      );
    }
    const result = await services
      .call<SessionUser>('identity', { method: 'POST', path, body: bodyOf(req), caller: callerOf(req) })
      .catch(async (error: unknown) => {
        await limiter.settle(username, ip, 'not-counted');
        throw error;
      });
    await limiter.settle(username, ip, outcome(result));
    return result;
  }

  function signedOut(req: Request, res: Response) {
    res.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.secure });
    positions.forget(req, res);
  }

  return {
    async register(req, res) {
      const result = await services.call<SessionUser>('identity', {
        method: 'POST',
        path: '/register',
        body: bodyOf(req),
        caller: callerOf(req),
      });
      if (result.status !== 201) return sendUpstreamError(res, result);
      await signIn(req, res, result.body, result.headers[POSITION_HEADER]);
      res.status(201).json(await currentUser(req));
    },

    async login(req, res) {
      const username = typeof req.body?.username === 'string' ? req.body.username : '';
      const result = await throttled(req, res, username, '/login', (answer) =>
        answer.status === 401 ? 'failed' : answer.status === 200 ? 'succeeded' : 'not-counted',
      );
      if (result.status !== 200) return sendUpstreamError(res, result);
      await signIn(req, res, result.body, result.headers[POSITION_HEADER]);
      res.json(await currentUser(req));
    },

    async logout(req, res) {
      const user = req.session?.user;
      const sid = req.sessionID;
      await destroySession(req);
      // Marked ended once its key is gone, as every ending does (the push-devices sweep relies on it).
      if (user) await sessions.remove(user.id, sid);
      signedOut(req, res);
      res.json({ message: 'Logged out' });
    },

    async user(req, res) {
      const user = await currentUser(req);
      if (!user) throw new UnauthorizedError();
      res.json(user);
    },

    // Identity checks the current password, throttled as sign-in is; then every other session of the user ends.
    async changePassword(req, res) {
      const result = await throttled(req, res, req.session.user!.username, '/user/change-password', (answer) =>
        wrongPassword(answer, 'currentPassword') ? 'failed' : answer.status === 200 ? 'succeeded' : 'not-counted',
      );
      if (result.status !== 200) return sendUpstreamError(res, result);
      req.session.verifiedAt = Date.now();
      positions.remember(req, res, result.headers[POSITION_HEADER]);
      tokens.forgetUser(req.session.user!.id);
      await sessions.end(req.session.user!.id, req.sessionID);
      res.json(result.body);
    },

    // The password again (POST /api/reauth): for ten minutes this session may make sensitive changes.
    async reauth(req, res) {
      const result = await throttled(req, res, req.session.user!.username, '/user/verify-password', (answer) =>
        wrongPassword(answer, 'password') ? 'failed' : answer.status === 200 ? 'succeeded' : 'not-counted',
      );
      if (result.status !== 200) return sendUpstreamError(res, result);
      req.session.verifiedAt = Date.now();
      res.json({ message: 'Password confirmed' });
    },

    // Identity deletes the account (every service follows); every session of it ends.
    async deleteAccount(req, res) {
      const result = await services.call('identity', { method: 'DELETE', path: '/user', caller: callerOf(req) });
      if (result.status !== 204) return sendUpstreamError(res, result);
      tokens.forgetUser(req.session.user!.id);
      await sessions.end(req.session.user!.id);
      await destroySession(req);
      signedOut(req, res);
      res.json({ message: 'Account deleted' });
    },

    // An administrator deletes an account: identity refuses anyone else and the admin account itself;
    // the cascade runs as for a user deleting themselves, and every session of the deleted account ends.
    async deleteUser(req, res, { userId }) {
      const result = await services.call('identity', {
        method: 'DELETE',
        path: `/admin/users/${encodeURIComponent(userId!)}`,
        caller: callerOf(req),
      });
      if (result.status !== 204) return sendUpstreamError(res, result);
      positions.remember(req, res, result.headers[POSITION_HEADER]);
      tokens.forgetUser(userId!);
      await sessions.end(userId!);
      res.status(204).end();
    },
  };
}

async function destroySession(req: Request) {
  if (!req.session) return;
  await new Promise<void>((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}

function sendUpstreamError(res: Response, result: { status: number; body: unknown }) {
  const body = (result.body ?? {}) as Record<string, unknown>;
  res.status(result.status).json({
    message: typeof body.message === 'string' ? body.message : 'Request failed',
    code: typeof body.code === 'string' ? body.code : 'UPSTREAM_ERROR',
    ...(body.fieldErrors ? { fieldErrors: body.fieldErrors } : {}),
  });
}

/** Identity's answer to a wrong password in a form: a 400 saying the field's password is incorrect. */
function wrongPassword(answer: { status: number; body: unknown }, field: string): boolean {
  const errors = (answer.body as { fieldErrors?: Record<string, unknown> } | null)?.fieldErrors?.[field];
  return answer.status === 400 && Array.isArray(errors) && errors.some((e) => /is incorrect$/.test(String(e)));
}
