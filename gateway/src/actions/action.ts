import type { RouteDeclaration, RouteInput } from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { SessionUser } from '../session/session-cache.ts';
import type { gatewayRoutes } from './routes.ts';

/**
 * A gateway action: `params` are the named groups of its route's path, `parsed` its input as its
 * declaration parses it (actions/routes.ts), each part when the action first reads it.
 */
export type Action<D extends RouteDeclaration = RouteDeclaration> = (
  req: Request,
  res: Response,
  params: Record<string, string>,
  parsed: RouteInput<D>,
) => Promise<void>;

/** The action of one of the gateway's routes, its input typed by the route's declaration. */
export type ActionOf<K extends keyof typeof gatewayRoutes> = Action<(typeof gatewayRoutes)[K]>;

/** The users of the personal API tokens requests carried, on the routes that take one (a declaration's `token`). */
const tokenUsers = new WeakMap<Request, SessionUser>();

/** The request stands for `user`, the owner of the API token it carried. */
export const actAsTokenUser = (req: Request, user: SessionUser) => tokenUsers.set(req, user);

/** Who asks: the owner of the request's API token, else the session's user (undefined: signed out). */
export const userOf = (req: Request): SessionUser | undefined => tokenUsers.get(req) ?? req.session.user;
