import { checkServiceEnv, mailEnvFields, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const remindersEnv = serviceEnv
  .extend({
    /** Reminder emails; unset, they are not sent. */
    ...mailEnvFields,
    SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
    SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  })
  .superRefine(checkServiceEnv);
export type RemindersEnv = z.infer<typeof remindersEnv>;
