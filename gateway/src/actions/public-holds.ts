import type { IncomingMessage } from 'node:http';
import { formatPosition } from '@shiplog/events';
import { parsePositions } from '@shiplog/service-kit';
import type { RedisClientType } from 'redis';

/** How long a public page is held by a gateway for readers who have written nothing (public-profile.ts). */
export const HELD_MS = 30_000;
const HELD_MAX = 1000;

interface Held<T> {
  page: T | null;
  /** Whose page it is (null: no public profile, so nothing of anyone's). */
  userId: string | null;
  at: number;
}

/** What is known of a username's last change of its public pages, on every replica (Redis). */
interface Change {
  /** No hold made before this time (ms) is served. */
  until: number;
  /** The positions the change's writes reached: a page read for anyone waits for them. */
  after: string | undefined;
}

/**
 * Public pages held by this gateway, by username: a burst of views of one page costs its few service
 * calls once. What its owner makes private must never be served afterwards, from a hold or from a read
 * model that has not caught up, on any replica:
 *
 * - before a write on a route that changes public pages (a declaration's `publicPages`: the profile, a
 *   project) is passed on, its user is marked in Redis as changing until the write must have ended
 *   (`changing`), and no replica serves a hold of theirs made before then; as the write's answer
 *   comes back, before it is sent on, the positions it reached are kept there too (`written`), and
 *   every page of that user read for anyone waits for them, as its owner's own reads do;
 * - every event of a user on the bus drops that user's holds on every replica (`forgetUser`), so what
 *   changes by another way (an import, an account deleted) does not wait for the hold to run out.
 *
 * Each public request reads one Redis key (`#change`) where its page would be a few service calls.
 */
export class PublicHolds {
  readonly #redis: RedisClientType;
  readonly #prefix: string;
  readonly #now: () => number;
  readonly #maps: Map<string, Held<unknown>>[] = [];

  constructor(redis: RedisClientType, prefix: string, now: () => number = Date.now) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#now = now;
  }

  /**
   * One kind of page, held: `load` reads it anew (waiting for `after`, the positions its owner's last
   * change reached) when the reader has just written (`fresh`), when none is held, or when the one
   * held is older than `HELD_MS` or than its owner's last change.
   */
  kind<T>(
    load: (
      req: IncomingMessage,
      username: string,
      after: string | undefined,
    ) => Promise<{ page: T | null; userId: string | null }>,
  ) {
    const pages = new Map<string, Held<T>>();
    this.#maps.push(pages as Map<string, Held<unknown>>);
    return async (req: IncomingMessage, username: string, fresh: boolean): Promise<T | null> => {
      const now = this.#now();
      const change = await this.#change(username);
      const hit = pages.get(username);
      if (!fresh && hit && now - hit.at < HELD_MS && hit.at > change.until) return hit.page;
      const { page, userId } = await load(req, username, change.after);
      pages.delete(username);
      pages.set(username, { page, userId, at: now });
      // The oldest entry goes first (a Map keeps insertion order).
      if (pages.size > HELD_MAX) pages.delete(pages.keys().next().value as string);
      return page;
    };
  }

  /**
   * A user's public pages are changing for at most `withinMs`: no replica serves a hold of them made
   * before that has passed.
   */
  async changing(user: { id: string; username: string }, withinMs: number): Promise<void> {
    this.forgetUser(user.id);
    const key = this.#key(user.username);
    await this.#redis
      .multi()
      .hSet(key, 'until', String(this.#now() + withinMs))
      .pExpire(key, withinMs + HELD_MS)
      .exec();
  }

  /**
   * The positions a change reached (a write's `x-shiplog-position`), kept for every public read of the
   * user's pages. Sent to Redis at once, before the write's answer goes on: a read that follows the
   * answer, on any replica, reaches Redis after it.
   */
  written(username: string, reported: string | string[] | undefined): void {
    if (typeof reported !== 'string') return;
    const positions = parsePositions(reported);
    if (positions.size === 0) return;
    const key = this.#key(username);
    void this.#redis
      .hSet(
        key,
        Object.fromEntries([...positions].map(([source, position]) => [`after:${source}`, formatPosition(position)])),
      )
      .catch(() => undefined);
  }

  /** Drops this replica's holds of a user's pages. */
  forgetUser(userId: string): void {
    for (const pages of this.#maps)
      for (const [username, held] of pages) if (held.userId === userId) pages.delete(username);
  }

  async #change(username: string): Promise<Change> {
    const fields = await this.#redis.hGetAll(this.#key(username));
    const after = Object.entries(fields)
      .filter(([field]) => field.startsWith('after:'))
      .map(([field, position]) => `${field.slice('after:'.length)}=${position}`)
      .join(',');
    return { until: Number(fields.until ?? 0), after: after || undefined };
  }

  #key(username: string): string {
    return `${this.#prefix}public-changed:${username.toLowerCase()}`;
  }
}
