import type { RedisClientType } from 'redis';

/**
 * Read-your-writes for writes whose effect every user reads (an administrator's message), and for an
 * API token's own writes (its client keeps no cookies): the latest such write's position, per route or
 * per token, in Redis. One connection for both sides, so a read that arrives
 * after a write's answer is queued behind that write's SET.
 */
export class SharedPositions {
  readonly #redis: RedisClientType;
  readonly #prefix: string;

  constructor(redis: RedisClientType, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async after(name: string): Promise<string | null> {
    return this.#redis.get(`${this.#prefix}shared-position:${name}`);
  }

  /** `ttlSeconds`: forgotten after that long (an API token's own writes), else kept. */
  async record(name: string, reported: string | string[] | undefined, ttlSeconds?: number): Promise<void> {
    if (typeof reported !== 'string' || !/^[a-z]+=\d{1,20}\/\d{1,20}$/.test(reported)) return;
    const key = `${this.#prefix}shared-position:${name}`;
    await (ttlSeconds ? this.#redis.set(key, reported, { EX: ttlSeconds }) : this.#redis.set(key, reported));
  }
}
