import type { DeclaredRoute } from '@shiplog/service-kit';
import { fill, isServiceRoute, routeFor, routes } from '../src/routes.ts';

/** One call of the `/api` surface, Express style (`/api/projects/:id`), and who answers it. */
export interface ApiCall {
  method: string;
  path: string;
  owner: string;
  /** Answered without a session (the route table's `public`). */
  public: boolean;
}

/**
 * The whole `/api` surface, generated, never listed by hand: the gateway's own actions (its route
 * table), and every route of every service (read off its router) that the gateway's table passes on to
 * that service. `internal` are the service routes the gateway does not expose (called service to
 * service); `unanswered` are table entries that no service route answers.
 */
export function apiSurface(services: Record<string, { routes: DeclaredRoute[] }>) {
  const calls: ApiCall[] = [];
  const internal: string[] = [];
  for (const route of routes) {
    if (isServiceRoute(route)) continue;
    for (const method of route.methods.filter((m) => m !== 'HEAD'))
      calls.push({ method, path: route.path, owner: `gateway:${route.gateway}`, public: Boolean(route.public) });
  }
  for (const [service, { routes: declared }] of Object.entries(services)) {
    for (const { method, path } of declared) {
      const apiPath = `/api${path}`;
      const route = routeFor(method, fill(apiPath));
      if (route && isServiceRoute(route) && route.service === service)
        calls.push({ method, path: apiPath, owner: service, public: Boolean(route.public) });
      else internal.push(`${service} ${method} ${path}`);
    }
  }
  const unanswered = routes
    .filter(isServiceRoute)
    .filter((route) => !calls.some((call) => call.owner === route.service && route.pattern.test(fill(call.path))))
    .map((route) => `${route.service} ${route.pattern}`);
  return { calls, internal, unanswered };
}
