import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ValidationError } from '@shiplog/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declareSecretPaths, loggedUrl, pathTemplate } from './access-log.ts';
import { deterministicId } from './command.ts';
import { checkServiceEnv, devSecret, loadConfig, serviceEnv } from './config.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, errorResponse } from './error-body.ts';
import { signInternalToken, verifyInternalToken } from './internal-token.ts';
import { createLogger } from './logger.ts';
import { parsePositions } from './read-your-writes.ts';
import { parseInput, UNSTORABLE_TEXT_MESSAGE } from './validation.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';
const caller = { userId: 'u1', username: 'ada', isAdmin: false };

describe('loadConfig', () => {
  const schema = serviceEnv.superRefine(checkServiceEnv);

  it('applies defaults, treating empty variables as unset', () => {
    const config = loadConfig(schema, { DATABASE_URL: '' });
    expect(config).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/shiplog',
      EVENT_STORE: 'postgres',
      LOG_LEVEL: 'info',
      DATABASE_POOL_MAX: 10,
    });
    expect(loadConfig(schema, { DATABASE_POOL_MAX: '25' }).DATABASE_POOL_MAX).toBe(25);
  });

  it('stops with a message naming each bad variable', () => {
    const bad = () => loadConfig(schema, { DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(bad).toThrow(/^Invalid configuration:\n/);
    expect(bad).toThrow('\n  - DATABASE_URL: must be a postgres:// URL');
    expect(bad).toThrow('\n  - LOG_LEVEL: Invalid option');
    expect(() => loadConfig(schema, { DATABASE_POOL_MAX: '2' })).toThrow('DATABASE_POOL_MAX:');
    expect(() => loadConfig(schema, { EVENT_STORE: 'esdb' })).toThrow(
      'EVENTSTORE_URL: is required when EVENT_STORE=esdb',
    );
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow(
      'INTERNAL_TOKEN_SECRET: is required in production',
    );
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow('VAULT_KEY_SECRET: is required in production');
    expect(() => loadConfig(schema, { VAULT_KEY_SECRET: 'short' })).toThrow(
      'VAULT_KEY_SECRET: must be at least 32 characters',
    );
  });
});

describe('devSecret', () => {
  it('gives every process of a first start the same secret, however they race', async () => {
    const name = `RACE_TEST_${process.pid}_${Date.now()}`;
    const file = join(import.meta.dirname, '..', '..', '..', '.data', 'dev-secrets', name);
    const script = `import { devSecret } from ${JSON.stringify(join(import.meta.dirname, 'config.ts'))}; process.stdout.write(devSecret(${JSON.stringify(name)}));`;
    try {
      const runs = await Promise.all(
        Array.from({ length: 6 }, () => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])),
      );
      const values = new Set(runs.map((run) => run.stdout));
      expect(values.size).toBe(1);
      const [value] = values;
      expect(value).toMatch(/^[\w-]{43}$/);
      expect(devSecret(name)).toBe(value);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('internal token', () => {
  it('round-trips the caller, with what the gateway saw of the credential', () => {
    expect(verifyInternalToken(secret, signInternalToken(secret, caller))).toEqual({
      ...caller,
      recentAuth: false,
    });
    const grant = { id: 't1', name: 'CI deploys', scope: 'read' as const, workspaceId: 'personal' };
    const withToken = { ...caller, apiToken: grant, recentAuth: false };
    expect(verifyInternalToken(secret, signInternalToken(secret, withToken))).toEqual(withToken);
    const everywhere = {
      ...caller,
      apiToken: { ...grant, scope: 'write' as const, workspaceId: null },
      recentAuth: false,
    };
    expect(verifyInternalToken(secret, signInternalToken(secret, everywhere))).toEqual(everywhere);
    const recent = { ...caller, recentAuth: true };
    expect(verifyInternalToken(secret, signInternalToken(secret, recent))).toEqual(recent);
  });

  it('refuses another secret, tampering, expiry and garbage', () => {
    const token = signInternalToken(secret, caller);
    expect(verifyInternalToken('another-secret-of-at-least-thirty-two-chars', token)).toBeNull();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'u2', usr: 'eve', adm: true, cid: 'x', exp: 9e9 })).toString(
      'base64url',
    );
    expect(verifyInternalToken(secret, `${forged}.${signature}`)).toBeNull();
    expect(verifyInternalToken(secret, `${payload}.${signature}x`)).toBeNull();
    expect(verifyInternalToken(secret, signInternalToken(secret, caller, -1))).toBeNull();
    for (const junk of [undefined, '', 'a', 'a.b.c', '..']) expect(verifyInternalToken(secret, junk)).toBeNull();
  });
});

