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
    /** How long one request to an external API may take, connecting and reading included. */
    INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(25_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    checkServiceEnv(env, ctx);
    requireInProduction(env, ctx, 'INTEGRATION_KEY_SECRET');
  });
export type IntegrationsEnv = z.infer<typeof integrationsEnv>;
