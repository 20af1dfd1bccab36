import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BusRetention, defaultRetention } from '@shiplog/messaging';
import { z } from 'zod';

/**
 * Configuration is read once, at start, through one zod schema per process. A bad or missing value
 * stops the process with a message naming the variable.
 */
export class ConfigError extends Error {}

export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // An empty variable means "unset": defaults apply.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/**
 * Secrets for local development, generated once and kept in .data/dev-secrets/<NAME> so every process
 * of one checkout (gateway and services) shares them and sessions survive restarts. Production must
 * set them (the schemas below refuse to start without).
 *
 * The processes of a first start race to create them: each writes its candidate to a file of its own
 * and publishes it with link(), which fails when another got there first; then every process reads
 * the one that won. Nobody reads a half-written file, and nobody keeps a value the others lost.
 */
export function devSecret(name: string): string {
  const dir = join(repoRoot, '.data', 'dev-secrets');
  const file = join(dir, name);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const candidate = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}`);
    writeFileSync(candidate, randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      linkSync(candidate, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(candidate);
    }
  }
  return readFileSync(file, 'utf8');
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What every process shares: environment, logging, and the internal-token secret. */
export const processEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  /** Log lines go to this file (appended) instead of standard output. */
  LOG_FILE: z.string().min(1).optional(),
  INTERNAL_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** OTLP/HTTP collector for traces; unset → tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** The bearer token Prometheus sends for `/metrics`; unset → open outside production, off in it. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/**
 * The bus, the same for the services and the gateway: where NATS is, the namespace, and how much of the
 * stream JetStream keeps (`BusRetention`, applied to the stream at start).
 */
export const busEnv = {
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  BUS_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,60}$/, 'must be lower-case letters, digits and underscores')
    .default('shiplog'),
  /** Events older than this leave the stream (each stays in its owner's event store). */
  BUS_MAX_AGE_DAYS: z.coerce
    .number()
    .min(1)
    .max(3650)
    .default(defaultRetention.maxAgeMs / 86_400_000),
  /** And the oldest go once the stream holds this many bytes. */
  BUS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024 ** 2)
    .default(defaultRetention.maxBytes),
  /** NATS servers holding each event: 3 on a three-node cluster. */
  BUS_REPLICAS: z.coerce.number().int().min(1).max(5).default(defaultRetention.replicas),
};

/** `connectBus`'s options from a process's configuration. */
export const busOptions = (config: {
  NATS_URL: string;
  BUS_NAMESPACE: string;
  BUS_MAX_AGE_DAYS: number;
  BUS_MAX_BYTES: number;
  BUS_REPLICAS: number;
}) => ({
  url: config.NATS_URL,
  namespace: config.BUS_NAMESPACE,
  retention: {
    maxAgeMs: config.BUS_MAX_AGE_DAYS * 86_400_000,
    maxBytes: config.BUS_MAX_BYTES,
    replicas: config.BUS_REPLICAS,
  } satisfies BusRetention,
});

/**
 * `host:port,…` exempt from `libs/outbound`'s private-address block (an API or a site on this machine
 * or network, in local development and tests), as a list of lower-case `host:port`; empty by default.
 */
export const allowedHostsEnv = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * Where each service listens by default, and the gateway finds it (`<NAME>_URL` overrides).
 * One table, so the two sides cannot drift.
 */
export const serviceDirectory = {
  identity: 4101,
  projects: 4102,
  reminders: 4103,
  billing: 4104,
  chat: 4105,
  integrations: 4106,
  activity: 4107,
  monitors: 4108,
} as const;

export type ServiceName = keyof typeof serviceDirectory;

/** Every service, in the directory's order (the order `npm start` starts them in). */
export const serviceNames = Object.keys(serviceDirectory) as ServiceName[];

/** `<NAME>_URL` for every service, each where `urlOf` says it answers. */
export const serviceUrlVariables = (urlOf: (name: ServiceName) => string): Record<string, string> =>
  Object.fromEntries(serviceNames.map((name) => [`${name.toUpperCase()}_URL`, urlOf(name)]));

/**
 * Where each service answers (`<NAME>_URL`): the gateway forwards there, and a service asks another
 * there when it must decide from the owner's latest word (`@shiplog/contracts`' plan-gates.ts).
 */
export const serviceUrls = Object.fromEntries(
  Object.entries(serviceDirectory).map(([name, port]) => [
    `${name.toUpperCase()}_URL`,
    z.url().default(`http://127.0.0.1:${port}`),
  ]),
) as Record<`${Uppercase<ServiceName>}_URL`, z.ZodDefault<z.ZodURL>>;

