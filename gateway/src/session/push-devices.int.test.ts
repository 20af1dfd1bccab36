/**
 * The push-devices sweep against a real Redis: a session that ends while the sweep is looking at it
 * (its time read as alive, its end marked before the sweep puts its next look off) is still ended at
 * the next sweep, not hours later.
 */

import { randomUUID } from 'node:crypto';
import { loadConfig, type ServiceClients } from '@shiplog/service-kit';
import { redisUrl } from '@shiplog/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gatewayEnv } from '../env.ts';
import { pushSessionMember, pushSessionsKey, sessionPrefix } from './keys.ts';
import { pushDeviceSweep } from './push-devices.ts';

const config = loadConfig(gatewayEnv, { NODE_ENV: 'test', BUS_NAMESPACE: `test_${randomUUID().slice(0, 8)}` });
let redis: RedisClientType;

beforeAll(async () => {
  redis = createClient({ url: redisUrl }) as RedisClientType;
  await redis.connect();
});
afterAll(async () => {
  await redis?.destroy();
});

it('ends the devices of a session signed out while the sweep read it as alive', async () => {
  const userId = randomUUID();
  const sid = randomUUID();
  const member = pushSessionMember(userId, sid);
  const key = pushSessionsKey(config);
  const session = `${sessionPrefix(config)}${sid}`;
  await redis.set(session, '{}', { PX: 60_000 });
  // Push turned on in it a moment ago: due to be looked at.
  await redis.zAdd(key, { score: Date.now(), value: member });
  const ended: string[] = [];
  const services = {
    call: async (_service: string, request: { path: string }) => {
      ended.push(request.path);
      return { status: 204, body: null, headers: {} };
    },
  } as unknown as ServiceClients;
  const logger = { warn: () => {}, error: () => {}, info: () => {} } as never;

  // The sign-out lands between the sweep's read of the session's time and its next write: as a
  // logout does, the session's key goes, then its mark is set to 0.
  let signedOut = false;
  const racing = new Proxy(redis, {
    get(target, name, receiver) {
      if (name !== 'pTTL') return Reflect.get(target, name, receiver);
      return async (...args: [string]) => {
        const ttl = await target.pTTL(...args);
        if (!signedOut) {
          signedOut = true;
          await target.del(session);
          await target.zAdd(key, { score: 0, value: member }, { condition: 'XX' });
        }
        return ttl;
      };
    },
  });
  const { sweep } = pushDeviceSweep({ config, redis: racing, services, logger });

  expect(await sweep()).toBe(0);
  // Still due: the next sweep ends it.
  expect(await redis.zScore(key, member)).toBe(0);
  expect(await sweep()).toBe(1);
  expect(ended).toHaveLength(1);
  expect(await redis.zScore(key, member)).toBeNull();
});
