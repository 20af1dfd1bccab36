import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitRules } from '@shiplog/gateway/limits';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The limits on the routes that cost real work (gateway/src/serving/limits.ts), one class of route each: a
 * signed-out route counted per address, a signed-in one per user, a stream counted while open. Each
 * answers 429 with Retry-After and the fixed error body once spent, before any service is called, and
 * nobody else is affected. The limits are set small here through the environment, as an operator would.
 */
let backend: Backend;
const dist = mkdtempSync(join(tmpdir(), 'shiplog-web-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>Shiplog</title></head><body></body></html>');

beforeAll(async () => {
  backend = await startBackend({
    env: {
      WEB_DIST: dist,
      RATE_LIMITS: 'on',
      RATE_LIMIT_REGISTER: '3/3600',
      RATE_LIMIT_CONTACT_ADMIN: '2/3600',
      RATE_LIMIT_OUTBOUND: '2/3600',
      RATE_LIMIT_PUBLIC_READ: '2/60',
      RATE_LIMIT_DEPLOY_HOOK: '2/60',
      RATE_LIMIT_IMPORT: '2/3600',
      RATE_LIMIT_CHAT: '2/3600',
      RATE_LIMIT_GRAPHQL: '2/60',
      RATE_LIMIT_EVENTS_CONCURRENT: '2',
    },
  });
});
afterAll(() => backend?.stop());

/** A request as if from `address`: the gateway trusts X-Forwarded-For from its loopback proxy. */
const from = (address: string) => ({ 'x-forwarded-for': address });

function expectRefused(response: { status: number; body: unknown; headers: Headers }) {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/try again|running/) });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

async function signUp(address: string) {
  const client = new Client(backend.url);
  const response = await client.post(
    '/api/register',
    { username: uniqueUsername('limited'), password: 'secret-pass-1' },
    from(address),
  );
  return { client, response };
}

describe('limits on costly routes', () => {
  it('counts sign-ups per address: the fourth from one address waits, another address does not', async () => {
    for (let i = 0; i < 3; i++) expect((await signUp('203.0.113.7')).response.status).toBe(201);
    expectRefused((await signUp('203.0.113.7')).response);
    expect((await signUp('203.0.113.8')).response.status).toBe(201);
  });

  it('counts an IPv6 client by its /64: new addresses of the same network wait too', async () => {
    for (let i = 1; i <= 3; i++) expect((await signUp(`2001:db8:7:7::${i}`)).response.status).toBe(201);
    expectRefused((await signUp('2001:db8:7:7:ffff:ffff:ffff:ffff')).response);
    expect((await signUp('2001:db8:7:8::1')).response.status).toBe(201);
  });

  it('counts a signed-in route per user, whatever it answered: another user keeps theirs', async () => {
    const a = (await signUp('198.51.100.1')).client;
    const b = (await signUp('198.51.100.2')).client;
    const message = { subject: 'Hello', message: 'A question' };
    expect((await a.post('/api/contact-admin', message)).status).toBe(201);
    expect((await a.post('/api/contact-admin', { subject: '' })).status).toBe(400);
    expectRefused(await a.post('/api/contact-admin', message));
    expect((await b.post('/api/contact-admin', message)).status).toBe(201);

    // The domain API checks, imports, the assistant and the dashboard's query: each its own budget.
    for (const path of ['/api/integration/test', '/api/import', '/api/chat', '/api/graphql']) {
      for (let i = 0; i < 2; i++) expect((await a.post(path, {})).status, path).not.toBe(429);
      expectRefused(await a.post(path, {}));
      expect((await b.post(path, {})).status, path).not.toBe(429);
    }
  });

  it('counts signed-out reads and deliveries per address', async () => {
    const { client } = await signUp('198.51.100.3');
    const username = (await client.get('/api/user')).body.username;
    const reader = new Client(backend.url);
    for (let i = 0; i < 2; i++)
      expect((await reader.get(`/api/public/users/${username}`, from('192.0.2.1'))).status).toBe(200);
    expectRefused(await reader.get(`/api/public/users/${username}`, from('192.0.2.1')));
    expect((await reader.get(`/api/public/users/${username}`, from('192.0.2.2'))).status).toBe(200);

    // The page's head reads the same data: counted alike, and over the limit it is the plain page.
    for (let i = 0; i < 2; i++)
      expect((await reader.get(`/u/${username}`, from('192.0.2.4'))).text).toContain('og:title');
    const plain = await reader.get(`/u/${username}`, from('192.0.2.4'));
    expect(plain.status).toBe(200);
    expect(plain.text).not.toContain('og:title');
    expect(plain.headers.get('retry-after')).toBeNull();
    expect((await reader.get(`/u/${username}`, from('192.0.2.5'))).text).toContain('og:title');

    for (let i = 0; i < 2; i++)
      expect((await reader.post('/api/hooks/deploy/nothing-here', {}, from('192.0.2.3'))).status).toBe(404);
    expectRefused(await reader.post('/api/hooks/deploy/nothing-here', {}, from('192.0.2.3')));
  });

  it('holds a user to two live streams at once, and gives a slot back when one closes', async () => {
    const a = (await signUp('198.51.100.4')).client;
    const b = (await signUp('198.51.100.5')).client;
    const open = (client: Client) => {
      const abort = new AbortController();
      return fetch(`${backend.url}/api/events`, { headers: { cookie: client.cookie! }, signal: abort.signal }).then(
        (response) => ({ response, close: () => abort.abort() }),
      );
    };
    const first = await open(a);
    const second = await open(a);
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    const third = await open(a);
    expect(third.response.status).toBe(429);
    expect(await third.response.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const other = await open(b);
    expect(other.response.status).toBe(200);
    first.close();
    await expect
      .poll(async () => {
        const again = await open(a);
        again.close();
        return again.response.status;
      })
      .toBe(200);
    second.close();
    other.close();
  });
});

describe('the limits’ settings', () => {
  it('take an operator’s changes from the environment, and keep the defaults otherwise', () => {
    const rules = limitRules({ RATE_LIMIT_REGISTER: '5/60', RATE_LIMIT_EVENTS_CONCURRENT: 3 });
    expect(rules.register).toMatchObject({ per: 'address', points: 5, seconds: 60 });
    expect(rules.events).toMatchObject({ per: 'user', concurrent: 3 });
    expect(rules.contactAdmin).toMatchObject({ points: 10, seconds: 3600 });
  });
});
