import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import type { z } from 'zod';

export const activityEnv = serviceEnv.superRefine(checkServiceEnv);
export type ActivityEnv = z.infer<typeof activityEnv>;
