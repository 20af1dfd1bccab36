import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routes } from '../routes.ts';
import { openApiDocument } from './document.ts';

const document = openApiDocument({ version: '1' });

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, its references all resolved', async () => {
    // The parser dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('describes every route of the table, and gives each JSON answer its schema', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: unknown }> }>
    >;
    const described = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(described.sort()).toEqual(routes.map((route) => route.key).sort());
    // A JSON answer described in words only: each is one to give its schema.
    const unschemed = routes
      .filter((route) => {
        const { answer } = route.declaration;
        return answer !== undefined && !(answer instanceof z.ZodType) && answer.type === 'application/json';
      })
      .map((route) => route.key);
    expect(unschemed.sort()).toEqual(UNSCHEMED.sort());
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

/** JSON answers still described in words: none. */
const UNSCHEMED: string[] = [];
