import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';
import { commentPriorities } from './values.ts';

const commentPriority = z.enum(commentPriorities);

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
    // expiry, which count as made for the default 90 days.
    schema: z.object({
      userId: id,
      tokenId: id,
      name: z.string(),
      tokenHash: z.string(),
      at: isoDate,
      expiresAt: isoDate.nullable().optional(),
    }),
  }),
  // Published (ids only) so every gateway forgets the token it may have cached.
  ApiTokenRevoked: event({
    owner: 'identity',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, tokenId: id, at: isoDate }),
  }),
} as const satisfies Record<string, { owner: 'identity' }>;
