import { busEnv, devSecret, processEnv, requireInProduction, serviceUrls } from '@shiplog/service-kit';
import { z } from 'zod';
import { limitsEnv } from './serving/limits.ts';

export const gatewayEnv = processEnv
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    APP_URL: z.url().optional(),
    REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
    /** The bus the live feed (`GET /api/events`) reads every published event from. */
    ...busEnv,
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Express `trust proxy`: set behind a reverse proxy so client IPs and HTTPS are seen (e.g. `loopback`, `1`). */
    TRUST_PROXY: z.string().optional(),
    WEB_DIST: z.string().optional(),
    /** A session ends after this long without a request (OWASP ASVS 3.3.2: 30 minutes)… */
    SESSION_IDLE_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(30 * 60),
    /** …and this long after sign-in, however active (12 hours). */
    SESSION_ABSOLUTE_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(12 * 60 * 60),
    /**
     * How long a verified API token is trusted without asking identity again (0: ask at every call).
     * A revocation, a password change or a deleted account ends it sooner, on every gateway (token-cache.ts).
     */
    API_TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
    /** Failed sign-ins for one name from one address per window (ten times this from one address). */
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
    /** Failed sign-ins for one name from all addresses per window, before only known addresses may try. */
    LOGIN_MAX_FAILURES_PER_NAME: z.coerce.number().int().min(1).default(50),
    LOGIN_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(15 * 60),
    ...limitsEnv,
    ...serviceUrls,
  })
  .superRefine((env, ctx) => {
    requireInProduction(env, ctx, 'SESSION_SECRET');
    requireInProduction(env, ctx, 'INTERNAL_TOKEN_SECRET');
  });

export type GatewayEnv = z.infer<typeof gatewayEnv>;

export function secretsOf(env: GatewayEnv) {
  return {
    session: env.SESSION_SECRET ?? devSecret('SESSION_SECRET'),
    internalToken: env.INTERNAL_TOKEN_SECRET ?? devSecret('INTERNAL_TOKEN_SECRET'),
  };
}
