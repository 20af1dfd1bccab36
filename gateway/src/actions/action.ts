import type { Request, Response } from 'express';
import type { SessionUser } from '../session/session-cache.ts';

/** A gateway action: `params` are the named groups of its route's path (actions/routes.ts). */
export type Action = (req: Request, res: Response, params: Record<string, string>) => Promise<void>;

/** The users of the personal API tokens requests carried, on the routes that take one (a declaration's `token`). */
const tokenUsers = new WeakMap<Request, SessionUser>();

/** The request stands for `user`, the owner of the API token it carried. */
export const actAsTokenUser = (req: Request, user: SessionUser) => tokenUsers.set(req, user);

/** Who asks: the owner of the request's API token, else the session's user (undefined: signed out). */
export const userOf = (req: Request): SessionUser | undefined => tokenUsers.get(req) ?? req.session.user;