export const serviceUrlsOf = (config: Record<`${Uppercase<ServiceName>}_URL`, string>): Record<ServiceName, string> =>
  Object.fromEntries(
    serviceNames.map((name) => [name, config[`${name.toUpperCase() as Uppercase<ServiceName>}_URL`]]),
  ) as Record<ServiceName, string>;

/** What every service process adds: its database, bus and event store, and where the others answer. */
export const serviceEnv = processEnv.extend({
  ...serviceUrls,
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
    .default('postgres://postgres@127.0.0.1:5432/shiplog'),
  /**
   * Connections each service process keeps to PostgreSQL. Five services at 20 took all of a default
   * server's 100; and on two cores, 10 concurrent queries per service ran the same reads with less
   * database CPU than 20 did. At least 5: the relay's listener holds one for good, and each consumer
   * holds one through its batch (a command inside a batch runs on that connection: handleCommand).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(5).max(200).default(10),
  /**
   * With several replicas of a service, one (the leader, holding a PostgreSQL advisory lock) runs its
   * relay and consumers; the others try for the lock this often, and the leader checks it holds it.
   */
  LEADER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  ...busEnv,
  EVENT_STORE: z.enum(['postgres', 'esdb']).default('postgres'),
  EVENTSTORE_URL: z.string().optional(),
  SERVICE_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SERVICE_HOST: z.string().default('127.0.0.1'),
  /** The app's public URL: the base of every link a service hands out (emails, feeds, webhooks, checkout). */
  APP_URL: z.url().default('http://localhost:3000'),
  /** Wraps every user's data key at rest (libs/vault); the same in every service. */
  VAULT_KEY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** While rotating VAULT_KEY_SECRET: the one it replaces (keys are wrapped anew at start). */
  VAULT_KEY_SECRET_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
});

/**
 * The vault's master key outside production when none is set: a fixed, public one, so that a local
 * database stays readable whatever happens to `.data/` (it protects nothing; production must set one).
 */
export const DEVELOPMENT_VAULT_KEY = 'shiplog-development-vault-key, not a secret: set VAULT_KEY_SECRET';

/** The vault's master key, and while rotating the one it replaces (see libs/vault). */
export const vaultKeys = (env: ServiceEnv): { masterKey: string; previousMasterKeys: string[] } => ({
  masterKey: env.VAULT_KEY_SECRET ?? DEVELOPMENT_VAULT_KEY,
  previousMasterKeys: env.VAULT_KEY_SECRET_PREVIOUS ? [env.VAULT_KEY_SECRET_PREVIOUS] : [],
});

export type ServiceEnv = z.infer<typeof serviceEnv>;

/** Rules across variables, shared by every service schema. */
export function checkServiceEnv(env: ServiceEnv, ctx: z.RefinementCtx): void {
  if (env.EVENT_STORE === 'esdb' && !env.EVENTSTORE_URL) {
    ctx.addIssue({ code: 'custom', path: ['EVENTSTORE_URL'], message: 'is required when EVENT_STORE=esdb' });
  }
  requireInProduction(env, ctx, 'INTERNAL_TOKEN_SECRET');
  requireInProduction(env, ctx, 'VAULT_KEY_SECRET');
}

export function requireInProduction<E extends { NODE_ENV: string }>(
  env: E,
  ctx: z.RefinementCtx,
  key: keyof E & string,
): void {
  if (env.NODE_ENV === 'production' && !env[key]) {
    ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
  }
}
