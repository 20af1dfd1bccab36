import { allowedHostsEnv, checkServiceEnv, mailEnvFields, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const monitorsEnv = serviceEnv
  .extend({
    /** Alert emails; unset, they are logged, not sent. */
    ...mailEnvFields,
    /**
     * Whether this process runs checks and sends alert deliveries (every replica may: each check and
     * each delivery is claimed once).
     */
    CHECKER_ENABLED: z.enum(['true', 'false']).default('true'),
    /** How often the checker looks for checks that are due. */
    CHECKER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
    /**
     * Checks (and alert deliveries) at once in this process, checks at once against one host, and at
     * once of one account: its slow targets hold its own places, never another's.
     */
    CHECKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
    CHECKER_PER_HOST: z.coerce.number().int().min(1).max(100).default(4),
    CHECKER_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
    /**
     * Where a domain's registration is looked up (RDAP): a server, or a bootstrap redirector that
     * sends each name to its registry's server.
     */
    RDAP_URL: z.url().default('https://rdap.org'),
    /** How long one check may take, connecting and reading included. */
    CHECK_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(10_000),
    /**
     * `host:port,…` exempt from the private-address block: targets and alert webhooks on this machine or
     * network, in local development and tests. Nothing else private is ever checked or posted to.
     */
    MONITOR_ALLOWED_HOSTS: allowedHostsEnv,
  })
  .superRefine(checkServiceEnv);
export type MonitorsEnv = z.infer<typeof monitorsEnv>;
