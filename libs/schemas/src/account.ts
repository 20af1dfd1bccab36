import { z } from 'zod';
import { commentPriorities } from './admin-values.ts';
import { normalizeSocialLink, projectVisibilities } from './project-values.ts';
import { isStorableDate } from './reminders.ts';

/** Profile, account and settings input (spec/account.md §3, §5), shared by the web and identity. */

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v == null || v.trim() === '' ? null : v.trim()));

/** A link typed as a URL or a handle: https:// is prepended, a twitter @handle becomes its profile URL. */
const profileLink = (site: 'github' | 'twitter' | 'linkedin' | 'website') =>
  z
    .string({ error: 'Please enter a valid URL' })
    .max(300, 'Links must be at most 300 characters')
    .nullish()
    .transform((v, ctx) => {
      if (v == null || v.trim() === '') return null;
      const url = normalizeSocialLink(site === 'twitter' ? 'twitter' : 'website', v);
      try {
        const parsed = new URL(url);
        if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname.includes('.'))
          throw new Error('not a web address');
        return url;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Please enter a valid URL' });
        return z.NEVER;
      }
    });

export const profileSchema = z.object({
  displayName: z
    .string({ error: 'Display name is required' })
    .trim()
    .min(1, 'Display name is required')
    .max(100, 'Display name must be at most 100 characters'),
  bio: optionalText(1000, 'Bio'),
  phoneNumber: optionalText(20, 'Phone number'),
  replitUsername: optionalText(100, 'Replit username'),
  avatar: profileLink('website'),
  github: profileLink('github'),
  twitter: profileLink('twitter'),
  linkedin: profileLink('linkedin'),
  website: profileLink('website'),
  projectVisibility: z
    .enum(projectVisibilities, { error: 'Project visibility must be public or private' })
    .optional()
    .default('public'),
});
export type ProfileInput = z.infer<typeof profileSchema>;
export type Profile = ProfileInput & {
  isReplitLinked: boolean;
  /** Settings shows whether the address is proven; reminders are emailed only to one that is. */
  emailVerified?: boolean;
};

export const accountInfoSchema = z.object({
  email: z
    .union([z.literal(''), z.email('Invalid email')])
    .nullish()
    .transform((v) => v || null),
  phoneNumber: optionalText(20, 'Phone number'),
});

const passwordChangeFields = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  newPassword: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
});

/** POST /api/user/change-password; the spec's client sends oldPassword, currentPassword is accepted too. */
export const changePasswordSchema = z.preprocess(
  (body) =>
    body && typeof body === 'object'
      ? {
          ...(body as object),
          currentPassword:
            (body as Record<string, unknown>).currentPassword ?? (body as Record<string, unknown>).oldPassword,
        }
      : body,
  passwordChangeFields,
);

/** `POST /api/reauth`: the password again, before a sensitive change (the reauthentication dialog). */
/** POST /api/email-verification: the secret of the link mailed to the address, from its `#` part. */
export const emailVerificationSchema = z.object({
  token: z
    .string({ error: 'The link is incomplete' })
    .min(1, 'The link is incomplete')
    .max(200, 'The link is not valid'),
});

export const verifyPasswordSchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
});

/** The Settings password form: the server's rules, and the new password typed twice alike. */
export const changePasswordFormSchema = passwordChangeFields
  .extend({ confirmPassword: z.string().min(6, 'Password must be at least 6 characters') })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

/** The Edit Profile form: the profile's own fields with the account's email and phone, by the server's rules. */
export const profileFormSchema = profileSchema
  .pick({ displayName: true, bio: true, github: true, twitter: true, linkedin: true, website: true })
  .extend({ projectVisibility: z.enum(projectVisibilities) })
  .extend(accountInfoSchema.shape);

