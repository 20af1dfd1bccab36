import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend, uniqueUsername } from './harness.ts';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe('when a service is down', () => {
  it('answers 503 for what it owns, keeps the session usable, and readiness reports it', async () => {
    const client = new Client(backend.url);
    const username = uniqueUsername('outage');
    expect((await client.post('/api/register', { username, password: 'secret-pass-1' })).status).toBe(201);

    await backend.service('billing').stop();
    const status = await client.get('/api/subscription/status');
    expect(status.status).toBe(503);
    expect(status.body).toEqual({
      message: 'The billing service is not available right now. Please try again.',
      code: 'SERVICE_UNAVAILABLE',
    });
    // The account still loads; only the subscription part is unknown.
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username, subscriptionStatus: null });
    const ready = await fetch(`${backend.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.billing).not.toBe('ok');

    await backend.service('identity').stop();
    const login = await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' });
    expect(login.status).toBe(503);
    expect(login.body.code).toBe('SERVICE_UNAVAILABLE');
  });
});
