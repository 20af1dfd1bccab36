import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';
import { commentPriorities, workspaceRoles } from './values.ts';

const commentPriority = z.enum(commentPriorities);
const workspaceRole = z.enum(workspaceRoles);

// identity — `username-<lowercase name>` streams hold the uniqueness claim; `user-<id>` the account.
export const identityEvents = {
  UsernameClaimed: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, username: z.string() }),
  }),
  UsernameReleased: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, username: z.string() }),
  }),
  UserRegistered: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, username: z.string(), email: z.string().nullable(), registeredAt: isoDate }),
  }),
  PasswordSet: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, passwordHash: z.string() }),
  }),
  UserLoggedIn: event({ owner: 'identity', version: 1, publish: true, schema: z.object({ userId: id, at: isoDate }) }),
  /** Published twin of the private PasswordSet, for the security timeline (no hash). */
  PasswordChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, at: isoDate }),
  }),
  /**
   * The account is gone: every service deletes what it holds of the user. Ids only, and never sealed:
   * it is read after the user's key has been destroyed.
   */
  UserDeleted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ userId: id, deletedBy: id, at: isoDate }),
  }),
  ProfileUpdated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      profile: z.object({
        displayName: z.string(),
        bio: z.string().nullable(),
        phoneNumber: z.string().nullable(),
        replitUsername: z.string().nullable(),
        avatar: z.string().nullable(),
        github: z.string().nullable(),
        twitter: z.string().nullable(),
        linkedin: z.string().nullable(),
        website: z.string().nullable(),
        projectVisibility: z.enum(['public', 'private']),
      }),
      at: isoDate,
    }),
  }),
  AccountInfoUpdated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, email: z.string().nullable(), phoneNumber: z.string().nullable(), at: isoDate }),
  }),
  /**
   * A link to prove the account's email address is its owner's was mailed: only the SHA-256 of its
   * secret is kept, and it stays in this service. A later request replaces it.
   */
  EmailVerificationRequested: event({
    owner: 'identity',
    version: 1,
    publish: false,
    schema: z.object({ userId: id, email: z.string(), tokenHash: z.string(), expiresAt: isoDate, at: isoDate }),
  }),
  /** The owner opened the link: mail (reminders) may go to this address until it changes. */
  EmailVerified: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, email: z.string(), at: isoDate }),
  }),
  /** `admin-comment-<id>` streams: messages administrators show to every user. */
  AdminCommentPosted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    // Shown to everyone, written in the administrator role.
    personal: false,
    schema: z.object({
      commentId: id,
      message: z.string(),
      priority: commentPriority,
      createdBy: id,
      adminUsername: z.string(),
      expiresAt: isoDate.nullable(),
      at: isoDate,
    }),
  }),
  /** An administrator changed a comment's text or priority. */
  AdminCommentEdited: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({
      commentId: id,
      message: z.string(),
      priority: commentPriority,
      editedBy: id,
      at: isoDate,
    }),
  }),
  /** Activate / Deactivate: only active, unexpired comments reach the users. */
  AdminCommentActivationChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ commentId: id, isActive: z.boolean(), changedBy: id, at: isoDate }),
  }),
  AdminCommentDeleted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ commentId: id, deletedBy: id, at: isoDate }),
  }),
  /** `contact-<id>` streams: a user's message to the administrators. */
  ContactMessageSent: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      messageId: id,
      userId: id,
      username: z.string(),
      subject: z.string(),
      message: z.string(),
      at: isoDate,
    }),
  }),
  /** An administrator marked a contact message handled (or not): ids only, read by the admin's inbox. */
  ContactMessageHandled: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ messageId: id, handled: z.boolean(), handledBy: id, at: isoDate }),
  }),
  NotificationSettingsChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      settings: z.object({
        emailNotifications: z.boolean(),
        projectUpdates: z.boolean(),
        securityAlerts: z.boolean(),
        marketingEmails: z.boolean(),
        gettingStartedHidden: z.boolean().optional(),
      }),
      at: isoDate,
    }),
  }),
  /**
   * A personal API token, on its user's stream: only the SHA-256 of the token is kept, and
   * it never leaves the service. Sealed with the user's key, so it is shredded with the account.
   */
  ApiTokenCreated: event({
    owner: 'identity',
    version: 1,
    publish: false,
    // `expiresAt`: null for a token that never expires; absent from tokens made before tokens had an
    // expiry, which count as made for the default 90 days. `scope` and `space` (a workspace's id, or
    // `personal`): absent from tokens made before tokens had them, which read and write everywhere. Not
    // `workspaceId`: that field names whose an event is (`dataSubjectOf`), and a token is its user's.
    schema: z.object({
      userId: id,
      tokenId: id,
      name: z.string(),
      tokenHash: z.string(),
      at: isoDate,
      expiresAt: isoDate.nullable().optional(),
      scope: z.enum(['read', 'write']).optional(),
      space: z.string().nullable().optional(),
    }),
  }),
  // Published (ids only) so every gateway forgets the token it may have cached.
  ApiTokenRevoked: event({
    owner: 'identity',
    version: 1,
    publish: true,
    // `name` and `space` (a workspace's id): for a token limited to one workspace, whose audit log
    // records it; absent for the others, and from tokens revoked before.
    schema: z.object({
      userId: id,
      tokenId: id,
      name: z.string().optional(),
      space: z.string().optional(),
      at: isoDate,
    }),
  }),
  /**
   * A token limited to one team workspace was made: published (its `ApiTokenCreated`, which holds its
   * hash, is not) for the workspace's audit log. `space`, not `workspaceId`: a token is its user's.
   */
  WorkspaceApiTokenCreated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      tokenId: id,
      name: z.string(),
      scope: z.enum(['read', 'write']),
      space: id,
      at: isoDate,
    }),
  }),
  // `workspace-<id>` streams: a team workspace, its members and its invites. Ids, roles and the
  // team's name only (members' names are read from their accounts), so a member's erasure leaves the
  // team's history readable: none is personal. Published, so every service can keep who may reach a
  // workspace's projects; an emailed invite's secret stays in the stream (WorkspaceInviteLinkMade).
  WorkspaceCreated: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, name: z.string(), ownerId: id, at: isoDate }),
  }),
  WorkspaceRenamed: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, name: z.string(), renamedBy: id, at: isoDate }),
  }),
  /** The address of the workspace's public status page (`/w/{slug}/status`), chosen by an admin. */
  WorkspaceSlugSet: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, slug: z.string(), previous: z.string().nullable(), setBy: id, at: isoDate }),
  }),
  /**
   * `workspace-slug-<slug>` streams: a slug's claim, so two workspaces never have one. A slug given up
   * still leads to its workspace until `redirectUntil` (30 days), and nobody else takes it before then.
   */
  WorkspaceSlugClaimed: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ slug: z.string(), workspaceId: id, at: isoDate }),
  }),
  WorkspaceSlugReleased: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ slug: z.string(), workspaceId: id, redirectUntil: isoDate, at: isoDate }),
  }),
  WorkspaceDeleted: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, deletedBy: id, at: isoDate }),
  }),
  /**
   * To an account (`inviteeId`) or to an address, kept as the SHA-256 of its lower-case form
   * (`emailHash`, matched against an account's proven address) and a hint for the admins' list
   * (`a…@example.com`).
   */
  WorkspaceInviteSent: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({
      workspaceId: id,
      inviteId: id,
      role: workspaceRole,
      invitedBy: id,
      inviteeId: id.nullable(),
      emailHash: z.string().nullable(),
      emailHint: z.string().nullable(),
      expiresAt: isoDate,
      at: isoDate,
    }),
  }),
  /** The SHA-256 of an emailed invite link's secret: it never leaves the service. */
  WorkspaceInviteLinkMade: event({
    owner: 'identity',
    version: 1,
    publish: false,
    personal: false,
    schema: z.object({ workspaceId: id, inviteId: id, secretHash: z.string() }),
  }),
  WorkspaceInviteRevoked: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, inviteId: id, revokedBy: id, at: isoDate }),
  }),
  WorkspaceInviteDeclined: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, inviteId: id, declinedBy: id, at: isoDate }),
  }),
  /** A member joined by accepting an invite (the owner is a member from WorkspaceCreated on). */
  WorkspaceMemberJoined: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, memberId: id, role: workspaceRole, inviteId: id, at: isoDate }),
  }),
  WorkspaceMemberRoleChanged: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, memberId: id, role: workspaceRole, changedBy: id, at: isoDate }),
  }),
  /** Removed by an admin, or left (`removedBy` is the member), or gone with their account. */
  WorkspaceMemberRemoved: event({
    owner: 'identity',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({ workspaceId: id, memberId: id, removedBy: id, at: isoDate }),
  }),
} as const satisfies Record<string, { owner: 'identity' }>;
