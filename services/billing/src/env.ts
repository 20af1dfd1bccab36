import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import type { z } from 'zod';

export const billingEnv = serviceEnv.superRefine(checkServiceEnv);
export type BillingEnv = z.infer<typeof billingEnv>;
