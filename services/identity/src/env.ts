import { DEFAULT_WORKSPACE_MAX_MEMBERS } from '@shiplog/schemas';
import { checkServiceEnv, mailEnvFields, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';
import { isCommonPassword } from './user/passwords.ts';

/** The administrator's password is the keys to every account: long, not common, not an example's. */
const adminPassword = z
  .string()
  .min(12, 'must be at least 12 characters')
  .refine((value) => !isCommonPassword(value), 'is a common password: choose another')
  .refine(
    (value) => !/change-?me|^replace|^your-|\.\.\.$/i.test(value),
    'is an example value: set a password of your own (openssl rand -base64 18)',
  );

export const identityEnv = serviceEnv
  .extend({
    ADMIN_USERNAME: z.string().trim().min(3, 'must be at least 3 characters').default('admin'),
    ADMIN_PASSWORD: adminPassword.optional(),
    /** How many members a team workspace has at most, pending invites counted. */
    WORKSPACE_MAX_MEMBERS: z.coerce.number().int().min(2).max(1000).default(DEFAULT_WORKSPACE_MAX_MEMBERS),
    /** The links that prove an address; unset, they are not sent (only logged, at debug). */
    ...mailEnvFields,
  })
  .superRefine(checkServiceEnv);

export type IdentityEnv = z.infer<typeof identityEnv>;
