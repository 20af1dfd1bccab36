/**
 * Every form's zod schema, with the resolver that applies it, in one module that forms load when first
 * used (lib/forms.ts, lib/load-form-schemas.ts): pages render their forms without shipping zod. The API's own schemas come
 * from @shiplog/schemas; the ones here are the web forms' shapes, which the page turns into the API's.
 */
import {
  checklistKeys,
  inviteRoles,
  normalizeSocialLink,
  projectStatuses,
  reminderFrequencies,
  type SocialLinkKey,
  socialLinkKeys,
  workspaceSlugSchema,
} from '@shiplog/schemas';
import { z } from 'zod';

export { zodResolver } from '@hookform/resolvers/zod';
export {
  accountInfoSchema,
  adminCommentSchema,
  apiTokenSchema,
  changePasswordFormSchema,
  connectGitHubSchema,
  contactAdminSchema,
  createAlertChannelSchema,
  createDomainMonitorSchema,
  createExpectationSchema,
  createMonitorSchema,
  extendTrialSchema,
  incidentNoteSchema,
  integrationFormSchema,
  loginSchema,
  profileFormSchema,
  recordBackupFormSchema,
  recordDeploymentFormSchema,
  recordVersionFormSchema,
  registerFormSchema,
  verifyPasswordSchema,
  workspaceInputSchema,
} from '@shiplog/schemas';

/** The workspace's status page address (`PUT /api/workspaces/{id}` with its slug alone). */
export const workspaceSlugFormSchema = z.object({ slug: workspaceSlugSchema });

const INVALID_URL = 'Please enter a valid URL';

function isLink(key: SocialLinkKey, value: string): boolean {
  if (!value.trim()) return true;
  try {
    const url = new URL(normalizeSocialLink(key, value));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The form's own shape: cost typed in dollars, links as typed; `toProjectInput` turns it into the API's. */
export const projectFormSchema = z.object({
  // The server's limits and messages (libs/schemas' project input), checked before anything is sent.
  name: z.string().trim().min(1, 'Project name is required').max(200, 'Project name must be at most 200 characters'),
  status: z.enum(projectStatuses),
  description: z.string().max(5000, 'Description must be at most 5000 characters'),
  cost: z
    .string()
    .refine(
      (v) => v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) >= 0),
      'Cost estimate must be 0 or more',
    ),
  replitId: z.string().max(200, 'Replit ID must be at most 200 characters'),
  isPublic: z.boolean(),
  /** The team workspace a new project is made in; empty, the user's personal space. */
  workspaceId: z.string(),
  checklist: z.object(
    Object.fromEntries(checklistKeys.map((k) => [k, z.boolean()])) as Record<
      (typeof checklistKeys)[number],
      z.ZodBoolean
    >,
  ),
  socialLinks: z.object(
    Object.fromEntries(socialLinkKeys.map((k) => [k, z.string().refine((v) => isLink(k, v), INVALID_URL)])) as Record<
      SocialLinkKey,
      z.ZodString
    >,
  ),
});

/** The Quick Update popover's notes and boxes (spec/core.md §4). */
export const quickUpdateFormSchema = z.object({
  notes: z.string().trim().min(3, 'Notes must be at least 3 characters'),
  redeployed: z.boolean(),
  backedUp: z.boolean(),
});

/** The reminder form (spec/core.md §5): date and time are combined into one ISO datetime on submit. */
export const reminderFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(3, 'Title must be at least 3 characters')
    .max(100, 'Title must be at most 100 characters'),
  description: z.string(),
  dueDate: z.string().min(1, 'Due date is required'),
  dueTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Invalid time format'),
  reminderTimes: z.array(z.string()).min(1, 'Select at least one reminder time'),
  frequency: z.enum(reminderFrequencies),
  isCompleted: z.boolean(),
  // A team project's reminder: the member it reaches (empty: its author).
  assigneeId: z.string(),
});

/**
 * A team workspace's invite: to an account by its username, or to an email address (a username may
 * hold an `@`, so the form asks which), with the role it gives. The page sends the API's shape.
 */
export const inviteFormSchema = z
  .object({
    by: z.enum(['username', 'email']),
    to: z.string().trim(),
    role: z.enum(inviteRoles),
  })
  .superRefine(({ by, to }, context) => {
    const problem =
      by === 'username'
        ? to === ''
          ? 'Username is required'
          : to.length > 50
            ? 'Username must be at most 50 characters'
            : null
        : to === ''
          ? 'Email address is required'
          : to.length > 254 || !z.email().safeParse(to).success
            ? 'Invalid email address'
            : null;
    if (problem) context.addIssue({ code: 'custom', path: ['to'], message: problem });
  });
