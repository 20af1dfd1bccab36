import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { fill, isServiceRoute, routeFor, routes } from '../routes.ts';
import { openApiDocument } from './document.ts';
import { operations } from './operations.ts';

const document = openApiDocument({ version: '1' });

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, its references all resolved', async () => {
    // The parser dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('describes every route of the route table, each method it takes', () => {
    const calls = Object.keys(operations).map((call) => call.split(' ') as [string, string]);
    const missing = routes.flatMap((route) => {
      const described = calls.filter(([method, path]) => routeFor(method, fill(path)) === route);
      const methods = (route.methods ?? []).filter((m) => m !== 'HEAD');
      const label = isServiceRoute(route) ? `${route.service} ${route.pattern}` : route.path;
      if (described.length === 0) return [label];
      return methods.filter((m) => !described.some(([method]) => method === m)).map((m) => `${m} ${label}`);
    });
    expect(missing).toEqual([]);
  });

  it('gives a signed-out caller’s 401 to every call that needs a session, and none to the public ones', () => {
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    expect(paths['/api/projects']!.get!.responses['401']).toBeDefined();
    expect(paths['/api/login']!.post!.responses['401']).toBeUndefined();
    expect(paths['/api/register']!.post!.responses['429']).toBeDefined();
  });

  it('says which creates take an Idempotency-Key', () => {
    const paths = document.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    const takesKey = (path: string) =>
      paths[path]!.post!.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header') ?? false;
    expect(takesKey('/api/projects')).toBe(true);
    expect(takesKey('/api/projects/{id}/deployment')).toBe(true);
    expect(takesKey('/api/register')).toBe(false);
  });
});
