import { setTimeout as sleep } from 'node:timers/promises';
import { redisUrl } from '@shiplog/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend, uniqueUsername } from './harness.ts';

/**
 * OWASP ASVS 4.0 level 2, V2 (authentication) and V3 (sessions), checked against the running backend.
 * Each `describe` names the requirement it proves.
 */
let backend: Backend;
/** The same backend, with sessions that end after 2 s idle and 5 s in all. */
let shortLived: Backend;

beforeAll(async () => {
  [backend, shortLived] = await Promise.all([
    startBackend(),
    startBackend({ env: { SESSION_IDLE_TIMEOUT_SECONDS: '2', SESSION_ABSOLUTE_TIMEOUT_SECONDS: '5' } }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([backend?.stop(), shortLived?.stop()]);
});

/** Both serving paths: a service's read (the lean path) and the gateway's own (Express). */
async function signedIn(client: Client): Promise<[number, number]> {
  const [projects, user] = await Promise.all([client.get('/api/projects'), client.get('/api/user')]);
  return [projects.status, user.status];
}

describe('V3.3 session timeouts: 30 minutes idle and 12 hours in all by default, configurable', () => {
  it('keeps a session in use alive past the idle time, and ends it once idle that long', async () => {
    const { client } = await shortLived.signUp('idle');
    // In use for 3 s (longer than the 2 s idle time): still signed in.
    for (let i = 0; i < 6; i++) {
      expect(await signedIn(client)).toEqual([200, 200]);
      await sleep(500);
    }
    await sleep(2_600);
    expect(await signedIn(client)).toEqual([401, 401]);
  });

  it('ends a session at its absolute time however busy it is', async () => {
    const { client } = await shortLived.signUp('absolute');
    // Signed in before this moment, so the session's end is less than 5 s from it.
    const started = Date.now();
    /** When the last request that found the session signed in was sent. */
    let lastSignedIn = 0;
    while (Date.now() - started < 7_000) {
      const sent = Date.now() - started;
      const [projects, user] = await signedIn(client);
      if (projects === 200 && user === 200) lastSignedIn = sent;
      // At the very end the two may straddle it; either answer is one of the two.
      expect([200, 401]).toContain(projects);
      expect([200, 401]).toContain(user);
      await sleep(250);
    }
    expect(await signedIn(client)).toEqual([401, 401]);
    expect(lastSignedIn).toBeGreaterThan(3_500);
    expect(lastSignedIn).toBeLessThan(5_000);
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
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const ttl = await redis.ttl(`${backend.busNamespace}:sess:${sid}`);
      expect(ttl).toBeGreaterThan(30 * 60 - 60);
      expect(ttl).toBeLessThanOrEqual(30 * 60);
    } finally {
      await redis.quit();
    }
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
  });

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
