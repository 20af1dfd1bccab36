import { isServiceRoute, routes, serviceRoutes } from '@shiplog/gateway/routes';
import type { WorkspaceRole } from '@shiplog/schemas';
import type { DeclaredRoute } from '@shiplog/service-kit';

/** One call of the `/api` surface, Express style (`/api/projects/:id`), and who answers it. */
export interface ApiCall {
  method: string;
  path: string;
  owner: string;
  /** Answered without a session (its declaration's `access: 'public'`). */
  public: boolean;
  /** Only administrators may call it. */
  admin: boolean;
  /** A personal API token may stand for the session. */
  token: boolean;
  /** The least role it needs on the project it acts on (its declaration's `project`), if it acts on one. */
  project?: WorkspaceRole;
}

/**
 * The whole `/api` surface, generated from the route declarations, never listed by hand: the
 * gateway's own actions and every service route it serves. `internal` are the service routes the
 * gateway does not expose (called by its actions); `unanswered` are declared routes that a running
 * service does not answer (read off its router), which would be a 404 behind the table.
 */
export function apiSurface(services: Record<string, { routes: DeclaredRoute[] }>) {
  const calls: ApiCall[] = routes.map((route) => ({
    method: route.method,
    path: route.path,
    owner: isServiceRoute(route) ? route.service : `gateway:${route.gateway}`,
    public: route.public,
    admin: route.admin,
    token: route.token,
    ...(route.declaration.project ? { project: route.declaration.project } : {}),
  }));
  const internal = Object.entries(serviceRoutes).flatMap(([service, declared]) =>
    Object.entries(declared)
      .filter(([, declaration]) => declaration.internal)
      .map(([key]) => `${service} ${key}`),
  );
  const unanswered = routes.filter(isServiceRoute).flatMap((route) => {
    const served = services[route.service]?.routes ?? [];
    const path = route.path.slice('/api'.length);
    return served.some((r) => r.method === route.method && r.path === path) ? [] : [route.key];
  });
  return { calls, internal, unanswered };
}
