/**
 * The read path's session cache against a real Redis: a held user must go the moment Redis says its
 * session changed, and everything held must go when the connection that Redis tracks for us is lost.
 */

import { randomUUID } from 'node:crypto';
import { loadConfig } from '@shiplog/service-kit';
import { redisUrl, waitUntil } from '@shiplog/testing';
import signature from 'cookie-signature';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayEnv } from '../env.ts';
import { PositionCookies } from './positions.ts';
import { SessionCache } from './session-cache.ts';
import { SessionLifetime, SessionReader } from './sessions.ts';

const secret = 'a-session-secret-of-at-least-32-characters';
const prefix = `test-${randomUUID().slice(0, 8)}:sess:`;
let writer: RedisClientType;
let tracked: RedisClientType;
let cache: SessionCache;
let sessions: SessionReader;

beforeAll(async () => {
  writer = createClient({ url: redisUrl }) as RedisClientType;
  await writer.connect();
  cache = new SessionCache({ prefix, ttlMs: 60_000, maxEntries: 100 });
  tracked = createClient({ url: redisUrl, RESP: 3, clientSideCache: cache }) as unknown as RedisClientType;
  tracked.on('error', () => {});
  await tracked.connect();
  sessions = new SessionReader({
    redis: tracked,
    cache,
    prefix,
    cookieName: 'sid',
    secret,
    positions: new PositionCookies(secret),
    lifetime: new SessionLifetime(loadConfig(gatewayEnv, { NODE_ENV: 'test' }), writer),
  });
});
afterAll(async () => {
  const keys = await writer.keys(`${prefix}*`);
  if (keys.length > 0) await writer.del(keys);
  await tracked?.quit().catch(() => undefined);
  await writer?.quit();
});

/** A stored session and the cookie header a browser holding it sends. */
async function storedSession(username: string) {
  const sid = randomUUID();
  await writer.set(
    `${prefix}${sid}`,
    JSON.stringify({ cookie: {}, since: Date.now(), user: { id: sid, username, isAdmin: false } }),
  );
  return { sid, cookie: `sid=${encodeURIComponent(`s:${signature.sign(sid, secret)}`)}` };
}

describe('SessionCache', () => {
  it('holds a read session, and forgets it when Redis says it changed or was deleted', async () => {
    const { sid, cookie } = await storedSession('ada');
    expect((await sessions.read(cookie)).user?.username).toBe('ada');
    expect(cache.session(sid)?.user.username).toBe('ada');

    await writer.set(
      `${prefix}${sid}`,
      JSON.stringify({ cookie: {}, since: Date.now(), user: { id: sid, username: 'grace', isAdmin: true } }),
    );
    await waitUntil(() => cache.session(sid) === undefined, 2000, 'the cache to forget the session');
    expect((await sessions.read(cookie)).user).toEqual({ id: sid, username: 'grace', isAdmin: true });

    await writer.del(`${prefix}${sid}`);
    await waitUntil(async () => (await sessions.read(cookie)).user === null, 2000, 'the session to read as ended');
  });

  it('does not keep a user read while an invalidation arrived', async () => {
    const { sid } = await storedSession('lin');
    const generation = cache.generation;
    cache.invalidate(`${prefix}other`);
    cache.remember(
      sid,
      { user: { id: sid, username: 'lin', isAdmin: false }, since: Date.now(), authAt: 0 },
      generation,
    );
    expect(cache.session(sid)).toBeUndefined();
    cache.remember(
      sid,
      { user: { id: sid, username: 'lin', isAdmin: false }, since: Date.now(), authAt: 0 },
      cache.generation,
    );
    expect(cache.session(sid)?.user.username).toBe('lin');
  });

  it('forgets everything when the tracked connection is lost, and reads again once it is back', async () => {
    const { sid, cookie } = await storedSession('kay');
    expect((await sessions.read(cookie)).user?.username).toBe('kay');
    expect(cache.session(sid)).toBeDefined();

    const id = await tracked.clientId();
    await writer.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]);
    await waitUntil(() => cache.session(sid) === undefined, 2000, 'the cache to forget the session');
    // Changed while nothing tracked it: the answer after the reconnect must be the new one.
    await writer.set(
      `${prefix}${sid}`,
      JSON.stringify({ cookie: {}, since: Date.now(), user: { id: sid, username: 'kim', isAdmin: false } }),
    );
    await waitUntil(() => tracked.isReady, 2000, 'the Redis client to be ready');
    expect((await sessions.read(cookie)).user?.username).toBe('kim');
  });
});
