import { randomUUID } from 'node:crypto';
import { type Logger, repeating, type ServiceClients } from '@shiplog/service-kit';
import type { RedisClientType } from 'redis';
import type { GatewayEnv } from '../env.ts';
import { pushSessionMember, pushSessionsKey, sessionPrefix } from './keys.ts';
import { sessionHandle } from './user-sessions.ts';

/** How often each replica looks for sessions that ended, and how long to wait when reminders did not answer. */
const SWEEP_MS = 1000;
const RETRY_MS = 30_000;
/** Sessions looked at per sweep. */
const BATCH = 100;

/**
 * A device's push reminders end with the session they were turned on in (decision 044), however it
 * ends: signed out, idle or past its 12 hours, ended from another session, by a password change. The
 * sessions that turned push on are kept in Redis by when each would end (`UserSessions.turnedPushOn`;
 * one that is ended is marked due at once), and every replica sweeps them each second: one still alive
 * is looked at again when it would end now; one gone is claimed by whichever replica removes it first,
 * and reminders is told to forget its devices (as its user, by the session's public handle). When
 * reminders does not answer, the session is put back to try again, so no ending is lost, even one that
 * came while every gateway was stopped: it is found at the next start.
 */
export function pushDeviceSweep(deps: {
  config: GatewayEnv;
  redis: RedisClientType;
  services: ServiceClients;
  logger: Logger;
}) {
  const { config, redis, services, logger } = deps;
  const key = pushSessionsKey(config);
  const prefix = sessionPrefix(config);

  async function sweep(now = Date.now()): Promise<number> {
    const due = await redis.zRangeByScore(key, 0, now, { LIMIT: { offset: 0, count: BATCH } });
    if (due.length === 0) return 0;
    const sessions = due.map((member) => {
      const [userId, sid] = member.split(' ') as [string, string];
      return { member, userId, sid };
    });
    const ttls = await Promise.all(sessions.map(({ sid }) => redis.pTTL(`${prefix}${sid}`)));
    let ended = 0;
    await Promise.all(
      sessions.map(async ({ member, userId, sid }, index) => {
        const ttl = ttls[index]!;
        // Alive: looked at again when it would end if no request comes. A session ended since its time was
        // read (its key deleted, then its mark set to 0) may have had that mark put off by this write: a
        // key gone now is marked due again. Every ending deletes the key before it marks the session.
        if (ttl >= 0) {
          await redis.zAdd(key, { score: now + ttl, value: member }, { condition: 'XX' });
          if ((await redis.pTTL(`${prefix}${sid}`)) === -2)
            await redis.zAdd(key, { score: 0, value: member }, { condition: 'XX' });
          return;
        }
        if (ttl === -1) return redis.zAdd(key, { score: now + RETRY_MS, value: member }, { condition: 'XX' });
        if ((await redis.zRem(key, member)) === 0) return; // another replica took it
        try {
          const answer = await services.call('reminders', {
            method: 'DELETE',
            path: `/sessions/${sessionHandle(sid)}/push-subscriptions`,
            caller: { userId, username: null, isAdmin: false, correlationId: randomUUID() },
          });
          if (answer.status !== 204) throw new Error(`reminders answered ${answer.status}`);
          ended += 1;
        } catch (error) {
          logger.warn({ err: error }, 'could not end the push devices of an ended session; trying again');
          await redis.zAdd(key, { score: now + RETRY_MS, value: pushSessionMember(userId, sid) });
        }
      }),
    );
    return ended;
  }

  const loop = repeating(() => sweep(), SWEEP_MS, logger, 'push devices sweep');
  return { sweep, start: loop.start, stop: loop.stop };
}
