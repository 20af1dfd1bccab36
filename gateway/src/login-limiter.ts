import type { RedisClientType } from 'redis';

/**
 * Failed sign-ins are counted per (username, client IP) and per IP. Ten failures for one name from
 * one address within the window answer 429 there, while the owner signing in from elsewhere is not
 * locked out; an address spraying many names is stopped by its own, larger budget. Successful
 * sign-ins are never counted.
 */
export class LoginLimiter {
  readonly #redis: RedisClientType;
  readonly #prefix: string;
  readonly #maxFailures: number;
  readonly #windowSeconds: number;

  constructor(redis: RedisClientType, prefix: string, maxFailures: number, windowSeconds: number) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#maxFailures = maxFailures;
    this.#windowSeconds = windowSeconds;
  }

  #keys(username: string, ip: string) {
    const name = username.trim().toLowerCase();
    return { pair: `${this.#prefix}login-fail:${ip}:${name}`, ip: `${this.#prefix}login-fail-ip:${ip}` };
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
