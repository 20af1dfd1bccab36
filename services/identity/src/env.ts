import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const identityEnv = serviceEnv
  .extend({
    ADMIN_USERNAME: z.string().trim().min(3, 'must be at least 3 characters').default('admin'),
    ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  })
  .superRefine(checkServiceEnv);

export type IdentityEnv = z.infer<typeof identityEnv>;
