import { z } from 'zod';
import { inviteRoles, workspaceRoles } from './workspace-values.ts';

/** Team workspaces: their input and what the API answers of them. */

export const workspaceNameSchema = z
  .string({ error: 'Workspace name is required' })
  .trim()
  .min(1, 'Workspace name is required')
  .max(100, 'Workspace name must be at most 100 characters');

/** POST /api/workspaces. */
export const workspaceInputSchema = z.object({ name: workspaceNameSchema });

export const SLUG_MESSAGE =
  'Slug must be 3–40 lower-case letters, digits or hyphens, not starting or ending with a hyphen';

/** The address of a workspace's public status page, `/w/{slug}/status`. */
export const workspaceSlugSchema = z
  .string({ error: SLUG_MESSAGE })
  .trim()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/, SLUG_MESSAGE);

/** How long a slug given up still leads to its workspace, and is nobody else's. */
export const SLUG_REDIRECT_DAYS = 30;

/** PUT /api/workspaces/{id}: its name, its slug, or both. */
export const workspaceChangeSchema = z
  .object({ name: workspaceNameSchema.optional(), slug: workspaceSlugSchema.optional() })
  .refine((input) => input.name !== undefined || input.slug !== undefined, {
    message: 'Give a name or a slug',
    path: ['name'],
  });

const role = z.enum(workspaceRoles, { error: `Role must be one of ${workspaceRoles.join(', ')}` });
const inviteRole = z.enum(inviteRoles, { error: `Role must be one of ${inviteRoles.join(', ')}` });

/** PUT /api/workspaces/{id}/members/{userId}. */
export const memberRoleSchema = z.object({ role });

/** POST /api/workspaces/{id}/invites: to an account by its username, or to an email address. */
export const inviteInputSchema = z
  .object({
    username: z.string({ error: 'Username must be text' }).trim().min(1, 'Username is required').max(50).optional(),
    email: z.email('Invalid email address').max(254, 'Invalid email address').optional(),
    role: inviteRole.optional().default('member'),
  })
  .refine((input) => (input.username === undefined) !== (input.email === undefined), {
    message: 'Invite by username or by email address, one of the two',
    path: ['username'],
  });

/** POST /api/invites/{id}/preview: the secret of an emailed link. */
export const inviteSecretSchema = z.object({ secret: z.string({ error: 'The invite link is incomplete' }).max(200) });

export const workspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** Its public status page's address, `/w/{slug}/status`; null until an admin chooses one. */
  slug: z.string().nullable(),
  role,
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type WorkspaceView = z.infer<typeof workspaceView>;

/**
 * GET /api/workspaces/{id}: the workspace, and whether it is read-only now (none of its owners has a
 * trial or subscription: its projects take no changes until one has).
 */
export const workspaceDetailView = workspaceView.extend({ readOnly: z.boolean() });
export type WorkspaceDetailView = z.infer<typeof workspaceDetailView>;

export const memberView = z.object({ userId: z.uuid(), username: z.string(), role, joinedAt: z.string() });
export type MemberView = z.infer<typeof memberView>;

/** An invite as its workspace's admins see it (GET /api/workspaces/{id}/invites). */
export const sentInviteView = z.object({
  id: z.uuid(),
  role: inviteRole,
  /** The invited account's username, or the address's hint (`a…@example.com`). */
  to: z.string(),
  invitedBy: z.string(),
  expiresAt: z.string(),
});
export type SentInviteView = z.infer<typeof sentInviteView>;

/** The invite just made: by email, the link too, shown this once. */
export const createdInviteView = z.object({
  id: z.uuid(),
  role: inviteRole,
  expiresAt: z.string(),
  url: z.string().optional(),
});

/** An invite as the invited user sees it (GET /api/invites, and the emailed link's preview). */
export const receivedInviteView = z.object({
  id: z.uuid(),
  workspace: z.object({ id: z.uuid(), name: z.string() }),
  role: inviteRole,
  invitedBy: z.string(),
  expiresAt: z.string(),
});
export type ReceivedInviteView = z.infer<typeof receivedInviteView>;
