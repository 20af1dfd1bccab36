import { createServer } from 'node:http';
import { ConflictError } from '@shiplog/errors';
import { PostgresEventStore } from '@shiplog/event-store/postgres';
import { type EventOf, newId } from '@shiplog/events';
import { createTestDatabase, type TestDatabase } from '@shiplog/testing';
import express from 'express';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiTokenAccepted, recentAuthOnly, requireUserId } from './caller.ts';
import { type Decider, handleCommand } from './command.ts';
import { errorHandler } from './error-body.ts';
import { healthRoutes } from './health.ts';
import { createHttpApp } from './http.ts';
import { signInternalToken } from './internal-token.ts';
import { createLogger } from './logger.ts';
import { parseInput } from './validation.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('kit');
  pool = new pg.Pool({ connectionString: db.url });
  pool.on('error', () => {});
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('HTTP app', () => {
  let base: string;
  let close: () => void;
  let routes: { method: string; path: string }[];

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('kit-test', 'silent'),
      internalTokenSecret: secret,
      readiness: { database: () => pool.query('SELECT 1') },
      routes: (router) => {
        router.post('/things', (req, res) => {
          const input = parseInput(z.object({ name: z.string().min(1, 'Name is required') }), req.body);
          res.status(201).json(input);
        });
        router.get('/conflict', () => {
          throw new ConflictError('Already there', 'ALREADY');
        });
        router.get('/boom', () => {
          throw new Error('secret internals');
        });
        router.get('/mine', (req, res) => {
          res.json({ userId: requireUserId(req) });
        });
        router.get('/mine/by-token', apiTokenAccepted, (req, res) => {
          res.json({ userId: requireUserId(req) });
        });
        router.post('/mine/credential', recentAuthOnly, (req, res) => {
          res.status(201).json({ userId: requireUserId(req) });
        });
      },
      reads: {
        '/lean': {
          read: async (caller, query) => JSON.stringify({ userId: caller.userId, q: query.get('q') }),
          apiToken: true,
        },
        '/lean/conflict': {
          read: async () => {
            throw new ConflictError('Already there', 'ALREADY');
          },
        },
        '/lean/boom': {
          read: async () => {
            throw new Error('secret internals');
          },
        },
      },
    });
    routes = app.routes;
    const server = createServer(app.listener).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    close = () => server.close();
  });
  afterAll(() => close?.());

  const token = () => signInternalToken(secret, { userId: 'u1', username: 'ada', isAdmin: false });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(base + path, {
      ...init,
      headers: { 'x-shiplog-internal-token': token(), 'content-type': 'application/json', ...init.headers },
    });

  it('lists every route it answers, lean reads included', () => {
    expect(routes).toEqual([
      { method: 'GET', path: '/lean' },
      { method: 'GET', path: '/lean/conflict' },
      { method: 'GET', path: '/lean/boom' },
      { method: 'POST', path: '/things' },
      { method: 'GET', path: '/conflict' },
      { method: 'GET', path: '/boom' },
      { method: 'GET', path: '/mine' },
      { method: 'GET', path: '/mine/by-token' },
      { method: 'POST', path: '/mine/credential' },
    ]);
  });

  it('answers each route at its one path: another case or a trailing slash is a 404', async () => {
    expect((await call('/mine')).status).toBe(200);
    for (const variant of ['/mine/', '/MINE', '/Mine/By-Token', '/mine/by-token/', '/mine/credential/'])
      expect((await call(variant, { method: variant.includes('credential') ? 'POST' : 'GET' })).status).toBe(404);
  });

  it('refuses what the signed caller does not allow: a token where the route takes none, a stale password', async () => {
    const token = { id: 't1', name: 'CI', scope: 'write' as const, workspaceId: null };
    const as = (claims: { apiToken?: typeof token; recentAuth?: boolean }) => ({
      'x-shiplog-internal-token': signInternalToken(secret, {
        userId: 'u1',
        username: 'ada',
        isAdmin: false,
        ...claims,
      }),
    });
    const byToken = as({ apiToken: token });
    const refused = await call('/mine', { headers: byToken });
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe('API_TOKEN_NOT_ACCEPTED');
    expect((await call('/lean/conflict', { headers: byToken })).status).toBe(401);
    expect(await (await call('/mine/by-token', { headers: byToken })).json()).toEqual({ userId: 'u1' });
    expect((await call('/lean', { headers: byToken })).status).toBe(200);

    const credential = (headers: Record<string, string>) => call('/mine/credential', { method: 'POST', headers });
    expect((await credential(byToken)).status).toBe(401);
    const stale = await credential(as({}));
    expect(stale.status).toBe(403);
    expect((await stale.json()).code).toBe('REAUTH_REQUIRED');
    expect((await credential(as({ recentAuth: true }))).status).toBe(201);
    // A token's claim of a recent password counts for nothing.
    expect((await credential(as({ apiToken: token, recentAuth: true }))).status).toBe(401);
  });

  it('answers health and readiness without a token', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ checks: { database: 'ok' } });
  });

  it('renders the fixed error body for every kind of failure, and never leaks a 500 cause', async () => {
    const expectBody = async (response: Response, status: number, body: unknown) => {
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual(body);
    };
    await expectBody(await fetch(`${base}/things`, { method: 'POST' }), 401, {
      message: 'This service only answers the gateway (missing or invalid internal token)',
      code: 'INTERNAL_TOKEN_REQUIRED',
    });
    await expectBody(await call('/things', { method: 'POST', body: '{"name":' }), 400, {
      message: 'The request body is not valid JSON',
      code: 'INVALID_JSON',
    });
    await expectBody(await call('/things', { method: 'POST', body: '{"name":""}' }), 400, {
      message: 'Name is required',
      code: 'VALIDATION_FAILED',
      fieldErrors: { name: ['Name is required'] },
    });
    await expectBody(
      await call('/things', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2_000_000) }) }),
      413,
      {
        message: 'The request body is too large',
        code: 'PAYLOAD_TOO_LARGE',
      },
    );
    await expectBody(await call('/conflict'), 409, { message: 'Already there', code: 'ALREADY' });
    await expectBody(await call('/nowhere'), 404, { message: 'Not found', code: 'NOT_FOUND' });
    await expectBody(await call('/boom'), 500, {
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL_ERROR',
    });
    expect((await call('/things', { method: 'POST', body: '{"name":"ok"}' })).status).toBe(201);
  });

  it('answers lean reads (no Express) by the same rules: the token, the error body, HEAD, the query', async () => {
    const refused = await fetch(`${base}/lean`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      message: 'This service only answers the gateway (missing or invalid internal token)',
      code: 'INTERNAL_TOKEN_REQUIRED',
    });
    const forged = await fetch(`${base}/lean`, { headers: { 'x-shiplog-internal-token': `${token()}x` } });
    expect(forged.status).toBe(401);

    const read = await call('/lean?q=search%20me');
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await read.json()).toEqual({ userId: 'u1', q: 'search me' });
    const head = await call('/lean', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');

    expect(await (await call('/lean/conflict')).json()).toEqual({ message: 'Already there', code: 'ALREADY' });
    const boom = await call('/lean/boom');
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL_ERROR',
    });
    // Only GET and HEAD of the exact path: anything else is Express's (here: no such route).
    expect((await call('/lean', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await call('/lean/')).status).toBe(404);
  });
});

