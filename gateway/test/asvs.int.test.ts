import { setTimeout as sleep } from 'node:timers/promises';
import { redisUrl } from '@shiplog/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type Client, startBackend, uniqueUsername } from './harness.ts';

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
    const started = Date.now();
    let lastSignedIn = 0;
    while (Date.now() - started < 7_000) {
      const [projects, user] = await signedIn(client);
      if (projects === 200 && user === 200) lastSignedIn = Date.now() - started;
      else expect([projects, user]).toEqual([401, 401]);
      await sleep(250);
    }
    expect(lastSignedIn).toBeGreaterThan(4_000);
    expect(lastSignedIn).toBeLessThan(5_300);
  });

  it('defaults to 30 minutes idle and 12 hours in all', async () => {
    const response = await fetch(`${backend.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: uniqueUsername('ttl'), password: 'secret1' }),
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
