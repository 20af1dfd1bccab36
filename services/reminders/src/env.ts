import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import type { z } from 'zod';

export const remindersEnv = serviceEnv.superRefine(checkServiceEnv);
export type RemindersEnv = z.infer<typeof remindersEnv>;
