import { parsePositions, signInternalToken } from '@shiplog/service-kit';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { redisUrl } from '@shiplog/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
const ADMIN_PASSWORD = 'admin-secret-1';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
});
afterAll(async () => {
  await backend?.stop();
});

async function registered(prefix = 'user') {
  const client = new Client(backend.url);
  const username = uniqueUsername(prefix);
  const response = await client.post('/api/register', {
    username,
    password: 'secret-pass-1',
    email: `${username}@example.com`,
  });
  expect(response.status).toBe(201);
  return { client, username, user: response.body };
}

describe('register', () => {
  it('creates the account, signs in, and shows the trial that billing started from the event', async () => {
    const client = new Client(backend.url);
    const username = uniqueUsername('ada');
    const response = await client.post('/api/register', {
      username,
      password: 'secret-pass-1',
      email: 'ada@example.com',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      username,
      email: 'ada@example.com',
      subscriptionStatus: 'trialing',
      trialEndDate: expect.any(String),
      isAdmin: false,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/argon2|password/i);
    // Straight after registering, through the gateway: the trial billing started on UserRegistered.
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(response.body);
    const days = (new Date(me.body.trialEndDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const status = await client.get('/api/subscription/status');
    expect(status.body).toMatchObject({ status: 'trialing', daysRemaining: 30 });
  });

  it('reports the position of the published UserRegistered, which billing reaches (read-your-writes)', async () => {
    const token = signInternalToken(backend.internalTokenSecret, {
      userId: null,
      username: null,
      isAdmin: false,
    });
    const response = await fetch(`${backend.service('identity').url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shiplog-internal-token': token },
      body: JSON.stringify({ username: uniqueUsername('rw'), password: 'secret-pass-1' }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const position = parsePositions(response.headers.get('x-shiplog-position') ?? undefined).get('identity');
    const [registeredEvent] = await backend.service('identity').context.store.readStream(`user-${id}`);
    expect(registeredEvent?.type).toBe('UserRegistered');
    expect(position).toEqual(registeredEvent?.position);
    const [trials] = backend.service('billing').consumers;
    expect(await trials!.waitForPosition('identity', position!, 3000)).toBe(true);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie (not Secure over plain HTTP), and the write’s position beside it', async () => {
    const client = new Client(backend.url);
    const response = await client.post('/api/register', { username: uniqueUsername(), password: 'secret-pass-1' });
    const session = response.setCookies.filter((c) => c.startsWith('shiplog.sid='));
    expect(session).toHaveLength(1);
    expect(session[0]).toMatch(/HttpOnly/i);
    expect(session[0]).toMatch(/SameSite=Lax/i);
    expect(session[0]).not.toMatch(/Secure/i);
    // Read-your-writes: the position identity reached travels with the client, signed, for /api only.
    const position = response.setCookies.filter((c) => c.startsWith('shiplog.after.identity='));
    expect(position).toHaveLength(1);
    expect(position[0]).toMatch(/^shiplog\.after\.identity=\d+%2F\d+\.[^;]+; Path=\/api; HttpOnly; SameSite=Lax$/);
  });

  it('marks the cookie Secure behind an HTTPS proxy', async () => {
    const client = new Client(backend.url);
    const response = await client.post(
      '/api/register',
      { username: uniqueUsername(), password: 'secret-pass-1' },
      { 'x-forwarded-proto': 'https' },
    );
    expect(response.status).toBe(201);
    expect(response.setCookies.length).toBeGreaterThanOrEqual(2);
    for (const setCookie of response.setCookies) expect(setCookie).toMatch(/; Secure/i);
  });

  it('answers every validation rule with the spec message', async () => {
    const client = new Client(backend.url);
    const response = await client.post('/api/register', { username: 'ab', password: '12345', email: 'not-an-email' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Username must be at least 3 characters',
      fieldErrors: {
        username: ['Username must be at least 3 characters'],
        password: ['Password must be at least 6 characters'],
        email: ['Invalid email address'],
      },
    });
    const empty = await client.post('/api/register', {});
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors.username).toEqual(['Username must be at least 3 characters']);
    const wrongTypes = await client.post('/api/register', { username: 42, password: ['x'] });
    expect(wrongTypes.status).toBe(400);
    // Empty email is allowed and stored as none.
    const noEmail = await client.post('/api/register', {
      username: uniqueUsername(),
      password: 'secret-pass-1',
      email: '',
    });
    expect(noEmail.status).toBe(201);
    expect(noEmail.body.email).toBeNull();
  });

  it('refuses a taken username with 409, whatever its case', async () => {
    const { username } = await registered('taken');
    const again = await new Client(backend.url).post('/api/register', {
      username: username.toUpperCase(),
      password: 'secret-pass-1',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'USERNAME_TAKEN', message: 'Username already exists' });
  });

  it('never lets anyone register the admin username', async () => {
    for (const name of ['admin', 'Admin']) {
      const response = await new Client(backend.url).post('/api/register', {
        username: name,
        password: 'secret-pass-1',
      });
      expect(response.status).toBe(409);
    }
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await new Client(backend.url).request('POST', '/api/register', '{"username":', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'INVALID_JSON' });
  });

  it('answers a deeply nested body with 400 on the calls the gateway passes on itself', async () => {
    // Valid JSON that JSON.parse reads but JSON.stringify cannot write back (its stack runs out).
    const nested = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const deep = `{"username":${nested},"password":"secret-pass-1","currentPassword":${nested},"newPassword":"secret-pass-2"}`;
    const client = new Client(backend.url);
    for (const path of ['/api/register', '/api/login']) {
      const response = await client.request('POST', path, deep);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const { client: signedIn } = await registered('deep');
    const change = await signedIn.request('POST', '/api/user/change-password', deep);
    expect(change.status).toBe(400);
  });
});

describe('login and logout', () => {
  it('signs in with the right password and answers the user', async () => {
    const { username, user } = await registered('login');
    const client = new Client(backend.url);
    const response = await client.post('/api/login', { username, password: 'secret-pass-1' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(user);
    expect((await client.get('/api/user')).body.username).toBe(username);
  });

  it('validates with the spec messages and refuses bad credentials with 401', async () => {
    const client = new Client(backend.url);
    const invalid = await client.post('/api/login', { username: '', password: '123' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors).toEqual({
      username: ['Username is required'],
      password: ['Password must be at least 6 characters'],
    });
    const { username } = await registered('wrongpw');
    const wrong = await client.post('/api/login', { username, password: 'not-the-one' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
    const unknown = await client.post('/api/login', { username: uniqueUsername('ghost'), password: 'whatever-pass-1' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(client.cookie).toBeUndefined();
  });

  it('gives a new session id at login and the old one stops working', async () => {
    const { client, username } = await registered('fixation');
    const before = client.cookie;
    const response = await client.post('/api/login', { username, password: 'secret-pass-1' });
    expect(response.status).toBe(200);
    expect(client.cookie).toBeDefined();
    expect(client.cookie).not.toBe(before);
    const stale = new Client(backend.url);
    stale.cookie = before;
    expect((await stale.get('/api/user')).status).toBe(401);
  });

  it('destroys the session at logout', async () => {
    const { client } = await registered('logout');
    const cookie = client.cookie;
    const response = await client.post('/api/logout');
    expect(response.status).toBe(200);
    expect(response.setCookie).toMatch(/shiplog\.sid=;/);
    expect((await client.get('/api/user')).status).toBe(401);
    const replay = new Client(backend.url);
    replay.cookie = cookie;
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('signs in the admin account from ADMIN_PASSWORD, with admin rights', async () => {
    const client = new Client(backend.url);
    const response = await client.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ username: 'admin', isAdmin: true });
  });

  it('answers 401 with the error body when not signed in', async () => {
    const response = await new Client(backend.url).get('/api/user');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Not signed in', code: 'UNAUTHORIZED' });
    expect((await new Client(backend.url).get('/api/subscription/status')).status).toBe(401);
  });
});

describe('login rate limit', () => {
  it('answers 429 after 10 failures for one name from one address, without locking the owner out elsewhere', async () => {
    const { username } = await registered('limited');
    const attacker = new Client(backend.url);
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 10; i++) {
      expect(
        (await attacker.post('/api/login', { username, password: 'guess-wrong' }, from('203.0.113.7'))).status,
      ).toBe(401);
    }
    const blocked = await attacker.post('/api/login', { username, password: 'secret-pass-1' }, from('203.0.113.7'));
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Redis holds the counts under keyed hashes: neither the name nor the address appears.
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const keys = await redis.keys(`${backend.busNamespace}:login-fail*`);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const key of keys) {
        expect(key.toLowerCase()).not.toContain(username.toLowerCase());
        expect(key).not.toContain('203.0.113.7');
      }
    } finally {
      await redis.quit();
    }
    // The owner, from another address, still signs in.
    expect(
      (await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' }, from('198.51.100.9')))
        .status,
    ).toBe(200);
    // Another account from the attacker's address is not blocked by this one's failures.
    const other = await registered('neighbour');
    expect(
      (
        await new Client(backend.url).post(
          '/api/login',
          { username: other.username, password: 'secret-pass-1' },
          from('203.0.113.7'),
        )
      ).status,
    ).toBe(200);
  });

  it('does not throttle successful sign-ins', async () => {
    const { username } = await registered('busy');
    const results = [];
    for (let i = 0; i < 25; i++)
      results.push((await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' })).status);
    expect(results.every((s) => s === 200)).toBe(true);
  });
});

describe('gateway boundaries', () => {
  it('refuses state-changing requests from a foreign Origin', async () => {
    const { client, username } = await registered('csrf');
    const foreign = { origin: 'https://evil.example' };
    expect((await client.post('/api/logout', undefined, foreign)).status).toBe(403);
    expect((await client.get('/api/user')).status).toBe(200);
    const login = await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' }, foreign);
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('FOREIGN_ORIGIN');
    expect((await client.post('/api/logout', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Our own origin passes.
    expect((await client.post('/api/logout', undefined, { origin: backend.url })).status).toBe(200);
  });

  it('ignores identity headers a client sends', async () => {
    const victim = await registered('victim');
    const forged = signInternalToken('not-the-secret-not-the-secret-123', {
      userId: victim.user.id,
      username: victim.username,
      isAdmin: true,
    });
    const spoof = {
      'x-shiplog-internal-token': forged,
      'x-user-id': victim.user.id,
      'x-forwarded-user': victim.username,
    };
    const anonymous = new Client(backend.url);
    expect((await anonymous.get('/api/user', spoof)).status).toBe(401);
    expect((await anonymous.get('/api/subscription/status', spoof)).status).toBe(401);
    const attacker = await registered('attacker');
    const me = await attacker.client.get('/api/user', spoof);
    expect(me.body.id).toBe(attacker.user.id);
    expect(me.body.isAdmin).toBe(false);
  });

  it('services refuse calls without a valid internal token', async () => {
    const plain = await fetch(`${backend.service('identity').url}/users/me`);
    expect(plain.status).toBe(401);
    expect(await plain.json()).toMatchObject({ code: 'INTERNAL_TOKEN_REQUIRED' });
    const forged = signInternalToken('wrong-secret-wrong-secret-wrong-secret', {
      userId: null,
      username: null,
      isAdmin: true,
    });
    const wrong = await fetch(`${backend.service('billing').url}/subscription/status`, {
      headers: { 'x-shiplog-internal-token': forged },
    });
    expect(wrong.status).toBe(401);
    const expired = signInternalToken(
      backend.internalTokenSecret,
      { userId: null, username: null, isAdmin: false },
      -5,
    );
    expect(
      (await fetch(`${backend.service('identity').url}/users/me`, { headers: { 'x-shiplog-internal-token': expired } }))
        .status,
    ).toBe(401);
  });

  it('answers unknown API paths with a JSON 404 and serves health and readiness', async () => {
    const { client } = await registered('paths');
    const missing = await client.get('/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    // Outside /api too, for any method the pages do not take.
    for (const [method, path] of [
      ['POST', '/'],
      ['PUT', '/projects'],
      ['DELETE', '/no-such-page'],
    ]) {
      const answer = await client.request(method!, path!, {});
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    }
    expect((await fetch(`${backend.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${backend.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ checks: { redis: 'ok', nats: 'ok' } });
    const system = await fetch(`${backend.url}/readyz/system`);
    expect(system.status).toBe(200);
    expect(await system.json()).toEqual({
      checks: {
        redis: 'ok',
        nats: 'ok',
        identity: 'ok',
        billing: 'ok',
        projects: 'ok',
        reminders: 'ok',
        activity: 'ok',
        chat: 'ok',
        integrations: 'ok',
        monitors: 'ok',
      },
    });
  });
});
