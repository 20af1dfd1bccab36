import { RedisStore } from 'connect-redis';
import cookie from 'cookie';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { RedisClientType } from 'redis';
import type { GatewayEnv } from '../env.ts';
import { seenField, sessionInfoKey, sessionPrefix } from './keys.ts';
import type { PositionCookies } from './positions.ts';
import type { SessionCache, SessionUser, SignedIn } from './session-cache.ts';
import { SignedValues } from './signed-values.ts';
import type { UserSessions } from './user-sessions.ts';

declare module 'express-session' {
  interface SessionData {
    user: SessionUser;
    /** When the user signed in (ms since the epoch): the absolute timeout counts from here. */
    since: number;
    /** When the user last confirmed their password in this session (`POST /api/reauth`). */
    verifiedAt?: number;
  }
}

/**
 * A sensitive change (deleting the account, changing the email, making an API token or a deploy
 * webhook) needs the password typed in this session within the last ten minutes: at sign-in, or again
 * through `POST /api/reauth`. A stolen session alone cannot make them.
 */
export const RECENT_AUTH_MS = 10 * 60_000;

/** When a stored session's user last typed their password. */
export const authenticatedAt = (session: { since?: number; verifiedAt?: number }): number =>
  Math.max(session.since ?? 0, session.verifiedAt ?? 0);

export const isRecentAuth = (authAt: number, now = Date.now()): boolean => now - authAt < RECENT_AUTH_MS;

/**
 * Sessions: express-session in Redis, written only by the Express pipeline (sign-in, sign-out), read
 * by both paths; each user's session ids, so a password change or a deletion can end them.
 */
export const SESSION_COOKIE = 'shiplog.sid';

/**
 * The session cookie as this deployment sets it. Served over HTTPS (`APP_URL` is https), it is always
 * `Secure`, whatever `TRUST_PROXY` says about the connection it came on, and named with the `__Host-`
 * prefix, so the browser keeps it only from this origin over HTTPS, with `Path=/` and no `Domain`: no
 * sibling subdomain and no plain-HTTP page can set or overwrite it. Otherwise (local development) it
 * is `shiplog.sid`, `Secure` when the request came over HTTPS.
 */
export function sessionCookie(config: Pick<GatewayEnv, 'APP_URL'>): { name: string; alwaysSecure: boolean } {
  return config.APP_URL?.startsWith('https:')
    ? { name: `__Host-${SESSION_COOKIE}`, alwaysSecure: true }
    : { name: SESSION_COOKIE, alwaysSecure: false };
}

/**
 * How long a session lives (OWASP ASVS 3.3): it ends after `idleMs` without a request and `absoluteMs`
 * after sign-in, whichever comes first. Redis holds the idle part as the key's TTL, which use pushes
 * back (`touch`); the absolute part is checked on every read against the session's `since`.
 */
export class SessionLifetime {
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly #redis: RedisClientType;
  readonly #prefix: string;
  /** When each session's TTL was last pushed back by this replica. */
  readonly #touched = new Map<string, number>();

  readonly #config: GatewayEnv;
  /** The clock sessions are timed by (a test's own, to pass hours at once). */
  readonly #now: () => number;

  constructor(config: GatewayEnv, redis: RedisClientType, now: () => number = Date.now) {
    this.idleMs = config.SESSION_IDLE_TIMEOUT_SECONDS * 1000;
    this.absoluteMs = config.SESSION_ABSOLUTE_TIMEOUT_SECONDS * 1000;
    this.#redis = redis;
    this.#prefix = sessionPrefix(config);
    this.#config = config;
    this.#now = now;
  }

  /** How long the session may live from now if no request comes: its Redis TTL (0: over). */
  remainingMs(since: number, now = this.#now()): number {
    return Math.max(0, Math.min(this.idleMs, since + this.absoluteMs - now));
  }

  /** Past its absolute end, or from before sessions had one. */
  over(since: number | undefined, now = this.#now()): boolean {
    return typeof since !== 'number' || now >= since + this.absoluteMs;
  }

