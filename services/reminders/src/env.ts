import { allowedHostsEnv, checkServiceEnv, mailEnvFields, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const remindersEnv = serviceEnv
  .extend({
    /** Reminder emails; unset, they are not sent. */
    ...mailEnvFields,
    /**
     * Push reminders' VAPID private key: 32 random bytes, base64url (`openssl rand 32 | basenc --base64url`).
     * Unset outside production: one generated at first start (.data/dev-secrets). Unset in production:
     * push reminders are off. Keep it: browsers' subscriptions are bound to its public half.
     */
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}=?$/, 'must be 32 bytes, base64url')
      .optional(),
    /** Who push services contact about this server's pushes: a mailto: or https: URL (default: APP_URL if https). */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// URL')
      .optional(),
    /** `host:port,…` push endpoints allowed on private addresses (tests and local push services); empty by default. */
    PUSH_ALLOWED_HOSTS: allowedHostsEnv,
    SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
    SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  })
  .superRefine(checkServiceEnv);
export type RemindersEnv = z.infer<typeof remindersEnv>;
