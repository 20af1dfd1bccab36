import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { TooManyRequestsError } from '@shiplog/errors';
import { type LimitName, type LimitRule, limitDefaults } from '@shiplog/service-kit';
import proxyAddr from 'proxy-addr';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import type { TrustProxy } from './origin.ts';

/**
 * The limits on the routes that cost real work, applied on either serving path before any service is
 * called. Each route names its limit in its declaration (`limitDefaults` in service-kit lists them with
 * their defaults). `RATE_LIMIT_<NAME>=<points>/<seconds>` and `RATE_LIMIT_<NAME>_CONCURRENT=<n>`
 * change one; `RATE_LIMITS=off` turns them all off (load tests and the benchmarks, which sign up
 * thousands of users from one address).
 */
const envName = (name: string) => `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** The environment variables of the limits, for the gateway's configuration schema. */
export const limitsEnv = {
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  ...Object.fromEntries(
    Object.entries(limitDefaults).flatMap(([name, rule]) => [
      [
        envName(name),
        z
          .string()
          .regex(/^\d+\/\d+$/, 'must be <points>/<seconds>, e.g. 10/3600')
          .optional(),
      ],
      ...('concurrent' in rule ? [[`${envName(name)}_CONCURRENT`, z.coerce.number().int().min(1).optional()]] : []),
    ]),
  ),
} as Record<string, z.ZodType>;

/** The limits in force: the defaults with the environment's changes. */
export function limitRules(env: Record<string, unknown>): Record<LimitName, LimitRule> {
  return Object.fromEntries(
    Object.entries(limitDefaults).map(([name, rule]) => {
      const override = env[envName(name)];
      const [points, seconds] = typeof override === 'string' ? override.split('/').map(Number) : [];
      const concurrent = env[`${envName(name)}_CONCURRENT`];
      return [
        name,
        {
          ...rule,
          ...(points && seconds ? { points, seconds } : {}),
          ...(typeof concurrent === 'number' ? { concurrent } : {}),
        },
      ];
    }),
  ) as Record<LimitName, LimitRule>;
}

/** Who a limit counts: the signed-in user, or the address the request came from. */
export interface LimitSubject {
  userId: string | null | undefined;
  req: IncomingMessage;
}

export class Limits {
  readonly enabled: boolean;
  readonly #rates = new Map<LimitName, RateLimiterRedis>();
  readonly #open = new Map<LimitName, RateLimiterRedis>();
  readonly #rules: Record<LimitName, LimitRule>;
  readonly #trustProxy: TrustProxy;

  constructor(options: {
    redis: RedisClientType;
    prefix: string;
    env: Record<string, unknown>;
    trustProxy: TrustProxy;
  }) {
    this.enabled = options.env.RATE_LIMITS !== 'off';
    this.#rules = limitRules(options.env);
    this.#trustProxy = options.trustProxy;
    for (const [name, rule] of Object.entries(this.#rules) as [LimitName, LimitRule][]) {
      const common = { storeClient: options.redis, useRedisPackage: true };
      this.#rates.set(
        name,
        new RateLimiterRedis({
          ...common,
          keyPrefix: `${options.prefix}limit:${name}`,
          points: rule.points,
          duration: rule.seconds,
        }),
      );
      // Open at once: a slot is taken when the work starts and given back when it ends; a slot a
      // crashed replica never gave back frees itself after an hour.
      if (rule.concurrent)
        this.#open.set(
          name,
          new RateLimiterRedis({
            ...common,
            keyPrefix: `${options.prefix}open:${name}`,
            points: rule.concurrent,
            duration: 3600,
          }),
        );
    }
  }

  /** The address the request came from, through the proxies `TRUST_PROXY` trusts (as Express's `req.ip`). */
  addressOf(req: IncomingMessage): string {
    return proxyAddr(req, this.#trustProxy);
  }

  #key(name: LimitName, subject: LimitSubject): string {
    return this.#rules[name].per === 'user' && subject.userId
      ? `u:${subject.userId}`
      : `a:${clientNetwork(this.addressOf(subject.req))}`;
  }

  /**
   * Counts one request against the route's limit, and for a long-running kind takes a slot until
   * `res` closes. Over the limit: a 429 with `Retry-After`, before any work is done.
   */
  async take(name: LimitName, subject: LimitSubject, res: ServerResponse): Promise<void> {
    if (!this.enabled) return;
    const key = this.#key(name, subject);
    await this.#consume(this.#rates.get(name)!, key, res);
    const open = this.#open.get(name);
    if (!open) return;
    // A refused attempt still counted: it gives its place back at once, as a finished one does.
    const release = () => void open.reward(key, 1).catch(() => undefined);
    await this.#consume(
      open,
      key,
      res,
      'You already have one of these running. Please wait for it to finish.',
      release,
    );
    res.once('close', release);
  }

  async #consume(
    limiter: RateLimiterRedis,
    key: string,
    res: ServerResponse,
    message?: string,
    onRefused?: () => void,
  ): Promise<void> {
    try {
      await limiter.consume(key, 1);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      onRefused?.();
      const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      res.setHeader('Retry-After', String(seconds));
      throw new TooManyRequestsError(
        message ?? `Too many requests. Please try again in ${describeWait(seconds)}.`,
        'RATE_LIMITED',
      );
    }
  }
}

/**
 * What a limit per address counts: an IPv4 address (also when written as IPv6, `::ffff:1.2.3.4`), or
 * the /64 network of an IPv6 address. One subscriber holds a whole /64 (2^64 addresses), so counting
 * each address alone would let one machine sign up, read and ping without limit.
 */
export function clientNetwork(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return address;
  const [head = '', tail = ''] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const width = (part: string[]) => part.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const missing = bare.includes('::') ? 8 - width(groups(head)) - width(groups(tail)) : 0;
  const full = [...groups(head), ...Array<string>(missing).fill('0'), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
