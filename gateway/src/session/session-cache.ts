import { randomUUID } from 'node:crypto';
import type { Caller } from '@shiplog/service-kit';
import { BasicClientSideCache, type RedisArgument } from 'redis';

/** Who a session's user is (express-session writes it; the read path only reads it). */
export interface SessionUser {
  id: string;
  username: string;
  isAdmin: boolean;
}

/** What the read path needs of a stored session: its user, and when they signed in (ms since the epoch). */
export interface SignedIn {
  user: SessionUser;
  since: number;
  /** When they last typed their password in this session (sign-in or `/api/reauth`). */
  authAt: number;
}

/**
 * node-redis's client-side cache for the read path's session connection, plus each session's parsed
 * user by session id. A read that finds its session here costs one Map lookup, not a Redis command
 * through the cache (a command parser, a cache key and a structuredClone) and a JSON.parse.
 *
 * The users are forgotten at exactly the points where node-redis drops its own entries: Redis's
 * invalidation push for the session's key (it changed, was deleted or expired), an invalidate-all, and
 * the connection's error or close, after which Redis tracks nothing for us any more. A user read while
 * any invalidation arrived is not kept (`generation`): the push may concern the very value read.
 */
export class SessionCache extends BasicClientSideCache {
  readonly #prefix: string;
  readonly #users = new Map<string, { session: SignedIn | null; until: number }>();
  #generation = 0;

  constructor(options: { prefix: string; ttlMs: number; maxEntries: number }) {
    super({ ttl: options.ttlMs, maxEntries: options.maxEntries, evictPolicy: 'LRU' });
    this.#prefix = options.prefix;
  }

  /** Changes whenever anything may have been invalidated: compare before and after a read. */
  get generation(): number {
    return this.#generation;
  }

  /** The session (null: none); `undefined` when not held (read it from Redis, then `remember`). */
  session(sid: string): SignedIn | null | undefined {
    const held = this.#users.get(sid);
    if (!held) return undefined;
    if (held.until > Date.now()) return held.session;
    this.#users.delete(sid);
    return undefined;
  }

  /** Keeps a session read from Redis, unless an invalidation arrived since `generation` was taken. */
  remember(sid: string, session: SignedIn | null, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#users.size >= this.maxEntries) this.#users.delete(this.#users.keys().next().value!);
    this.#users.set(sid, { session, until: Date.now() + this.ttl });
  }

  /**
   * Forgets a session this process has just changed or ended (the Express pipeline wrote it), so the
   * read path's next read, maybe the very next request, reads it again rather than waiting for Redis's
   * invalidation push. Other replicas still learn of it by that push.
   */
  forget(sid: string): void {
    this.invalidate(`${this.#prefix}${sid}`);
  }

  override invalidate(key: RedisArgument | null): void {
    this.#generation += 1;
    if (key === null) this.#users.clear();
    else {
      const name = key.toString();
      if (name.startsWith(this.#prefix)) this.#users.delete(name.slice(this.#prefix.length));
    }
    super.invalidate(key);
  }

  override clear(resetStats?: boolean): void {
    this.#forgetAll();
    super.clear(resetStats);
  }

  override onError(): void {
    this.#forgetAll();
    super.onError();
  }

  override onClose(): void {
    this.#forgetAll();
    super.onClose();
  }

  #forgetAll(): void {
    this.#generation += 1;
    this.#users.clear();
  }
}

/** Who the services see as calling: the session's user (or nobody), with a fresh correlation id. */
export function callerFor(user: SessionUser | undefined): Caller {
  return {
    userId: user?.id ?? null,
    username: user?.username ?? null,
    isAdmin: user?.isAdmin ?? false,
    correlationId: randomUUID(),
  };
}