export const notificationSettingsSchema = z.object({
  emailNotifications: z.boolean({ error: 'emailNotifications must be true or false' }),
  projectUpdates: z.boolean({ error: 'projectUpdates must be true or false' }),
  securityAlerts: z.boolean({ error: 'securityAlerts must be true or false' }),
  marketingEmails: z.boolean({ error: 'marketingEmails must be true or false' }),
  /** The dashboard's getting-started steps, hidden by the user (shown until then, or until all are done). */
  gettingStartedHidden: z.boolean({ error: 'gettingStartedHidden must be true or false' }).optional(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
/** Email, project updates and security alerts on; marketing off. */
export const defaultNotificationSettings: NotificationSettings = {
  emailNotifications: true,
  projectUpdates: true,
  securityAlerts: true,
  marketingEmails: false,
};

/** An administrator's message to all users (spec/account.md §3, §5). */
export const adminCommentSchema = z.object({
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(2000, 'Message must be at most 2000 characters'),
  priority: z
    .enum(commentPriorities, { error: 'Priority must be normal, high or urgent' })
    .optional()
    .default('normal'),
  expiresAt: z.coerce
    .date({ error: 'expiresAt must be a date' })
    .refine(isStorableDate, 'expiresAt must be between the years 1 and 9999')
    .nullish(),
});

/** Contact Admin (spec/core.md §5): both non-blank. */
export const contactAdminSchema = z.object({
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(200, 'Subject must be at most 200 characters'),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message must be at most 5000 characters'),
});

export interface AdminComment {
  id: string;
  message: string;
  priority: (typeof commentPriorities)[number];
  createdAt: string;
  adminUsername: string;
}

/** How long a new API token works: days, or null for never. 90 when not said. */
export const apiTokenLifetimes = [30, 90, 365, null] as const;
export const DEFAULT_API_TOKEN_DAYS = 90;

/**
 * What a personal API token may do: `read` answers its writes 403 `TOKEN_SCOPE`; `write` reads and
 * changes what its user may change. `write` when not said: what every token did before tokens had a scope.
 */
export const apiTokenScopes = ['read', 'write'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** The space a token is limited to: its user's personal space, by this name, or one workspace by its id. */
export const PERSONAL_SPACE = 'personal';

export const TOKEN_SCOPE_MESSAGE =
  'This API token is read-only: make a read-and-write token in Settings to change data.';

export const apiTokenSchema = z.object({
  // A personal API token's name: what it is for, as the user will recognise it in the list.
  name: z
    .string({ error: 'Token name is required' })
    .trim()
    .min(1, 'Token name is required')
    .max(50, 'Token name must be at most 50 characters'),
  // A form's select sends text: "30", "90", "365" or "never".
  expiresInDays: z.preprocess(
    (value) => (value === 'never' ? null : typeof value === 'string' && value !== '' ? Number(value) : value),
    z
      .union([z.literal(30), z.literal(90), z.literal(365), z.null()], {
        error: 'Expiry must be 30, 90 or 365 days, or never',
      })
      .default(DEFAULT_API_TOKEN_DAYS),
  ),
  scope: z.enum(apiTokenScopes, { error: 'Scope must be read or write' }).default('write'),
  // Every space the user reaches when not said (or empty, as a form's select sends it).
  workspaceId: z.preprocess(
    (value) => (value === '' ? null : value),
    z
      .union([z.literal(PERSONAL_SPACE), z.uuid()], { error: 'Workspace must be a workspace id or "personal"' })
      .nullable()
      .default(null),
  ),
});
export type ApiTokenInput = z.infer<typeof apiTokenSchema>;

/** One of the account's signed-in sessions, as Settings › Sessions lists it (`GET /api/sessions`). */
export interface SessionView {
  /** Names the session for `DELETE /api/sessions/:id`; not the session's own id, which never leaves the server. */
  id: string;
  /** The session this request came with. */
  current: boolean;
  /** The browser and its version, from the user agent ("Firefox 128"); empty when it sent none. */
  browser: string;
  /** The operating system ("macOS 14.5", "Android 15"); empty when unknown. */
  os: string;
  /** desktop, mobile, tablet, tv or unknown. */
  deviceType: 'desktop' | 'mobile' | 'tablet' | 'tv' | 'unknown';
  /** The address it signed in from, as the gateway saw it through the proxies it trusts. */
  ipAddress: string;
  signedInAt: string;
  lastSeenAt: string;
}