  /**
   * A request used the session: push its idle end back, and note when it was last seen (Settings ›
   * Sessions). At most once a minute (a tenth of the idle time when that is shorter) per session and
   * replica, so a read costs no Redis write.
   */
  touch(sid: string, since: number, userId: string): void {
    const now = this.#now();
    const every = Math.min(60_000, this.idleMs / 10);
    if (now - (this.#touched.get(sid) ?? 0) < every) return;
    if (this.#touched.size >= 100_000) this.#touched.clear();
    this.#touched.set(sid, now);
    const ttl = this.remainingMs(since, now);
    if (ttl <= 0) return;
    void this.#redis
      .multi()
      .pExpire(`${this.#prefix}${sid}`, ttl)
      .hSet(sessionInfoKey(this.#config, userId), seenField(sid), String(now))
      .exec()
      .catch(() => this.#touched.delete(sid));
  }
}

/**
 * The Redis store, telling `written` of each session it writes or ends (the read path's cache drops it):
 * the answer that changed a session leaves only once the write is done and forgotten, so the app's
 * very next request, maybe the change retried after a password was confirmed, reads it afresh.
 */
class WatchedRedisStore extends RedisStore {
  readonly #written: (sid: string) => void;

  constructor(options: ConstructorParameters<typeof RedisStore>[0], written: (sid: string) => void) {
    super(options);
    this.#written = written;
  }

  override async set(sid: string, sess: Parameters<RedisStore['set']>[1], cb?: (error?: unknown) => void) {
    return super.set(sid, sess, (error?: unknown) => {
      this.#written(sid);
      cb?.(error);
    });
  }

  override async destroy(sid: string, cb?: (error?: unknown) => void) {
    return super.destroy(sid, (error?: unknown) => {
      this.#written(sid);
      cb?.(error);
    });
  }
}

/**
 * express-session with the session in Redis: HttpOnly, SameSite=Lax, Secure over HTTPS. The key's TTL
 * is the session's idle end (never past its absolute end); the cookie lasts the absolute time.
 * `written` hears of every session this pipeline writes or ends (`SessionCache.forget`).
 */
export function sessionMiddleware(
  config: GatewayEnv,
  redis: RedisClientType,
  secret: string,
  lifetime: SessionLifetime,
  sessions: UserSessions,
  written: (sid: string) => void,
): RequestHandler {
  const { name, alwaysSecure } = sessionCookie(config);
  const store = session({
    name,
    // express-session's own touch would rewrite the session on every request; `lifetime.touch` only
    // moves the TTL, and rarely.
    store: new WatchedRedisStore(
      {
        client: redis,
        prefix: sessionPrefix(config),
        disableTouch: true,
        ttl: (sess: { since?: number }) =>
          Math.max(1, Math.ceil(lifetime.remainingMs(sess.since ?? Date.now()) / 1000)),
      },
      written,
    ),
    secret,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // Behind HTTPS, whether a request is secure is `req.secure`, which the middleware below sets.
    proxy: alwaysSecure ? undefined : Boolean(config.TRUST_PROXY),
    cookie: { httpOnly: true, sameSite: 'lax', secure: alwaysSecure || 'auto', maxAge: lifetime.absoluteMs, path: '/' },
  });
  return (req, res, next) => {
    // express-session sets a Secure cookie only on a request it believes secure: behind HTTPS (APP_URL)
    // every request is, whether or not the proxy in front is trusted to say so.
    if (alwaysSecure) Object.defineProperty(req, 'secure', { value: true, configurable: true });
    store(req, res, (error?: unknown) => {
      if (error || !req.session?.user) return next(error);
      if (!lifetime.over(req.session.since)) {
        lifetime.touch(req.sessionID, req.session.since!, req.session.user.id);
        return next();
      }
      // Past its absolute end: signed out, with a fresh (unsaved) session in its place.
      const ended = req.session.user.id;
      const sid = req.sessionID;
      req.session.regenerate((failed) => {
        if (failed) return next(failed);
        void sessions.remove(ended, sid).catch(() => undefined);
        next();
      });
    });
  };
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
  readonly #lifetime: SessionLifetime;

  constructor(options: {
    redis: RedisClientType;
    cache: SessionCache;
    prefix: string;
    cookieName: string;
    secret: string;
    positions: PositionCookies;
    lifetime: SessionLifetime;
  }) {
    this.#redis = options.redis;
    this.#cache = options.cache;
    this.#prefix = options.prefix;
    this.#cookieName = options.cookieName;
    this.#signed = new SignedValues(options.secret);
    this.#positions = options.positions;
    this.#lifetime = options.lifetime;
  }

  /**
   * The signed-in user (or null), when they last typed their password, and the positions of their own
   * last writes (from the cookies, and the `x-shiplog-positions` header the web app sends).
   */
  async read(
    cookieHeader: string | undefined,
    sentPositions?: string | string[],
  ): Promise<{ user: SessionUser | null; authAt: number; after: string | undefined }> {
    if (!cookieHeader) return { user: null, authAt: 0, after: undefined };
    const cookies = cookie.parse(cookieHeader);
    const session = await this.#session(cookies[this.#cookieName]);
    return {
      user: session?.user ?? null,
      authAt: session?.authAt ?? 0,
      after: this.#positions.after(cookies, sentPositions),
    };
  }

  async #session(raw: string | undefined): Promise<SignedIn | null> {
    // express-session's cookie value: `s:` and the signed session id.
    const sid = raw?.startsWith('s:') ? this.#signed.open(raw.slice(2)) : undefined;
    if (sid === undefined) return null;
    let session = this.#cache.session(sid);
    if (session === undefined) {
      const generation = this.#cache.generation;
      const stored = await this.#redis.get(`${this.#prefix}${sid}`);
      const parsed = stored
        ? (JSON.parse(stored) as { user?: SessionUser; since?: number; verifiedAt?: number })
        : null;
      session = parsed?.user ? { user: parsed.user, since: parsed.since ?? 0, authAt: authenticatedAt(parsed) } : null;
      this.#cache.remember(sid, session, generation);
    }
    if (!session || this.#lifetime.over(session.since)) return null;
    this.#lifetime.touch(sid, session.since, session.user.id);
    return session;
  }
}
