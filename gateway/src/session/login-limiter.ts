import { createHmac } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { clientNetwork } from '../serving/limits.ts';

/**
 * Sign-in throttling (OWASP ASVS 2.2.1), counted in three budgets over a fixed window:
 * - one name from one address: `maxFailures` (10), so a guesser is stopped while the owner signing
 *   in from elsewhere is not;
 * - one address, whatever the names: ten times that, against spraying many names;
 * - one name, whatever the addresses: `maxFailuresPerName`, against a guesser with many addresses.
 *   Once spent, only addresses the name has signed in from before may try it, so the owner keeps
 *   getting in.
 * Each attempt takes its place in the budgets before the password is checked (one atomic round
 * trip), so a burst of parallel attempts cannot slip past a count read before any was recorded. A
 * success gives its place back; only failures stay counted. Redis sees neither names nor addresses:
 * each key holds a keyed hash of them (every replica derives the same key from the session secret).
 */
export class LoginLimiter {
  readonly #redis: RedisClientType;
  readonly #prefix: string;
  readonly #maxFailures: number;
  readonly #maxFailuresPerName: number;
  readonly #windowSeconds: number;
  readonly #hashKey: Buffer;

  constructor(
    redis: RedisClientType,
    options: { prefix: string; secret: string; maxFailures: number; maxFailuresPerName: number; windowSeconds: number },
  ) {
    this.#redis = redis;
    this.#prefix = options.prefix;
    this.#maxFailures = options.maxFailures;
    this.#maxFailuresPerName = options.maxFailuresPerName;
    this.#windowSeconds = options.windowSeconds;
    this.#hashKey = createHmac('sha256', options.secret).update('shiplog login limiter').digest();
  }

  #hash(value: string): string {
    return createHmac('sha256', this.#hashKey).update(value).digest('base64url');
  }

  #keys(username: string, from: string) {
    // An IPv6 client is counted by its /64, as every other limit counts it.
    const ip = clientNetwork(from);
    const lowered = username.trim().toLowerCase();
    const name = this.#hash(`name\n${lowered}`);
    const address = this.#hash(`ip\n${ip}`);
    return {
      address,
      pair: `${this.#prefix}login-fail:${this.#hash(`${ip}\n${lowered}`)}`,
      ip: `${this.#prefix}login-fail-ip:${address}`,
      name: `${this.#prefix}login-fail-name:${name}`,
      known: `${this.#prefix}login-known:${name}`,
    };
  }

  /**
   * Takes this attempt's place in the budgets: 0 when it may go ahead (then `settle` it), else the
   * seconds until it may.
   */
  async attempt(username: string, ip: string): Promise<number> {
    const keys = this.#keys(username, ip);
    const window = this.#windowSeconds;
    const [pair, , perIp, , perName, , known] = (await this.#redis
      .multi()
      .incr(keys.pair)
      .expire(keys.pair, window, 'NX')
      .incr(keys.ip)
      .expire(keys.ip, window, 'NX')
      .incr(keys.name)
      .expire(keys.name, window, 'NX')
      .sIsMember(keys.known, keys.address)
      .exec()) as unknown as [number, unknown, number, unknown, number, unknown, number | boolean];
    const blocked =
      pair > this.#maxFailures
        ? keys.pair
        : perIp > this.#maxFailures * 10
          ? keys.ip
          : perName > this.#maxFailuresPerName && !known
            ? keys.name
            : null;
    if (!blocked) return 0;
    return Math.max(1, await this.#redis.ttl(blocked));
  }

  /**
   * The attempt's outcome: a wrong password stays counted; a success clears the name's count at this
   * address, gives its place back and makes the address known for the name; anything else (the input
   * was invalid, a service was down) gives its place back.
   */
  async settle(username: string, ip: string, outcome: 'failed' | 'succeeded' | 'not-counted'): Promise<void> {
    if (outcome === 'failed') return;
    const keys = this.#keys(username, ip);
    const multi = this.#redis.multi();
    if (outcome === 'succeeded') {
      multi
        .del(keys.pair)
        .sAdd(keys.known, keys.address)
        .expire(keys.known, 30 * 24 * 60 * 60);
    } else multi.decr(keys.pair);
    await multi.decr(keys.ip).decr(keys.name).exec();
  }
}
