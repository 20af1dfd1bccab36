import type { RouteDeclaration, RouteInput, TokenGrant } from '@shiplog/service-kit';
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

/** The personal API tokens requests carried, on the routes that take one (a declaration's `token`): whose, and what they may do. */
const tokenUsers = new WeakMap<Request, { user: SessionUser; grant: TokenGrant }>();

/** The request stands for `user`, the owner of the API token it carried, as far as `grant` lets it. */
export const actAsTokenUser = (req: Request, user: SessionUser, grant: TokenGrant) =>
  tokenUsers.set(req, { user, grant });

/** Who asks: the owner of the request's API token, else the session's user (undefined: signed out). */
export const userOf = (req: Request): SessionUser | undefined => tokenUsers.get(req)?.user ?? req.session.user;

/** What the request's API token may do; undefined for a session's request. */
export const tokenGrantOf = (req: Request): TokenGrant | undefined => tokenUsers.get(req)?.grant;
