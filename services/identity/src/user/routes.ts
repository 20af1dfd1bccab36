import {
  accountInfoSchema,
  adminUsersQuerySchema,
  apiTokenSchema,
  apiTokenView,
  changePasswordSchema,
  emailVerificationSchema,
  loginSchema,
  messageView,
  notificationSettingsSchema,
  profileSchema,
  projectVisibilities,
  registerSchema,
  subscriptionStatuses,
  verifyPasswordSchema,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The account as the gateway knows its user (`PublicUser`). */
export const publicUserView = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  isAdmin: z.boolean(),
});

/** The profile as Settings reads it: the stored one, or a first one made of the username. */
const profileView = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  displayName: z.string(),
  bio: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  replitUsername: z.string().nullable(),
  avatar: z.string().nullable(),
  github: z.string().nullable(),
  twitter: z.string().nullable(),
  linkedin: z.string().nullable(),
  website: z.string().nullable(),
  projectVisibility: z.enum(projectVisibilities),
  isReplitLinked: z.boolean(),
  emailVerified: z.boolean(),
});

/** Which notifications the user gets. */
const notificationSettingsView = z.object({
  emailNotifications: z.boolean(),
  projectUpdates: z.boolean(),
  securityAlerts: z.boolean(),
  marketingEmails: z.boolean(),
  gettingStartedHidden: z.boolean().optional(),
});

/** The account's own routes: registration, sign-in's check, profile, account information, password, settings, deletion (answered in `api.ts`). */
export const userRoutes = declareRoutes({
  // The gateway's register action: it then signs the new user in.
  'POST /register': {
    summary: 'Create an account: the account, for the gateway to sign its user in',
    access: 'public',
    internal: true,
    body: registerSchema,
    status: 201,
    answer: publicUserView,
  },
  // The gateway's login action, throttled there.
  'POST /login': {
    summary: 'Check a username and password: the account, for the gateway to sign its user in',
    access: 'public',
    internal: true,
    body: loginSchema,
    answer: publicUserView,
  },
  // For the gateway's /u/{username} page: only while the profile is public.
  'GET /public/profiles/:username': {
    summary: 'What a public profile shows (404 while it is private)',
    access: 'public',
    internal: true,
    answer: z.object({
      userId: z.string(),
      username: z.string(),
      displayName: z.string(),
      bio: z.string().nullable(),
      github: z.string().nullable(),
      twitter: z.string().nullable(),
      linkedin: z.string().nullable(),
      website: z.string().nullable(),
    }),
  },
  'GET /profile': { tag: 'Settings', summary: 'The profile', access: 'user', answer: profileView },
  // The profile's visibility and fields are what its public pages show.
  'POST /profile': {
    tag: 'Settings',
    summary: 'Change the profile',
    access: 'user',
    publicPages: true,
    body: profileSchema,
    answer: profileView,
  },
  // Changes the address reminders and account mail go to; a new address is mailed a link to prove it.
  'POST /user/account-info': {
    tag: 'Settings',
    summary: 'Change the email address and phone number',
    description: 'A new address is mailed a link that proves it.',
    access: 'user',
    recentAuth: true,
    limit: 'verifyEmail',
    body: accountInfoSchema,
    answer: z.object({ email: z.string().nullable(), phoneNumber: z.string().nullable(), emailVerified: z.boolean() }),
  },
  // The gateway's change-password action, which then ends the user's other sessions.
  'POST /user/change-password': {
    summary: 'Change the password, the current one checked',
    access: 'user',
    internal: true,
    body: changePasswordSchema,
    answer: messageView,
  },
  // The gateway's /api/reauth.
  'POST /user/verify-password': {
    summary: 'Check the signed-in user’s password before a sensitive change',
    access: 'user',
    internal: true,
    body: verifyPasswordSchema,
    answer: messageView,
  },
  'GET /notifications/settings': {
    tag: 'Settings',
    summary: 'Which notifications the user gets',
    access: 'user',
    answer: notificationSettingsView,
  },
  'POST /notifications/settings': {
    tag: 'Settings',
    summary: 'Change which notifications the user gets',
    access: 'user',
    body: notificationSettingsSchema,
    answer: notificationSettingsView,
  },
  // The gateway's delete-account action, which then ends every session of the account.
  'DELETE /user': {
    summary: 'Delete the caller’s account and everything it keeps',
    access: 'user',
    internal: true,
    status: 204,
  },
  // The gateway's GET /api/user (with billing's subscription) and the dashboard's query.
  'GET /users/me': {
    summary: 'The signed-in account, as the gateway knows its user',
    access: 'user',
    internal: true,
    answer: publicUserView,
  },
});

