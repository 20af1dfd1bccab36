import { createHmac } from 'node:crypto';
import type { RedisClientType } from 'redis';

/**
 * Failed sign-ins are counted per (username, client IP) and per IP. Ten failures for one name from
 * one address within the window answer 429 there, while the owner signing in from elsewhere is not
 * locked out; an address spraying many names is stopped by its own, larger budget. Successful
 * sign-ins are never counted. Redis sees neither names nor addresses: each key holds a keyed hash of
 * them (every replica derives the same key from the session secret).
 */
export class LoginLimiter {
  readonly #redis: RedisClientType;
  readonly #prefix: string;
  readonly #maxFailures: number;
  readonly #windowSeconds: number;
  readonly #hashKey: Buffer;

  constructor(
    redis: RedisClientType,
    options: { prefix: string; secret: string; maxFailures: number; windowSeconds: number },
  ) {
    this.#redis = redis;
    this.#prefix = options.prefix;
    this.#maxFailures = options.maxFailures;
    this.#windowSeconds = options.windowSeconds;
    this.#hashKey = createHmac('sha256', options.secret).update('shiplog login limiter').digest();
  }

  #hash(value: string): string {
    return createHmac('sha256', this.#hashKey).update(value).digest('base64url');
  }

  #keys(username: string, ip: string) {
    const name = username.trim().toLowerCase();
    return {
      pair: `${this.#prefix}login-fail:${this.#hash(`${ip}\n${name}`)}`,
      ip: `${this.#prefix}login-fail-ip:${this.#hash(ip)}`,
    };
  }

  /** Seconds until another attempt is allowed, or 0 when allowed now. */
  async retryAfter(username: string, ip: string): Promise<number> {
    const keys = this.#keys(username, ip);
    const [pair, perIp] = await Promise.all([this.#redis.get(keys.pair), this.#redis.get(keys.ip)]);
    const blocked =
      Number(pair ?? 0) >= this.#maxFailures
        ? keys.pair
        : Number(perIp ?? 0) >= this.#maxFailures * 10
          ? keys.ip
          : null;
    if (!blocked) return 0;
    return Math.max(1, await this.#redis.ttl(blocked));
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const keys = this.#keys(username, ip);
    await this.#redis
      .multi()
      .incr(keys.pair)
      .expire(keys.pair, this.#windowSeconds, 'NX')
      .incr(keys.ip)
      .expire(keys.ip, this.#windowSeconds, 'NX')
      .exec();
  }

  async recordSuccess(username: string, ip: string): Promise<void> {
    await this.#redis.del(this.#keys(username, ip).pair);
  }
}
