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
    /** How long one request to an external API may take, connecting and reading included. */
    INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(25_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    checkServiceEnv(env, ctx);
    requireInProduction(env, ctx, 'INTEGRATION_KEY_SECRET');
  });
export type IntegrationsEnv = z.infer<typeof integrationsEnv>;
