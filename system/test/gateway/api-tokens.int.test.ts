import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { metricValue, scrapeMetrics } from '@shiplog/testing/prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

async function signedUp() {
  const client = new Client(backend.url);
  const username = uniqueUsername('tok');
  expect((await client.post('/api/register', { username, password: 'secret-pass-1' })).status).toBe(201);
  return client;
}

/** A caller as the CLI or a CI job is: no cookies, no Origin, only `Authorization: Bearer`. */
function withToken(token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(backend.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      setCookie: response.headers.get('set-cookie'),
    };
  };
}

describe('personal API tokens', () => {
  it('are shown once, listed without their text, and act as their user on the project routes', async () => {
    const client = await signedUp();
    const created = await client.post('/api/tokens', { name: '  GitHub Actions  ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'GitHub Actions', lastUsedAt: null });
    expect(created.body.token).toMatch(/^shiplog_[A-Za-z0-9_-]{86}$/);
    const listed = await client.get('/api/tokens');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: created.body.id,
        name: 'GitHub Actions',
        createdAt: created.body.createdAt,
        expiresAt: created.body.expiresAt,
        lastUsedAt: null,
        scope: 'write',
        workspaceId: null,
      },
    ]);

    const api = withToken(created.body.token);
    const project = await api('POST', '/api/projects', { name: 'Made from CI', status: 'development' });
    expect(project.status).toBe(201);
    // No cookie for a token's caller; its own writes are still read back at once.
    expect(project.setCookie).toBeNull();
    expect((await api('GET', '/api/projects')).body.map((p: { name: string }) => p.name)).toEqual(['Made from CI']);
    const deployment = await api('POST', `/api/projects/${project.body.id}/deployment`, {
      environment: 'production',
      version: '1.2.0',
    });
    expect(deployment.status).toBe(201);
    const timeline = await api('GET', `/api/projects/${project.body.id}/activities`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.map((a: { eventType: string }) => a.eventType)).toContain('deployment');
    expect((await api('GET', '/api/activities')).status).toBe(200);
    // The browser's session sees what the token did.
    expect((await client.get('/api/projects')).body.map((p: { name: string }) => p.name)).toEqual(['Made from CI']);
    const used = (await client.get('/api/tokens')).body[0];
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('are refused on account, admin, billing, reminder and token routes, and on other users’ projects', async () => {
    const owner = await signedUp();
    const other = await signedUp();
    const foreign = await other.post('/api/projects', { name: 'Not yours' });
    const { token } = (await owner.post('/api/tokens', { name: 'laptop' })).body;
    const own = (await owner.post('/api/projects', { name: 'Mine' })).body;
    const api = withToken(token);
    for (const [method, path] of [
      // A project's deploy webhook URL is a credential: a token can neither read nor make one.
      ['GET', `/api/projects/${own.id}/deploy-hook`],
      ['POST', `/api/projects/${own.id}/deploy-hook`],
      ['DELETE', `/api/projects/${own.id}/deploy-hook`],
      ['DELETE', '/api/user'],
      ['GET', '/api/sessions'],
      ['GET', '/api/subscription/status'],
      ['GET', '/api/reminders'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/profile'],
      ['POST', '/api/user/change-password'],
    ] as const) {
      const answer = await api(method, path, method === 'POST' ? {} : undefined);
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
    const refused = await api('GET', '/api/reminders');
    expect(refused.body).toEqual({
      message: 'API tokens are accepted on the project and activity routes, /api/user and /api/export only',
      code: 'API_TOKEN_NOT_ACCEPTED',
    });
    expect((await api('GET', `/api/projects/${foreign.body.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/projects/${foreign.body.id}`)).status).toBe(404);
    // The account is still there.
    expect((await owner.get('/api/user')).status).toBe(200);
  });

  it('say whose they are (GET /api/user, `shiplog whoami`) without making a session', async () => {
    const owner = await signedUp();
    const me = (await owner.get('/api/user')).body;
    const { token } = (await owner.post('/api/tokens', { name: 'whoami' })).body;
    const answer = await withToken(token)('GET', '/api/user');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(me);
    expect(answer.setCookie).toBeNull();
  });

  it('stop working at the next request once revoked, or once the account is deleted', async () => {
    const client = await signedUp();
    const first = (await client.post('/api/tokens', { name: 'first' })).body;
    const second = (await client.post('/api/tokens', { name: 'second' })).body;
    expect((await client.get('/api/tokens')).body.map((t: { name: string }) => t.name)).toEqual(['second', 'first']);
    expect((await withToken(first.token)('GET', '/api/projects')).status).toBe(200);
    expect((await client.request('DELETE', `/api/tokens/${first.id}`)).status).toBe(204);
    const revoked = await withToken(first.token)('GET', '/api/projects');
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('INVALID_API_TOKEN');
    expect((await client.request('DELETE', `/api/tokens/${first.id}`)).status).toBe(404);
    expect((await client.get('/api/tokens')).body.map((t: { name: string }) => t.name)).toEqual(['second']);
    expect((await withToken(second.token)('GET', '/api/projects')).status).toBe(200);

    expect((await client.request('DELETE', '/api/user')).status).toBe(200);
    expect((await withToken(second.token)('GET', '/api/projects')).status).toBe(401);
  });

  it('ask identity once for a run of calls, and are refused by every gateway within a second of a revocation', async () => {
    const client = await signedUp();
    const made = (await client.post('/api/tokens', { name: 'ci' })).body;
    const checks = async () =>
      metricValue(await scrapeMetrics(backend.service('identity').url), 'shiplog_http_requests_total', {
        method: 'POST',
        route: '/tokens/verify',
      }) ?? 0;
    const before = await checks();
    for (let i = 0; i < 10; i++) expect((await withToken(made.token)('GET', '/api/projects')).status).toBe(200);
    expect(await checks()).toBe(before + 1);

    // A second gateway holds it too. The revocation goes through the first; the second hears it on the bus.
    const replica = await backend.startReplica();
    const viaReplica = async () =>
      (await fetch(`${replica}/api/projects`, { headers: { authorization: `Bearer ${made.token}` } })).status;
    expect(await viaReplica()).toBe(200);
    expect(await viaReplica()).toBe(200);
    expect((await client.request('DELETE', `/api/tokens/${made.id}`)).status).toBe(204);
    const revoked = performance.now();
    await waitUntil(async () => (await viaReplica()) === 401, 1000, 'the second gateway refusing the revoked token');
    expect(performance.now() - revoked).toBeLessThan(1000);
  });

  it('answer bad names and bad tokens with clear errors', async () => {
    const client = await signedUp();
    const blank = await client.post('/api/tokens', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Token name is required');
    const long = await client.post('/api/tokens', { name: 'x'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Token name must be at most 50 characters');
    expect((await client.request('DELETE', '/api/tokens/not-an-id')).status).toBe(404);

    const { token } = (await client.post('/api/tokens', { name: 'real' })).body;
    // The real token with its last character changed (to one it does not already have).
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['nope', altered, token.replace('shiplog_', 'shiplog-')]) {
      const answer = await withToken(bad)('GET', '/api/projects');
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('INVALID_API_TOKEN');
    }
    const malformed = await fetch(`${backend.url}/api/projects`, { headers: { authorization: 'Bearer' } });
    expect(malformed.status).toBe(401);
    // Another scheme is not ours: a proxy's Basic sign-in leaves the session to decide.
    const basic = await fetch(`${backend.url}/api/projects`, {
      headers: { authorization: 'Basic dXNlcjpwYXNz', cookie: client.cookie ?? '' },
    });
    expect(basic.status).toBe(200);
  });

  it('are limited to 20 at a time', async () => {
    const client = await signedUp();
    for (let i = 0; i < 20; i++) expect((await client.post('/api/tokens', { name: `t${i}` })).status).toBe(201);
    const over = await client.post('/api/tokens', { name: 'one more' });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('You can have at most 20 API tokens. Revoke one you no longer use first.');
  });
});
