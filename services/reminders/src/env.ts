import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const remindersEnv = serviceEnv
  .extend({
    /** Reminder emails; unset, they are written to the log instead. */
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Shiplog <reminders@shiplog.local>'),
    SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
    SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  })
  .superRefine(checkServiceEnv);
export type RemindersEnv = z.infer<typeof remindersEnv>;
