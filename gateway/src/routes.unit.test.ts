import { describe, expect, it } from 'vitest';
import { apiRoutes, isCanonicalPath, pathPattern, routeFor } from './routes.ts';

const ownerOf = (method: string, url: string) => {
  const route = routeFor(method, url);
  if (!route) return undefined;
  return 'service' in route ? route.service : `gateway:${route.gateway}`;
};

describe('the /api route table', () => {
  it.each([
    ['POST', '/api/login', 'gateway:login'],
    ['GET', '/api/user', 'gateway:user'],
    ['DELETE', '/api/user', 'gateway:deleteAccount'],
    ['PUT', '/api/user/account-info', 'identity'],
    ['POST', '/api/user/change-password', 'gateway:changePassword'],
    ['DELETE', '/api/admin/users/abc', 'gateway:deleteUser'],
    ['GET', '/api/admin/users?page=2', 'identity'],
    ['PUT', '/api/admin/users/abc/subscription', 'billing'],
    ['GET', '/api/projects/abc/activities', 'activity'],
    ['DELETE', '/api/projects/abc', 'projects'],
    ['POST', '/api/activities', 'projects'],
    ['GET', '/api/activities?page=1', 'activity'],
    ['GET', '/api/calendar/secret.ics', 'reminders'],
    ['POST', '/api/graphql', 'gateway:graphql'],
  ])('gives %s %s to %s', (method, url, owner) => {
    expect(ownerOf(method, url)).toBe(owner);
  });

  it('owns nothing it does not list', () => {
    expect(routeFor('GET', '/api/login')).toBeUndefined();
    expect(routeFor('GET', '/api/nothing-here')).toBeUndefined();
    expect(routeFor('POST', '/api/calendar/secret.ics')).toBeUndefined();
  });

  it('reads a gateway path’s :name segments as named groups, and nothing else', () => {
    const pattern = pathPattern('/api/admin/users/:userId');
    expect(pattern.exec('/api/admin/users/abc')?.groups).toEqual({ userId: 'abc' });
    expect(pattern.test('/api/admin/users/abc/more')).toBe(false);
    expect(pattern.test('/api/admin/users/')).toBe(false);
    expect(pathPattern('/api/a.b').test('/api/aXb')).toBe(false);
  });

  it('matches a path only in its one canonical form', () => {
    for (const path of [
      '/api/projects/abc/deploy-hook',
      '/api/calendar/x.ics',
      '/api/badges/ada/p1/uptime.svg',
      '/api/u%C3%A9',
    ])
      expect(isCanonicalPath(path), path).toBe(true);
    for (const path of [
      '/api/projects/abc/deploy-hook/',
      '/api/projects/abc//deploy-hook',
      '/api/projects/abc/./deploy-hook',
      '/api/projects/x/../abc/deploy-hook',
      '/api/projects/abc%2Fdeploy-hook',
      '/api/projects/abc/%2e/deploy-hook',
      '/api/projects/abc/%64eploy-hook',
      '/api/projects/abc/deploy%2Dhook',
      '/api/projects/abc\\deploy-hook',
      '/api/projects/abc/deploy-hook#',
      '/api/projects/abc/%zz',
      '/api/projects/abc/%00',
      'http://host/api/projects',
    ])
      expect(isCanonicalPath(path), path).toBe(false);
    expect(routeFor('POST', '/api/projects/abc/DEPLOY-HOOK')).toMatchObject({ service: 'projects' });
    expect(routeFor('POST', '/api/projects/abc/deploy-hook/')).toBeUndefined();
  });

  it('names each gateway action once', () => {
    const actions = apiRoutes.flatMap((r) => ('gateway' in r ? [r.gateway] : []));
    expect(new Set(actions).size).toBe(actions.length);
  });
});
