import { RedisStore } from 'connect-redis';
import cookie from 'cookie';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { RedisClientType } from 'redis';
import type { GatewayEnv } from './env.ts';
import type { PositionCookies } from './positions.ts';
import type { SessionCache, SessionUser } from './session-cache.ts';
import { SignedValues } from './signed-values.ts';

declare module 'express-session' {
  interface SessionData {
    user: SessionUser;
  }
}

/**
 * Sessions: express-session in Redis, written only by the Express pipeline (sign-in, sign-out), read
 * by both paths; each user's session ids, so a password change or a deletion can end them.
 */
export const SESSION_COOKIE = 'shiplog.sid';
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export const sessionPrefix = (config: GatewayEnv) => `${config.BUS_NAMESPACE}:sess:`;

/** express-session with the session in Redis: HttpOnly, SameSite=Lax, Secure over HTTPS, 30 days fixed. */
export function sessionMiddleware(config: GatewayEnv, redis: RedisClientType, secret: string): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    // No TTL refresh on every request (a Redis write per read): a session lasts its fixed 30 days.
    store: new RedisStore({ client: redis, prefix: sessionPrefix(config), disableTouch: true }),
    secret,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    proxy: Boolean(config.TRUST_PROXY),
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_MAX_AGE_MS, path: '/' },
  });
}

/** Each user's session ids in a Redis set, so all of a user's sessions (or all but one) can be ended. */
export class UserSessions {
  readonly #redis: RedisClientType;
  readonly #config: GatewayEnv;

  constructor(redis: RedisClientType, config: GatewayEnv) {
    this.#redis = redis;
    this.#config = config;
  }

  #key(userId: string) {
    return `${this.#config.BUS_NAMESPACE}:user-sessions:${userId}`;
  }

  async add(userId: string, sid: string): Promise<void> {
    await this.#redis
      .multi()
      .sAdd(this.#key(userId), sid)
      .expire(this.#key(userId), SESSION_MAX_AGE_MS / 1000)
      .exec();
  }

  async remove(userId: string, sid: string): Promise<void> {
    await this.#redis.sRem(this.#key(userId), sid);
  }

  /** Ends the user's sessions, all of them or all but `keep`. */
  async end(userId: string, keep?: string): Promise<void> {
    const key = this.#key(userId);
    const ended = (await this.#redis.sMembers(key)).filter((sid) => sid !== keep);
    const prefix = sessionPrefix(this.#config);
    if (ended.length > 0)
      await this.#redis
        .multi()
        .del(ended.map((sid) => `${prefix}${sid}`))
        .sRem(key, ended)
        .exec();
  }
}

/**
 * Reads the session express-session keeps: the same signed cookie, the same Redis key and JSON. It
 * never writes: only the Express pipeline changes sessions.
 *
 * `redis` is a connection with server-assisted client-side caching (RESP3 tracking) whose cache is
 * `cache` (see server.ts): a session changes only at sign-in and sign-out, so nearly every read is
 * answered from the users the cache holds, and Redis tells every gateway replica the moment a session
 * it holds is changed, ended or expires. The read-your-writes positions are not in the session; they
 * come with the request (`PositionCookies`).
 */
export class SessionReader {
  readonly #redis: RedisClientType;
  readonly #cache: SessionCache;
  readonly #prefix: string;
  readonly #cookieName: string;
  readonly #signed: SignedValues;
  readonly #positions: PositionCookies;

  constructor(options: {
    redis: RedisClientType;
    cache: SessionCache;
    prefix: string;
    cookieName: string;
    secret: string;
    positions: PositionCookies;
  }) {
    this.#redis = options.redis;
    this.#cache = options.cache;
    this.#prefix = options.prefix;
    this.#cookieName = options.cookieName;
    this.#signed = new SignedValues(options.secret);
    this.#positions = options.positions;
  }

  /** The signed-in user (or null) and the positions of their own last writes. */
  async read(cookieHeader: string | undefined): Promise<{ user: SessionUser | null; after: string | undefined }> {
    if (!cookieHeader) return { user: null, after: undefined };
    const cookies = cookie.parse(cookieHeader);
    return { user: await this.#user(cookies[this.#cookieName]), after: this.#positions.after(cookies) };
  }

  async #user(raw: string | undefined): Promise<SessionUser | null> {
    // express-session's cookie value: `s:` and the signed session id.
    const sid = raw?.startsWith('s:') ? this.#signed.open(raw.slice(2)) : undefined;
    if (sid === undefined) return null;
    const held = this.#cache.user(sid);
    if (held !== undefined) return held;
    const generation = this.#cache.generation;
    const stored = await this.#redis.get(`${this.#prefix}${sid}`);
    const user = stored ? ((JSON.parse(stored) as { user?: SessionUser }).user ?? null) : null;
    this.#cache.remember(sid, user, generation);
    return user;
  }
}
