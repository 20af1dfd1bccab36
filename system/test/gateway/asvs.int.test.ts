import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { redisUrl, waitUntil } from '@shiplog/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * OWASP ASVS 4.0 level 2, V2 (authentication) and V3 (sessions), checked against the running backend.
 * Each `describe` names the requirement it proves.
 */
let backend: Backend;
/**
 * Another gateway over the same services and Redis, whose sessions end after 2 s idle and 5 s in all,
 * timed by a clock the tests move on (`pass`); Redis times the idle part by the key's TTL.
 */
let shortLived: string;
let passed = 0;
const pass = (ms: number) => {
  passed += ms;
};
let redis: ReturnType<typeof createClient>;

beforeAll(async () => {
  backend = await startBackend();
  shortLived = await backend.startReplica(
    // Ten times the real time the steps below may take on a busy machine.
    { SESSION_IDLE_TIMEOUT_SECONDS: '20', SESSION_ABSOLUTE_TIMEOUT_SECONDS: '50' },
    { now: () => Date.now() + passed },
  );
  redis = createClient({ url: redisUrl });
  await redis.connect();
}, 60_000);
afterAll(async () => {
  await redis?.quit();
  await backend?.stop();
});

/** The Redis key of the client's session. */
function sessionKey(client: Client): string {
  const value = decodeURIComponent(client.sessionCookie!.split('=')[1]!);
  return `${backend.busNamespace}:sess:${/^s:([^.]+)\./.exec(value)![1]}`;
}

/** A new account registered through the gateway at `url`, and its signed-in client. */
async function signUpAt(url: string, prefix: string): Promise<Client> {
  const client = new Client(url);
  const response = await client.post('/api/register', { username: uniqueUsername(prefix), password: 'secret-pass-1' });
  expect(response.status).toBe(201);
  return client;
}

/** Both serving paths: a service's read (the lean path) and the gateway's own (Express). */
async function signedIn(client: Client): Promise<[number, number]> {
  const [projects, user] = await Promise.all([client.get('/api/projects'), client.get('/api/user')]);
  return [projects.status, user.status];
}