/** Proving an address (answered in `email-verification.ts`). */
export const emailVerificationRoutes = declareRoutes({
  // A new link to prove the address.
  'POST /user/email-verification': {
    tag: 'Settings',
    summary: 'Mail a new link that proves the address',
    access: 'user',
    limit: 'verifyEmail',
    answer: messageView,
  },
  // The link's page, signed in or not: its secret is the credential.
  'POST /email-verification': {
    tag: 'Settings',
    summary: 'Prove the address with the mailed link’s token',
    access: 'public',
    limit: 'publicRead',
    body: emailVerificationSchema,
    answer: z.object({ message: z.string(), email: z.string().nullable() }),
  },
});

/** The admin dashboard's User Management (answered in `admin-api.ts`). */
export const adminUserRoutes = declareRoutes({
  'GET /admin/users': {
    tag: 'Admin',
    summary: 'Users, a page at a time',
    description: 'The total is in the `X-Total-Count` header.',
    access: 'admin',
    query: adminUsersQuerySchema,
    answer: z.array(
      z.object({
        id: z.string(),
        username: z.string(),
        email: z.string().nullable(),
        subscriptionStatus: z.enum(subscriptionStatuses).nullable(),
        trialStartDate: z.string().nullable(),
        trialEndDate: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
  },
  'GET /admin/users/summary': {
    tag: 'Admin',
    summary: 'Counts of users by plan',
    access: 'admin',
    answer: z.object({
      totalUsers: z.number(),
      activeSubscriptions: z.number(),
      trialUsers: z.number(),
      unpaidUsers: z.number(),
    }),
  },
  // The gateway's action, which then ends every session of the deleted account.
  'DELETE /admin/users/:userId': {
    summary: 'Delete a user’s account (an administrator)',
    access: 'admin',
    internal: true,
    status: 204,
  },
});

/** Personal API tokens: managed with a session only; checked for the gateway (answered in `api.ts`). */
export const apiTokenRoutes = declareRoutes({
  'GET /tokens': { tag: 'Tokens', summary: 'The account’s API tokens', access: 'user', answer: z.array(apiTokenView) },
  // A token outlives the session that made it: only with the password typed lately.
  'POST /tokens': {
    tag: 'Tokens',
    summary: 'Make an API token',
    description: 'The token’s text is in this answer only. Send it as `Authorization: Bearer <token>`.',
    access: 'user',
    recentAuth: true,
    idempotent: true,
    body: apiTokenSchema,
    status: 201,
    answer: apiTokenView.extend({ token: z.string() }),
  },
  'DELETE /tokens/:tokenId': { tag: 'Tokens', summary: 'Revoke an API token', access: 'user', status: 204 },
  // The gateway's question for a request that carries a token (its text in the body's `token`).
  'POST /tokens/verify': {
    summary: 'Whose a personal API token is, and what it may do: its id, name, scope and space, and its user',
    access: 'public',
    internal: true,
    answer: z.object({
      tokenId: z.string(),
      name: z.string(),
      scope: z.enum(['read', 'write']),
      workspaceId: z.string().nullable(),
      user: publicUserView,
    }),
  },
});