describe('parseInput', () => {
  it('answers the schema messages per field as a 400', () => {
    const schema = z.object({ name: z.string().min(1, 'Project name is required'), tags: z.array(z.string()) });
    const error = (() => {
      try {
        parseInput(schema, { name: '', tags: [1] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Project name is required',
      fieldErrors: { name: ['Project name is required'], 'tags.0': [expect.any(String)] },
    });
    expect(parseInput(schema, { name: 'x', tags: [] })).toEqual({ name: 'x', tags: [] });
  });

  it('refuses text PostgreSQL cannot store, wherever it sits, and keeps everything else', () => {
    const schema = z.object({
      name: z.string(),
      links: z.record(z.string(), z.string()).optional(),
      tags: z.array(z.string()).optional(),
    });
    const refused = (input: unknown) => {
      try {
        parseInput(schema, input);
      } catch (error) {
        return (error as ValidationError).fieldErrors;
      }
      return undefined;
    };
    expect(refused({ name: 'a\u0000b' })).toEqual({ name: [UNSTORABLE_TEXT_MESSAGE] });
    expect(refused({ name: 'ok', tags: ['fine', '\ud800'] })).toEqual({ 'tags.1': [UNSTORABLE_TEXT_MESSAGE] });
    expect(refused({ name: 'ok', links: { 'x\udfff': 'https://example.com' } })).toEqual({
      links: [UNSTORABLE_TEXT_MESSAGE],
    });
    // Whole surrogate pairs (emoji) and other control characters are ordinary text.
    expect(parseInput(schema, { name: 'Ship it 🚀\t\u0001' })).toEqual({ name: 'Ship it 🚀\t\u0001' });
  });
});

describe('positions header and deterministic ids', () => {
  it('parses only well-formed source=commit/prepare pairs', () => {
    const parsed = parsePositions('identity=12/34, billing=bad, projects=5/6,=1/2');
    expect([...parsed]).toEqual([
      ['identity', { commit: 12n, prepare: 34n }],
      ['projects', { commit: 5n, prepare: 6n }],
    ]);
  });

  it('derives the same UUID from the same key', () => {
    expect(deterministicId('trial:1')).toBe(deterministicId('trial:1'));
    expect(deterministicId('trial:1')).not.toBe(deterministicId('trial:2'));
    expect(deterministicId('trial:1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('errorResponse', () => {
  const logger = createLogger('test', 'silent');
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('answers 503 when the database could not be reached, and 500 for anything else unexpected', () => {
    for (const error of [
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('database "shiplog" is not currently accepting connections', '55000'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(errorResponse(error, logger, {}), error.message).toEqual({
        status: 503,
        body: { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' },
      });
    }
    for (const error of [new TypeError('x is undefined'), withCode('duplicate key', '23505'), 'a string']) {
      expect(errorResponse(error, logger, {}).status).toBe(500);
    }
  });
});

describe('paths written down', () => {
  it('lose the credentials their routes declare (`:secret`), however the path is spelt', () => {
    declareSecretPaths(['/api/calendar/:secret', '/hooks/deploy/:secret', '/ping/:secret/start', '/projects/:id']);
    expect(loggedUrl('/api/calendar/abcDEF123.ics?x=1')).toBe('/api/calendar/[redacted]?x=1');
    expect(loggedUrl('/hooks/deploy/hogE8FkJa0rBPphuoLken1gnJdpMhtaL')).toBe('/hooks/deploy/[redacted]');
    expect(loggedUrl('/api/ping/s3cr3t:fcm/start')).toBe('/api/ping/[redacted]/start');
    expect(loggedUrl('/api/PING//s3cr3t/')).toBe('/api/PING//[redacted]/');
    expect(loggedUrl('//hooks/Deploy/s3cr3t')).toBe('//hooks/Deploy/[redacted]');
    expect(loggedUrl('/projects/1/deploy-hook')).toBe('/projects/1/deploy-hook');
    expect(loggedUrl('/reminders/calendar')).toBe('/reminders/calendar');
  });

  it('name a span by a template that holds no id, token or user name', () => {
    expect(pathTemplate('/api/projects/0193a7c2-1111-7000-8000-000000000000/activities')).toBe(
      '/api/projects/:value/activities',
    );
    expect(pathTemplate('/api/hooks/deploy/hogE8FkJa0rBPphuoLken1gnJdpMhtaL')).toBe('/api/hooks/deploy/:value');
    expect(pathTemplate('/api/public/users/alice?x')).toBe('/api/public/users/:value');
    expect(pathTemplate('/api/admin/users/summary')).toBe('/api/admin/users/summary');
    expect(pathTemplate('/api/reminders/upcoming')).toBe('/api/reminders/upcoming');
  });
});
