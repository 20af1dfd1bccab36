import type { IncomingMessage } from 'node:http';
import { activityRoutes } from '@shiplog/activity/routes';
import { billingRoutes } from '@shiplog/billing/routes';
import { chatRoutes } from '@shiplog/chat/routes';
import { identityRoutes } from '@shiplog/identity/routes';
import { integrationsRoutes } from '@shiplog/integrations/routes';
import { monitorsRoutes } from '@shiplog/monitors/routes';
import { projectsRoutes } from '@shiplog/projects/routes';
import { remindersRoutes } from '@shiplog/reminders/routes';
import {
  type HttpMethod,
  holdsSecret,
  type LimitName,
  type RouteDeclaration,
  type RouteDeclarations,
  routeKeyParts,
  type ServiceName,
} from '@shiplog/service-kit';
import { type GatewayRouteKey, gatewayRoutes } from './actions/routes.ts';

/** Every service's routes, as each declares them beside its handlers. */
export const serviceRoutes: Record<ServiceName, RouteDeclarations> = {
  identity: identityRoutes,
  projects: projectsRoutes,
  reminders: remindersRoutes,
  billing: billingRoutes,
  chat: chatRoutes,
  integrations: integrationsRoutes,
  activity: activityRoutes,
  monitors: monitorsRoutes,
};

/**
 * One route of the `/api` surface, as the gateway serves it: its declaration (`RouteDeclaration`,
 * beside its handler in the service that owns it, or in actions/routes.ts for the gateway's own), and
 * what the gateway reads of it on every call. A service's route is forwarded by the lean service path
 * (forward.ts) with the `/api` prefix removed; a gateway action is answered by the Express pipeline
 * (app.ts) because it reads or changes the session. Either way, a route that is not `public` answers
 * 401 without a session, an `admin` route 403 to anyone else, a write from a foreign Origin 403, a
 * write's position goes back as a cookie and later reads wait for it, and every error has the one
 * error body. Anything else under `/api` is a 404.
 */
interface RouteEntry {
  /** `METHOD /api/path`, as declared. */
  key: string;
  method: HttpMethod;
  /** The Express-style template at `/api` (`/api/projects/:id`). */
  path: string;
  /** `path` as an exact pattern, its `:name` segments as named groups. */
  pattern: RegExp;
  declaration: RouteDeclaration;
  /** Answered without a session. */
  public: boolean;
  /** Only administrators (403 `ADMIN_REQUIRED` for anyone else). */
  admin: boolean;
  /** A personal API token may stand for the session. */
  token: boolean;
  /** Needs the password typed in this session lately (sessions.ts `RECENT_AUTH_MS`). */
  recentAuth: boolean;
  limit?: LimitName;
  /** A segment of the path is a credential (`:secret`): redacted wherever the path is written down. */
  secret: boolean;
}

export interface ServiceRoute extends RouteEntry {
  service: ServiceName;
  publicPages: boolean;
  shared?: string;
  timeoutMs?: number;
}

export interface GatewayRoute extends RouteEntry {
  /** The gateway action that answers it (app.ts). */
  gateway: GatewayRouteKey;
}

export type ApiRoute = ServiceRoute | GatewayRoute;

function entry(key: string, declaration: RouteDeclaration, at: string): RouteEntry {
  const { method, path: declared } = routeKeyParts(key);
  const path = `${at}${declared}`;
  return {
    key: `${method} ${path}`,
    method,
    path,
    pattern: pathPattern(path),
    declaration,
    public: declaration.access === 'public',
    admin: declaration.access === 'admin',
    token: declaration.token === true,
    recentAuth: declaration.recentAuth === true,
    ...(declaration.limit ? { limit: declaration.limit } : {}),
    secret: holdsSecret(path),
  };
}

/** The table: the gateway's actions, then every route a service serves under `/api` (not its `internal` ones). */
export const routes: readonly ApiRoute[] = [
  ...(Object.entries(gatewayRoutes) as [string, RouteDeclaration][]).map(
    ([key, declaration]): GatewayRoute => ({ ...entry(key, declaration, ''), gateway: key as GatewayRouteKey }),
  ),
  ...Object.entries(serviceRoutes).flatMap(([service, declared]) =>
    (Object.entries(declared) as [string, RouteDeclaration][])
      .filter(([, declaration]) => !declaration.internal)
      .map(
        ([key, declaration]): ServiceRoute => ({
          ...entry(key, declaration, '/api'),
          service: service as ServiceName,
          publicPages: declaration.publicPages === true,
          ...(declaration.shared ? { shared: declaration.shared } : {}),
          ...(declaration.timeoutMs ? { timeoutMs: declaration.timeoutMs } : {}),
        }),
      ),
  ),
];