describe('V3.3 session timeouts: 30 minutes idle and 12 hours in all by default, configurable', () => {
  it('keeps a session in use alive past the idle time, and ends it once idle that long', async () => {
    passed = 0;
    const signingUp = Date.now();
    const client = await signUpAt(shortLived, 'idle');
    const key = sessionKey(client);
    expect(await redis.pTTL(key)).toBeGreaterThan(15_000);
    expect(await redis.pTTL(key)).toBeLessThanOrEqual(20_000);
    // Idle all but the last 400 ms of it (Redis's clock), 30 s after sign-in (the gateway's): a request
    // still finds the session, and pushes its end back by the whole idle time.
    await redis.pExpire(key, 400);
    pass(30_000);
    expect(await signedIn(client)).toEqual([200, 200]);
    // Pushed back from the 400 ms it had left: by the whole idle time, as far as the 50 s in all allow
    // (30 s of them passed on the gateway's clock, and however long this machine took since sign-up).
    expect(await redis.pTTL(key)).toBeGreaterThan(Math.max(400, 20_000 - (Date.now() - signingUp) - 50));
    // Idle the whole time: Redis drops it, and the session is over on both serving paths.
    await redis.pExpire(key, 1);
    await waitUntil(async () => (await redis.exists(key)) === 0, 2_000, 'the idle session to expire');
    expect(await signedIn(client)).toEqual([401, 401]);
  });

  it('ends a session at its absolute time however busy it is', async () => {
    passed = 0;
    const client = await signUpAt(shortLived, 'absolute');
    const key = sessionKey(client);
    // Busy all along: 40 s after sign-in (and the real time this takes) it is still on, with no more
    // than its last 10 s left in Redis.
    for (const step of [15_000, 15_000, 10_000]) {
      pass(step);
      expect(await signedIn(client)).toEqual([200, 200]);
    }
    expect(await redis.pTTL(key)).toBeLessThanOrEqual(10_000);
    // 50 s after sign-in, however recently it was used: over at once, before Redis has dropped it.
    pass(10_000);
    expect(await signedIn(client)).toEqual([401, 401]);
  });

  it('defaults to 30 minutes idle and 12 hours in all', async () => {
    const response = await fetch(`${backend.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: uniqueUsername('ttl'), password: 'secret-pass-1' }),
    });
    expect(response.status).toBe(201);
    const sessionCookie = response.headers.getSetCookie().find((c) => c.startsWith('shiplog.sid='))!;
    const expires = Date.parse(/Expires=([^;]+)/.exec(sessionCookie)![1]!);
    expect(Math.abs(expires - Date.now() - 12 * 3_600_000)).toBeLessThan(60_000);
    const sid = /^s:([^.]+)\./.exec(decodeURIComponent(sessionCookie.split(';')[0]!.slice('shiplog.sid='.length)))![1];
    const ttl = await redis.ttl(`${backend.busNamespace}:sess:${sid}`);
    expect(ttl).toBeGreaterThan(30 * 60 - 60);
    expect(ttl).toBeLessThanOrEqual(30 * 60);
  });
});

describe('V2.1 passwords: up to at least 64 characters, never a common one', () => {
  it('takes passwords of 64 and 128 characters, spaces and any script included', async () => {
    for (const password of ['p'.repeat(64), `long pass phrase ✓ ${'ü'.repeat(110)}`]) {
      const client = new Client(backend.url);
      const username = uniqueUsername('long');
      expect((await client.post('/api/register', { username, password })).status).toBe(201);
      expect((await new Client(backend.url).post('/api/login', { username, password })).status).toBe(200);
    }
  });

  it('refuses a common password at registration and at a change, with the reason on the field', async () => {
    const refused = await new Client(backend.url).post('/api/register', {
      username: uniqueUsername('common'),
      password: 'Password1',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({
      password: ['This password is too common. Please choose a less common one.'],
    });
    const { client } = await backend.signUp('changer');
    const change = await client.post('/api/user/change-password', {
      oldPassword: 'secret-pass-1',
      newPassword: 'letmein',
    });
    expect(change.status).toBe(400);
    expect(change.body.fieldErrors).toEqual({
      newPassword: ['This password is too common. Please choose a less common one.'],
    });
  });
});

describe('V2.2 no user enumeration, and throttling that holds under a burst', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  let next = 0;
  /** A fresh documentation address (RFC 5737) per call, so no budget of another test is shared. */
  const address = () => `192.0.2.${(next++ % 250) + 1}`;

  it('answers an unknown name and a wrong password alike, in the same time (medians within 10%)', async () => {
    const users = await Promise.all([1, 2, 3].map(() => backend.signUp('known')));
    const unknown: number[] = [];
    const wrong: number[] = [];
    const bodies = new Set<string>();
    const timed = async (username: string, into: number[]) => {
      const started = performance.now();
      const response = await new Client(backend.url).post(
        '/api/login',
        { username, password: 'not-the-password' },
        from(`198.18.${next++ % 250}.${(next % 250) + 1}`),
      );
      into.push(performance.now() - started);
      expect(response.status).toBe(401);
      bodies.add(JSON.stringify(response.body));
    };
    for (let i = 0; i < 21; i++) {
      // Alternating, so that a slow moment of the machine falls on both.
      await timed(uniqueUsername('nobody'), unknown);
      await timed(users[i % 3]!.username, wrong);
    }
    expect([...bodies]).toEqual([
      JSON.stringify({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }),
    ]);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [a, b] = [median(unknown.slice(1)), median(wrong.slice(1))];
    process.stdout.write(`login failure medians: unknown name ${a.toFixed(1)} ms, wrong password ${b.toFixed(1)} ms\n`);
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.1);
    // Many sign-ins, each a password hash: on a busy machine more than the default 20 s.
  }, 60_000);

  it('lets at most 10 of a parallel burst for one name from one address reach the password check', async () => {
    const { username } = await backend.signUp('burst');
    const ip = address();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        new Client(backend.url).post('/api/login', { username, password: 'guess-wrong' }, from(ip)),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('holds one name against a burst from many addresses, and still lets the owner in from a known one', async () => {
    const { username } = await backend.signUp('spread');
    const home = address();
    // The owner has signed in from home before.
    expect(
      (await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' }, from(home))).status,
    ).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        new Client(backend.url).post(
          '/api/login',
          { username, password: 'guess-wrong' },
          from(`198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`),
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(70);
    // A new address may not try the name now; the owner's may.
    expect(
      (await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' }, from(address())))
        .status,
    ).toBe(429);
    expect(
      (await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' }, from(home))).status,
    ).toBe(200);
  });

  it('holds one address spraying many names to 100 password checks', async () => {
    const ip = address();
    const answers = await Promise.all(
      Array.from({ length: 160 }, () =>
        new Client(backend.url).post(
          '/api/login',
          { username: uniqueUsername('spray'), password: 'guess-wrong' },
          from(ip),
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
  });
});

describe('V3.4.1 and 3.4.4: served over HTTPS, the session cookie is Secure and __Host- prefixed', () => {
  /** A gateway over the same services, as deployed behind HTTPS. */
  let https: string;
  beforeAll(async () => {
    https = await backend.startReplica({ APP_URL: 'https://shiplog.test' });
  });

  it('whatever the connection it came on says, and the session works and ends with it', async () => {
    const client = new Client(https);
    // Plain HTTP from the test, and no X-Forwarded-Proto: the proxy in front says nothing.
    const response = await client.post('/api/register', { username: uniqueUsername('tls'), password: 'secret-pass-1' });
    expect(response.status).toBe(201);
    const session = response.setCookies.filter((c) => /^(__Host-)?shiplog\.sid=/.test(c));
    expect(session).toHaveLength(1);
    expect(session[0]).toMatch(/^__Host-shiplog\.sid=/);
    expect(session[0]).toMatch(/; Path=\/;/);
    expect(session[0]).toMatch(/; Secure/);
    expect(session[0]).toMatch(/; HttpOnly/);
    expect(session[0]).not.toMatch(/Domain=/i);
    // Both serving paths read it.
    expect(await signedIn(client)).toEqual([200, 200]);
    // A cookie by the old name is nobody's session.
    const old = await new Client(https).get('/api/user', {
      cookie: client.sessionCookie!.replace('__Host-', ''),
    });
    expect(old.status).toBe(401);
    const out = await client.post('/api/logout');
    expect(out.setCookies.find((c) => c.startsWith('__Host-shiplog.sid='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await signedIn(client)).toEqual([401, 401]);
  });
});

describe('V3.3.4: the user sees every signed-in session and can end any other, or all others', () => {
  const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  async function signInAs(username: string, userAgent: string) {
    const client = new Client(backend.url);
    const response = await client.post(
      '/api/login',
      { username, password: 'secret-pass-1' },
      { 'user-agent': userAgent, 'x-forwarded-for': '203.0.113.7' },
    );
    expect(response.status).toBe(200);
    return client;
  }

  it('lists them with device, address and times; ends one, then all but this one', async () => {
    const { client: laptop, username } = await backend.signUp('devices');
    const mac = await signInAs(username, firefox);
    const phone = await signInAs(username, iphone);

    const listed = await laptop.get('/api/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(3);
    // This session first.
    expect(listed.body[0]).toMatchObject({ current: true });
    const byBrowser = (name: string) => listed.body.find((s: { browser: string }) => s.browser.startsWith(name));
    expect(byBrowser('Firefox')).toMatchObject({
      browser: 'Firefox 128.0',
      os: 'macOS Sonoma',
      deviceType: 'desktop',
      current: false,
    });
    expect(byBrowser('Safari')).toMatchObject({ os: 'iOS 17.5', deviceType: 'mobile', current: false });
    for (const entry of listed.body) {
      expect(entry.id).toMatch(/^[\w-]{22}$/);
      expect(Date.parse(entry.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(entry.signedInAt));
      expect(Date.now() - Date.parse(entry.signedInAt)).toBeLessThan(60_000);
    }
    // The handle is not the session id, which is the credential.
    const sid = /^s:([^.]+)\./.exec(decodeURIComponent(laptop.sessionCookie!.split('=')[1]!))![1]!;
    expect(listed.text).not.toContain(sid);

    // This session cannot be ended from the list (signing out does that); a name of no session is a 404.
    const own = await laptop.request('DELETE', `/api/sessions/${listed.body[0].id}`);
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: 'CURRENT_SESSION', message: expect.any(String) });
    expect((await laptop.request('DELETE', `/api/sessions/${'x'.repeat(22)}`)).status).toBe(404);

    // Another user cannot end it.
    const { client: stranger } = await backend.signUp('stranger');
    expect((await stranger.request('DELETE', `/api/sessions/${byBrowser('Firefox').id}`)).status).toBe(404);
    expect(await signedIn(mac)).toEqual([200, 200]);

    // The Mac's session ends at once, on both serving paths; the phone's goes on.
    expect((await laptop.request('DELETE', `/api/sessions/${byBrowser('Firefox').id}`)).status).toBe(200);
    expect(await signedIn(mac)).toEqual([401, 401]);
    expect(await signedIn(phone)).toEqual([200, 200]);
    expect((await laptop.get('/api/sessions')).body).toHaveLength(2);

    // Every other session: the phone's ends, this one stays.
    expect((await laptop.post('/api/sessions/end-others')).status).toBe(200);
    expect(await signedIn(phone)).toEqual([401, 401]);
    expect(await signedIn(laptop)).toEqual([200, 200]);
    const left = await laptop.get('/api/sessions');
    expect(left.body).toEqual([expect.objectContaining({ current: true })]);
  });

  it('forgets a session signed out, and one that ended on its own', async () => {
    const { client, username } = await backend.signUp('expiring');
    const signInAgain = async () => {
      const other = new Client(backend.url);
      expect((await other.post('/api/login', { username, password: 'secret-pass-1' })).status).toBe(200);
      return other;
    };
    const out = await signInAgain();
    expect((await client.get('/api/sessions')).body).toHaveLength(2);
    expect((await out.post('/api/logout')).status).toBe(200);
    expect((await client.get('/api/sessions')).body).toHaveLength(1);
    // A session that timed out is a key Redis let go.
    const idle = await signInAgain();
    expect((await client.get('/api/sessions')).body).toHaveLength(2);
    const sid = /^s:([^.]+)\./.exec(decodeURIComponent(idle.sessionCookie!.split('=')[1]!))![1];
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      expect(await redis.del(`${backend.busNamespace}:sess:${sid}`)).toBe(1);
      expect((await client.get('/api/sessions')).body).toHaveLength(1);
      // …and forgotten: nothing of it is left beside the user's sessions.
      const info = await redis.hKeys(`${backend.busNamespace}:session-info:${(await client.get('/api/user')).body.id}`);
      expect(info).toHaveLength(2);
    } finally {
      await redis.quit();
    }
  });
});
