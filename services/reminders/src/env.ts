import { isHostPattern } from '@shiplog/outbound';
import { checkServiceEnv, mailEnvFields, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

/** The push services browsers subscribe with: Chrome's (FCM), Firefox's, Safari's and Edge's. */
export const browserPushServices = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

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
    /**
     * The push services a device's endpoint may be at (`name`, `*.name`: https only; `host:port`: also on
     * a private address, for a local push service or the tests' stand-in), comma-separated; by default
     * the browsers' own (`browserPushServices`), also when empty. An endpoint anywhere else is refused
     * when it is saved, and a device saved before the list changed is forgotten at its next push.
     */
    PUSH_ALLOWED_HOSTS: z
      .string()
      .optional()
      .transform((list) => {
        const entries = (list ?? '')
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean);
        return entries.length > 0 ? entries : browserPushServices;
      })
      .refine((entries) => entries.every(isHostPattern), 'each entry must be name, *.name or host:port'),
    SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
    SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  })
  .superRefine(checkServiceEnv);
export type RemindersEnv = z.infer<typeof remindersEnv>;
