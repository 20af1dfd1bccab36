import { describe, expect, it } from 'vitest';
import { isCanonicalPath, pathPattern, routeFor, routes } from './routes.ts';

const ownerOf = (method: string, url: string) => {
  const route = routeFor(method, url);
  if (!route) return undefined;
  return 'service' in route ? route.service : `gateway:${route.gateway}`;
};

describe('the /api route table', () => {
  it.each([
    ['POST', '/api/login', 'gateway:POST /api/login'],
    ['GET', '/api/user', 'gateway:GET /api/user'],
    ['HEAD', '/api/user', 'gateway:GET /api/user'],
    ['DELETE', '/api/user', 'gateway:DELETE /api/user'],
    ['POST', '/api/user/account-info', 'identity'],
    ['POST', '/api/user/change-password', 'gateway:POST /api/user/change-password'],
    ['DELETE', '/api/admin/users/abc', 'gateway:DELETE /api/admin/users/:userId'],
    ['GET', '/api/admin/users?page=2', 'identity'],
    ['PUT', '/api/admin/users/abc/subscription', 'billing'],
    ['GET', '/api/projects/abc/activities', 'activity'],
    ['DELETE', '/api/projects/abc', 'projects'],
    ['POST', '/api/activities', 'projects'],
    ['GET', '/api/activities?page=1', 'activity'],
    ['GET', '/api/calendar/secret.ics', 'reminders'],
    ['POST', '/api/graphql', 'gateway:POST /api/graphql'],
    ['GET', '/api/reminders/push', 'reminders'],
    ['POST', '/api/reminders/push/subscriptions', 'gateway:POST /api/reminders/push/subscriptions'],
  ])('gives %s %s to %s', (method, url, owner) => {
    expect(ownerOf(method, url)).toBe(owner);
  });

  it('owns nothing it does not list', () => {
    expect(routeFor('GET', '/api/login')).toBeUndefined();
    expect(routeFor('GET', '/api/nothing-here')).toBeUndefined();
    expect(routeFor('POST', '/api/calendar/secret.ics')).toBeUndefined();
    // A method a path does not take, and a service's routes that only the gateway calls.
    expect(routeFor('PUT', '/api/user/account-info')).toBeUndefined();
    expect(routeFor('POST', '/api/imports/projects')).toBeUndefined();
    expect(routeFor('GET', '/api/users/me')).toBeUndefined();
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
    expect(routeFor('POST', '/api/projects/abc/DEPLOY-HOOK')).toBeUndefined();
    expect(routeFor('POST', '/api/projects/abc/deploy-hook/')).toBeUndefined();
  });

  it('declares each route once, whoever owns it', () => {
    const keys = routes.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
