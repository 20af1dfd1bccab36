import { GITHUB_API_URL } from '@shiplog/schemas';
import { allowedHostsEnv, checkServiceEnv, requireInProduction, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const integrationsEnv = serviceEnv
  .extend({
    /** Seals every stored API key (a second layer over the vault's: libs/vault SecretBox). */
    INTEGRATION_KEY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * `host:port,…` exempt from the private-address block: an API on this machine or network, in
     * local development and tests. Nothing else private is ever called.
     */
    INTEGRATION_ALLOWED_HOSTS: allowedHostsEnv,
    /**
     * GitHub's REST API for a connection that names none: github.com's, or a GitHub Enterprise
     * Server's (`https://{host}/api/v3`) for a company that runs one. A user may name their own.
     */
    GITHUB_API_URL: z.url().default(GITHUB_API_URL),
    /**
     * A GitHub App the server's operator registered on GITHUB_API_URL's GitHub (docs/github-app.md), which
     * users may install in place of giving a token: all six, or none. The private key may be given on one
     * line, its newlines written `\\n`.
     */
    GITHUB_APP_ID: z.coerce.number().int().positive().optional(),
    GITHUB_APP_SLUG: z
      .string()
      .regex(/^[a-z0-9-]{1,100}$/, 'is the app’s name in its address, github.com/apps/{slug}')
      .optional(),
    GITHUB_APP_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_APP_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_APP_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    GITHUB_APP_PRIVATE_KEY: z
      .string()
      .transform((key) => key.replaceAll('\\n', '\n'))
      .refine((key) => key.includes('PRIVATE KEY-----'), 'must be the app’s private key, in PEM')
      .optional(),
    /** How long one request to an external API may take, connecting and reading included. */
    INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(25_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    checkServiceEnv(env, ctx);
    requireInProduction(env, ctx, 'INTEGRATION_KEY_SECRET');
    const app = GITHUB_APP_SETTINGS.filter((key) => env[key] !== undefined);
    if (app.length > 0 && app.length < GITHUB_APP_SETTINGS.length)
      for (const key of GITHUB_APP_SETTINGS.filter((key) => env[key] === undefined))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `is needed with ${app.join(', ')}: a GitHub App takes all six`,
        });
  });

const GITHUB_APP_SETTINGS = [
  'GITHUB_APP_ID',
  'GITHUB_APP_SLUG',
  'GITHUB_APP_CLIENT_ID',
  'GITHUB_APP_CLIENT_SECRET',
  'GITHUB_APP_WEBHOOK_SECRET',
  'GITHUB_APP_PRIVATE_KEY',
] as const;
export type IntegrationsEnv = z.infer<typeof integrationsEnv>;
