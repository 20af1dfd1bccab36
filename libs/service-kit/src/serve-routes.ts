import { ForbiddenError, NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { roleAtLeast, type WorkspaceRole } from '@shiplog/schemas';
import type express from 'express';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { apiTokenAccepted, callerOf, recentAuthOnly, requireAdmin, signedInUserId } from './caller.ts';
import type { LeanRead } from './http.ts';
import type { Caller } from './internal-token.ts';
import { catchUp, notCaughtUp } from './read-your-writes.ts';
import { type RouteDeclaration, type RouteDeclarations, routeKeyParts } from './route-declarations.ts';
import { tokenReaches } from './token-grants.ts';
import { parseInput } from './validation.ts';

/**
 * A handler's input, parsed with its declaration's schemas when the handler first reads it (so a
 * handler that answers 404 for an id that is not the caller's does so before it looks at the body).
 */
export interface RouteInput<D extends RouteDeclaration, P extends Reached = Reached> {
  readonly body: D['body'] extends z.ZodType ? z.output<D['body']> : undefined;
  readonly query: D['query'] extends z.ZodObject ? z.output<D['query']> : undefined;
  /**
   * The project the route acts on, with the caller's role on it, when that role is at least the
   * declaration's `project`: otherwise 404 (no role on it) or 403 `FORBIDDEN` (a lesser one).
   */
  readonly project: D['project'] extends WorkspaceRole ? (projectId: string) => Promise<P> : undefined;
}

/** A project as the service knows it, with the caller's role on it and its workspace (null: personal). */
export interface Reached {
  id: string;
  role: WorkspaceRole;
  workspaceId: string | null;
}

/**
 * The project with the caller's role on it, or null when they have none (`knownProjectsIn(…).reach`).
 * `req` is the request asking: a service that asks the projects service instead of a read model of its
 * own passes on its read-your-writes positions (`afterOf`).
 */
export type Reach<P extends Reached> = (projectId: string, userId: string, req: Request) => Promise<P | null>;

export const projectNotFound = () => new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');

/** A member of the project's workspace whose role does not allow the route. */
export const ROLE_REFUSED_MESSAGE = 'Your role in this workspace does not allow this: ask one of its owners or admins.';

/** What answers a declared route: an Express handler that gets the parsed input… */
export type RouteHandler<D extends RouteDeclaration, P extends Reached = Reached> = (
  /** Its path's parameters are strings, as the path names them. */
  req: Request<Record<string, string>>,
  res: Response,
  input: RouteInput<D, P>,
) => void | Promise<void>;
/** …or, for one of the few reads that carry a service's load, a lean read (`LeanRead`: a GET of an exact path). */
export interface LeanHandler {
  lean: (caller: Caller, query: URLSearchParams) => Promise<string>;
}

/** A handler for each declared route, and nothing else: the compiler says which is missing. */
export type RouteHandlers<R extends RouteDeclarations, P extends Reached = Reached> = {
  [K in keyof R]: RouteHandler<R[K] & RouteDeclaration, P> | LeanHandler;
};

/** What a service's `setup` gives `createHttpApp` from its routes. */
export interface ServedRoutes {
  routes: (router: express.Router) => void;
  reads: Record<string, LeanRead>;
  rawBodyPaths: string[];
}

/**
 * Declared routes with their handlers, as the service serves them: each on its method and path, who
 * may call it checked first from the gateway's signed caller (a token only where `token`, a recent
 * password where `recentAuth`, an administrator where `admin`), then the handler with its input. A
 * service whose routes act on projects (`project`) says how it finds the caller's role on one (`reach`).
 */
export function serveRoutes<R extends RouteDeclarations, P extends Reached = Reached>(
  declared: R,
  handlers: RouteHandlers<R, P>,
  options: {
    reach?: Reach<P>;
    /** Refuses a change to a project its plan does not let change (a team workspace whose owners have none). */
    writable?: (project: P, caller: Caller) => Promise<void>;
  } = {},
): ServedRoutes {
  const entries = Object.entries(declared) as [string, RouteDeclaration][];
  const unreachable = entries.filter(([, declaration]) => declaration.project && !options.reach);
  if (unreachable.length > 0)
    throw new Error(`${unreachable.map(([key]) => key).join(', ')}: a route on a project needs serveRoutes' reach`);
  const reads: Record<string, LeanRead> = {};
  const rawBodyPaths: string[] = [];
  for (const [key, declaration] of entries) {
    const { method, path } = routeKeyParts(key);
    const handler = handlers[key as keyof R];
    if (declaration.rawBody) rawBodyPaths.push(path);
    if ('lean' in handler) {
      if (method !== 'GET' || path.includes(':')) throw new Error(`${key}: a lean read is a GET of an exact path`);
      reads[path] = { read: handler.lean, ...(declaration.token ? { apiToken: true } : {}) };
    }
  }
  return {
    reads,
    rawBodyPaths,
    routes(router) {
      for (const [key, declaration] of entries) {
        const handler = handlers[key as keyof R];
        if ('lean' in handler) continue;
        const { method, path } = routeKeyParts(key);
        const guards: express.RequestHandler[] = [];
        if (declaration.token) guards.push(apiTokenAccepted);
        guards.push((req, _res, next) => {
          allowed(req, declaration);
          next();
        });
        if (declaration.recentAuth) guards.push(recentAuthOnly);
        const answer: express.RequestHandler = async (req, res) => {
          // No path of a declared route has a wildcard: every parameter is one segment, a string.
          await (handler as RouteHandler<RouteDeclaration, P>)(
            req as Request<Record<string, string>>,
            res,
            routeInput(req, declaration, options.reach, options.writable),
          );
        };
        router[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path, ...guards, answer);
      }
    },
  };
}

/** Merges the routes of a service's parts into what `setup` answers. */
export function servedTogether(...parts: ServedRoutes[]): ServedRoutes {
  return {
    routes: (router) => {
      for (const part of parts) part.routes(router);
    },
    reads: Object.assign({}, ...parts.map((part) => part.reads)),
    rawBodyPaths: parts.flatMap((part) => part.rawBodyPaths),
  };
}

/** Refuses a caller the declaration does not admit (throws the error the gateway would answer). */
function allowed(req: Request, declaration: RouteDeclaration): void {
  const caller = callerOf(req);
  if (declaration.access === 'admin') requireAdmin(req);
  else if (declaration.access === 'user') signedInUserId(caller);
}

/** A request's input as its declaration parses it, each part when first read (the gateway's actions get it too). */
export function routeInput<D extends RouteDeclaration, P extends Reached = Reached>(
  req: Request,
  declaration: D,
  reach?: Reach<P>,
  writable?: (project: P, caller: Caller) => Promise<void>,
): RouteInput<D, P> {
  let body: unknown;
  let query: unknown;
  const least = declaration.project;
  const project =
    least && reach
      ? async (projectId: string): Promise<P> => {
          // A project the caller created a moment ago must be known here: their writes are waited for.
          const caughtUp = await catchUp(req);
          // A malformed id is simply a project that does not exist.
          const caller = callerOf(req);
          const reached = isId(projectId) ? await reach(projectId, signedInUserId(caller), req) : null;
          // Not known here while the caller's own writes are still being applied: it may be one they just made.
          if (!reached && !caughtUp) throw notCaughtUp();
          // A token limited to another space finds nothing here, as a stranger does.
          if (!reached || !tokenReaches(caller, reached.workspaceId)) throw projectNotFound();
          if (!roleAtLeast(reached.role, least)) throw new ForbiddenError(ROLE_REFUSED_MESSAGE);
          if (least !== 'viewer') await writable?.(reached, caller);
          return reached;
        }
      : undefined;
  return {
    project: project as RouteInput<D, P>['project'],
    get body() {
      body ??= declaration.body ? parseInput(declaration.body, req.body) : undefined;
      return body as RouteInput<D>['body'];
    },
    get query() {
      query ??= declaration.query ? parseInput(declaration.query, req.query) : undefined;
      return query as RouteInput<D>['query'];
    },
  };
}