/**
 * The table as calls are matched: a path without parameters by its method and path at once; the
 * others by method and first segment under `/api`, the most specific first (most fixed segments), so
 * `GET /api/reminders/push` is never taken for `GET /api/reminders/:id`. A GET route takes HEAD too.
 */
const exact = new Map<string, ApiRoute>();
const byPrefix = new Map<string, ApiRoute[]>();
const prefixOf = (path: string) => {
  const end = path.indexOf('/', 5);
  return end === -1 ? path : path.slice(0, end);
};
for (const route of routes) {
  if (exact.has(route.key) || byPrefix.get(`${route.method} ${prefixOf(route.path)}`)?.some((r) => r.key === route.key))
    throw new Error(`${route.key} is declared twice`);
  if (!route.path.includes('/:')) exact.set(route.key, route);
  else {
    const key = `${route.method} ${prefixOf(route.path)}`;
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), route]);
  }
}
const fixedSegments = (route: ApiRoute) => route.path.split('/').filter((s) => s && !s.startsWith(':')).length;
for (const list of byPrefix.values()) list.sort((a, b) => fixedSegments(b) - fixedSegments(a));

/** An Express-style path (`/api/admin/users/:userId`) as an exact pattern with named groups. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? `(?<${segment.slice(1)}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('\\/');
  return new RegExp(`^${source}$`);
}

/**
 * A path template with each `:name` segment filled in; by default with a stand-in (a calendar feed's
 * file name, which every segment may be).
 */
export function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x.ics');
}

/**
 * The route of a call, or none. Only a path in its one canonical form has a route: each variant a
 * client or an attacker can spell (a trailing or doubled slash, a dot segment, an encoded slash or an
 * encoded letter, a `#` or a backslash) is a 404 on both serving paths. Matching is case-sensitive,
 * as the services' routers are: `…/DEPLOY-HOOK` is not `…/deploy-hook` anywhere. Without this, a
 * variant that misses its own line falls to a broader one and is forwarded past its rules.
 */
export function routeFor(method: string, url: string): ApiRoute | undefined {
  const path = url.split('?')[0]!;
  if (!isCanonicalPath(path)) return undefined;
  const asked = method === 'HEAD' ? 'GET' : method;
  const found = exact.get(`${asked} ${path}`);
  if (found) return found;
  for (const route of byPrefix.get(`${asked} ${prefixOf(path)}`) ?? []) if (route.pattern.test(path)) return route;
  return undefined;
}

/** Characters a path segment holds as they are (RFC 3986 `pchar`, with `%` for an encoding). */
const pathCharacters = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/**
 * Encodings a canonical path never holds: of an unreserved character (its canonical form is the
 * character itself, RFC 3986 §6.2.2.2), of a separator (`/`, `\`, `?`, `#`), of a control character.
 */
const nonCanonicalEncoding =
  /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEeFf3]|5[Ff]|7[Ee]|5[Cc]|3[Ff]|[01][0-9A-Fa-f]|7[Ff])/;

/** Whether a path is in the one form the route table matches (see `routeFor`). */
export function isCanonicalPath(path: string): boolean {
  if (!path.startsWith('/') || !pathCharacters.test(path)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(path) || nonCanonicalEncoding.test(path)) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const matched = new WeakMap<IncomingMessage, ApiRoute | null>();

/**
 * A request's route, matched once for everyone who asks (the service path, the actions, the spans,
 * the access log's metrics): the table is read once per request. Express's `originalUrl` when mounted.
 */
export function routeOf(req: IncomingMessage): ApiRoute | undefined {
  let route = matched.get(req);
  if (route === undefined) {
    route = routeFor(req.method ?? 'GET', (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/') ?? null;
    matched.set(req, route);
  }
  return route ?? undefined;
}

export const isServiceRoute = (route: ApiRoute): route is ServiceRoute => 'service' in route;

/** The templates of the routes whose path holds a credential (`:secret`). */
export const secretPaths: readonly string[] = routes.flatMap((route) => (route.secret ? [route.path] : []));
