import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { GatewayEnv } from '../env.ts';
import {
  pushSessionMember,
  pushSessionsKey,
  seenField,
  sessionInfoKey,
  sessionPrefix,
  userSessionsKey,
} from './keys.ts';

/** Where a session signed in from, as kept beside it. */
interface SessionOrigin {
  since: number;
  userAgent: string;
  ip: string;
}

/**
 * A session as its user sees it. `id` names it without being it: a hash of the session id, which is
 * a credential and never leaves the gateway.
 */
export interface SessionEntry extends SessionOrigin {
  id: string;
  current: boolean;
  seenAt: number;
}

/** The public name of a session: the first 128 bits of the SHA-256 of its id. */
export const sessionHandle = (sid: string) => createHash('sha256').update(sid).digest('base64url').slice(0, 22);

/** The user agent is the browser's to write: kept to a length worth showing. */
const MAX_USER_AGENT = 512;

/** Each user's sessions: their ids, so they can be ended together, and where each signed in from. */
export class UserSessions {
  readonly #redis: RedisClientType;
  readonly #config: GatewayEnv;

  constructor(redis: RedisClientType, config: GatewayEnv) {
    this.#redis = redis;
    this.#config = config;
  }

  async add(userId: string, sid: string, origin: SessionOrigin): Promise<void> {
    const ids = userSessionsKey(this.#config, userId);
    const info = sessionInfoKey(this.#config, userId);
    const kept: SessionOrigin = { ...origin, userAgent: origin.userAgent.slice(0, MAX_USER_AGENT) };
    await this.#redis
      .multi()
      .sAdd(ids, sid)
      .expire(ids, this.#config.SESSION_ABSOLUTE_TIMEOUT_SECONDS)
      .hSet(info, { [sid]: JSON.stringify(kept), [seenField(sid)]: String(origin.since) })
      .expire(info, this.#config.SESSION_ABSOLUTE_TIMEOUT_SECONDS)
      .exec();
  }

  /** The session turned push reminders on in its browser: the devices end with it (push-devices.ts). */
  async turnedPushOn(userId: string, sid: string): Promise<void> {
    await this.#redis.zAdd(pushSessionsKey(this.#config), { score: Date.now(), value: pushSessionMember(userId, sid) });
  }

  /** Forgets a session whose key is gone already (signed out, or past its end): delete it first, then this. */
  async remove(userId: string, sid: string): Promise<void> {
    await this.#forget(userId, [sid]);
  }

  /** Ends the user's sessions, all of them or all but `keep`. */
  async end(userId: string, keep?: string): Promise<void> {
    const ended = (await this.#redis.sMembers(userSessionsKey(this.#config, userId))).filter((sid) => sid !== keep);
    await this.#end(userId, ended);
  }

  /** Ends the one session `handle` names (sessionHandle); false when the user has none by that name. */
  async endOne(userId: string, handle: string): Promise<boolean> {
    const sids = await this.#redis.sMembers(userSessionsKey(this.#config, userId));
    const sid = sids.find((candidate) => sessionHandle(candidate) === handle);
    if (sid === undefined) return false;
    await this.#end(userId, [sid]);
    return true;
  }

  /**
   * The user's live sessions, the most recently used first. Sessions that ended on their own (idle or
   * absolute timeout) are forgotten as they are found.
   */
  async list(userId: string, currentSid: string): Promise<SessionEntry[]> {
    const sids = await this.#redis.sMembers(userSessionsKey(this.#config, userId));
    if (sids.length === 0) return [];
    const prefix = sessionPrefix(this.#config);
    const [alive, info] = await Promise.all([
      Promise.all(sids.map((sid) => this.#redis.exists(`${prefix}${sid}`))),
      this.#redis.hGetAll(sessionInfoKey(this.#config, userId)),
    ]);
    const gone = sids.filter((_, index) => alive[index] === 0);
    if (gone.length > 0) await this.#forget(userId, gone);
    return sids
      .filter((_, index) => alive[index] === 1)
      .map((sid): SessionEntry => {
        const origin = parseOrigin(info[sid]);
        return {
          id: sessionHandle(sid),
          current: sid === currentSid,
          ...origin,
          seenAt: Math.max(Number(info[seenField(sid)] ?? 0), origin.since),
        };
      })
      .sort((x, y) => Number(y.current) - Number(x.current) || y.seenAt - x.seenAt);
  }

  async #end(userId: string, sids: string[]): Promise<void> {
    if (sids.length === 0) return;
    const prefix = sessionPrefix(this.#config);
    await this.#redis.del(sids.map((sid) => `${prefix}${sid}`));
    await this.#forget(userId, sids);
  }

  async #forget(userId: string, sids: string[]): Promise<void> {
    await this.#redis
      .multi()
      .sRem(userSessionsKey(this.#config, userId), sids)
      .hDel(
        sessionInfoKey(this.#config, userId),
        sids.flatMap((sid) => [sid, seenField(sid)]),
      )
      // Those that turned push on: their devices are forgotten at the next sweep (push-devices.ts).
      .zAdd(
        pushSessionsKey(this.#config),
        sids.map((sid) => ({ score: 0, value: pushSessionMember(userId, sid) })),
        { condition: 'XX' },
      )
      .exec();
  }
}

/** A session's origin as stored; a session from before origins were kept shows as unknown. */
function parseOrigin(stored: string | undefined): SessionOrigin {
  try {
    const parsed = JSON.parse(stored ?? '') as Partial<SessionOrigin>;
    return {
      since: typeof parsed.since === 'number' ? parsed.since : 0,
      userAgent: typeof parsed.userAgent === 'string' ? parsed.userAgent : '',
      ip: typeof parsed.ip === 'string' ? parsed.ip : '',
    };
  } catch {
    return { since: 0, userAgent: '', ip: '' };
  }
}