describe('readiness', () => {
  it('tells a load balancer only ok or failed, and what failed only to whom may read the metrics', async () => {
    const app = express();
    healthRoutes(
      app,
      { database: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432')), bus: async () => {} },
      { access: { token: 'operator-token', production: true }, system: { billing: async () => {} } },
    );
    app.use(errorHandler(createLogger('kit-test', 'silent')));
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const operator = { authorization: 'Bearer operator-token' };
      const publicly = await fetch(`${base}/readyz`);
      expect(publicly.status).toBe(503);
      expect(await publicly.json()).toEqual({ checks: { database: 'failed', bus: 'ok' } });
      expect(await (await fetch(`${base}/readyz`, { headers: operator })).json()).toEqual({
        checks: { database: 'connect ECONNREFUSED 10.0.0.7:5432', bus: 'ok' },
      });
      // The whole system's view calls everything it names: an operator's alone.
      expect((await fetch(`${base}/readyz/system`)).status).toBe(401);
      expect((await fetch(`${base}/readyz/system`, { headers: { authorization: 'Bearer guess' } })).status).toBe(401);
      const system = await fetch(`${base}/readyz/system`, { headers: operator });
      expect(system.status).toBe(503);
      expect(await system.json()).toEqual({
        checks: { database: 'connect ECONNREFUSED 10.0.0.7:5432', bus: 'ok', billing: 'ok' },
      });
    } finally {
      server.close();
    }
  });
});

describe('handleCommand', () => {
  type Logged = EventOf<'QuickUpdateLogged'>;
  /** Counts a project's quick updates; each command logs one more. */
  const counter: Decider<number, { notes: string }, Logged> = {
    initialState: () => 0,
    evolve: (count) => count + 1,
    decide: (command, _count, now) => [
      {
        type: 'QuickUpdateLogged',
        data: {
          projectId: newId(),
          userId: newId(),
          name: 'Counter',
          notes: command.notes,
          redeployed: false,
          backedUp: false,
          at: now.toISOString(),
        },
      },
    ],
  };

  it('folds the stream’s history, or skips reading it for a stream known to be new', async () => {
    const store = new PostgresEventStore(pool, 'commands');
    await store.migrate();
    const stream = `counter-${newId()}`;
    const context = { userId: null, correlationId: 'c1', now: new Date() };
    const first = await handleCommand(store, stream, counter, { notes: 'one' }, { ...context, newStream: true });
    expect(first.state).toBe(1);
    expect((await handleCommand(store, stream, counter, { notes: 'two' }, context)).state).toBe(2);
    // Claiming a stream that exists is a conflict, never an append after its history.
    await expect(
      handleCommand(store, stream, counter, { notes: 'three' }, { ...context, newStream: true }),
    ).rejects.toMatchObject({ status: 409, code: 'CONCURRENCY_CONFLICT' });
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  it('decides inside a caller’s transaction on that one connection, seeing its own appends', async () => {
    // A pool of one: a second connection would never come.
    const single = new pg.Pool({ connectionString: db.url, max: 1 });
    const store = new PostgresEventStore(single, 'commands');
    await store.migrate();
    const stream = `counter-${newId()}`;
    const tx = await single.connect();
    try {
      await tx.query('BEGIN');
      await store.lockForAppend(tx);
      const context = { userId: null, correlationId: 'c2', transaction: tx, now: new Date() };
      expect((await handleCommand(store, stream, counter, { notes: 'one' }, context)).state).toBe(1);
      // The second command reads the first one's uncommitted append, so it expects revision 0.
      expect((await handleCommand(store, stream, counter, { notes: 'two' }, context)).state).toBe(2);
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }
    expect(await store.readStream(stream)).toHaveLength(2);
    await single.end();
  });
});
