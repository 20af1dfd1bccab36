import { monitorsRoutes } from '@shiplog/monitors/routes';
import { remindersRoutes } from '@shiplog/reminders/routes';
import {
  changePasswordSchema,
  currentUserView,
  exportFormats,
  importFileSchema,
  loginSchema,
  messageView,
  projectStatuses,
  pushSubscriptionSchema,
  registerSchema,
  verifyPasswordSchema,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

const exportQuery = z.object({
  format: z.enum(exportFormats, { error: `format must be one of: ${exportFormats.join(', ')}` }).default('json'),
});
const counts = z.object({ projects: z.number(), reminders: z.number(), activities: z.number() });
const nullableString = z.string().nullable();
/** A public profile and its public projects, as anyone reads them (no cost, notes, reminders or email). */
const publicProfileView = z.object({
  username: z.string(),
  displayName: z.string(),
  bio: nullableString,
  links: z.object({
    github: nullableString,
    twitter: nullableString,
    linkedin: nullableString,
    website: nullableString,
  }),
  projects: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: nullableString,
      status: z.enum(projectStatuses),
      /** Checklist items done, of five. */
      progress: z.number().int().min(0).max(5),
      latestDeployment: z.object({ environment: nullableString, version: nullableString, at: z.string() }).nullable(),
      latestVersion: z.object({ version: z.string(), at: z.string() }).nullable(),
      createdAt: z.string(),
    }),
  ),
});
/** A public project's changelog: its releases, newest first. */
const publicChangelogView = z.object({
  username: z.string(),
  displayName: z.string(),
  project: z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }),
  releases: z.array(
    z.object({ version: z.string(), notes: z.string().nullable(), changes: z.array(z.string()), at: z.string() }),
  ),
});

/** A public status page: the monitors of the public projects (what monitors answers the gateway), and whose. */
const publicStatusView = monitorsRoutes['GET /public/users/:userId/status'].answer.extend({
  username: z.string(),
  displayName: z.string(),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
  at: z.string(),
});
/** A team's status page: the monitors of the workspace's public projects, and its name and current slug. */
const publicTeamStatusView = monitorsRoutes['GET /public/workspaces/:workspaceId/status'].answer.extend({
  workspace: z.object({ name: z.string(), slug: z.string() }),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
  at: z.string(),
});
/** A GraphQL response: its data, or its errors (GraphQL's own error body). */
const graphqlView = z.object({
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  errors: z.array(z.looseObject({ message: z.string() })).optional(),
});
/** GraphQL clients read errors in GraphQL's own body: `{ "errors": [{ "message": … }] }`. */
const graphqlRefusals = {
  400: 'The query could not be run (a GraphQL error body).',
  401: 'Not signed in (a GraphQL error body).',
};

/**
 * The gateway's own routes, each answered by an action of the gateway (app.ts binds each key to one)
 * because it reads or changes the session, or gathers several services' answers. Declared as the
 * services declare theirs (`declareRoutes`), at their `/api` path.
 */
export const gatewayRoutes = declareRoutes({
  // The session and the current user.
  'POST /api/register': {
    tag: 'Account',
    summary: 'Create an account and sign in',
    access: 'public',
    limit: 'register',
    body: registerSchema,
    status: 201,
    answer: currentUserView,
  },
  'POST /api/login': {
    tag: 'Account',
    summary: 'Sign in',
    access: 'public',
    body: loginSchema,
    answer: currentUserView,
  },
  'POST /api/logout': { tag: 'Account', summary: 'Sign out', access: 'public', answer: messageView },
  // Whose a token is (`shiplog whoami`): a token may ask too.
  'GET /api/user': {
    tag: 'Account',
    summary: "The signed-in user, or the API token's",
    access: 'user',
    token: true,
    answer: currentUserView,
  },
  // Ends the user's other sessions, so it is the gateway's.
  'POST /api/user/change-password': {
    tag: 'Account',
    summary: 'Change the password; every other session ends',
    access: 'user',
    body: changePasswordSchema,
    answer: currentUserView,
  },
  // The password again, before a sensitive change (a route marked `recentAuth`): the session is then recent.
  'POST /api/reauth': {
    tag: 'Account',
    summary: 'Confirm the password before a sensitive change',
    description: 'For ten minutes afterwards this session may make the changes that answer 403 `REAUTH_REQUIRED`.',
    access: 'user',
    body: verifyPasswordSchema,
    answer: messageView,
  },
  'DELETE /api/user': {
    tag: 'Account',
    summary: 'Delete the account and everything it keeps',
    access: 'user',
    recentAuth: true,
    answer: messageView,
  },
  // The account's signed-in sessions (Settings › Sessions): list them, end one, end all but this one.
  'GET /api/sessions': {
    tag: 'Sessions',
    summary: 'The account’s signed-in sessions',
    access: 'user',
    answer: z.array(
      z.object({
        id: z.string(),
        current: z.boolean(),
        browser: z.string(),
        os: z.string(),
        deviceType: z.enum(['desktop', 'mobile', 'tablet', 'tv', 'unknown']),
        ipAddress: z.string(),
        signedInAt: z.string(),
        lastSeenAt: z.string(),
      }),
    ),
  },
  'POST /api/sessions/end-others': {
    tag: 'Sessions',
    summary: 'Sign out every other session',
    access: 'user',
    answer: messageView,
  },
  'DELETE /api/sessions/:sessionId': {
    tag: 'Sessions',
    summary: 'Sign out one session',
    access: 'user',
    answer: messageView,
  },
  // Push reminders turned on in this browser are kept with this session, and end with it (push-devices.ts).
  'POST /api/reminders/push/subscriptions': {
    tag: 'Reminders',
    summary: 'Turn push reminders on for a device',
    access: 'user',
    body: pushSubscriptionSchema,
    status: 201,
    answer: remindersRoutes['POST /sessions/:session/push-subscriptions'].answer,
  },
  // Every session of the deleted user ends with it.
  'DELETE /api/admin/users/:userId': {
    tag: 'Admin',
    summary: 'Delete a user’s account',
    access: 'admin',
    status: 204,
  },
  // The dashboard's data in one round trip (graphql.ts reads its own body), and answers a signed-out
  // caller itself: a 401 with a GraphQL error body, which GraphQL clients read.
  'POST /api/graphql': {
    tag: 'Dashboard',
    summary: 'The dashboard’s data in one query (GraphQL)',
    access: 'public',
    limit: 'graphql',
    answer: graphqlView,
    refusals: graphqlRefusals,
  },
  'GET /api/graphql': {
    tag: 'Dashboard',
    summary: 'A GraphQL query in the query string',
    access: 'public',
    limit: 'graphql',
    answer: graphqlView,
    refusals: graphqlRefusals,
  },
  // Server-sent events: what changed in the user's data, as it changes (live.ts).
  'GET /api/events': {
    tag: 'Dashboard',
    summary: 'What changes in the user’s data, as it changes (server-sent events)',
    access: 'user',
    limit: 'events',
    answer: { type: 'text/event-stream', description: 'One event per change.' },
  },
  // Everything the user keeps, as a file (export.ts): gathered from three services; `shiplog export`
  // asks with a token.
  'GET /api/export': {
    tag: 'Data',
    summary: 'Everything the user keeps, as a file',
    access: 'user',
    token: true,
    limit: 'export',
    query: exportQuery,
    answer: { type: 'application/octet-stream', description: 'JSON, or a zip of CSV files.' },
  },
  // An export file back in: up to 20 MB, where every other body stops at 100 kB.
  'POST /api/import': {
    tag: 'Data',
    summary: 'An export file back in (up to 20 MB)',
    access: 'user',
    limit: 'import',
    bodyLimit: '20mb',
    body: importFileSchema,
    status: 201,
    answer: counts.extend({ importedBefore: counts }),
  },
  // A public profile and its public projects (public-profile.ts): readable signed out, at /u/{username}.
  'GET /api/public/users/:username': {
    tag: 'Public',
    summary: 'A public profile and its public projects',
    access: 'public',
    limit: 'publicRead',
    answer: publicProfileView,
  },
  // A public status page (public-profile.ts): the monitors of the public projects, readable signed out.
  'GET /api/public/users/:username/status': {
    tag: 'Public',
    summary: 'A public status page: the monitors of the public projects',
    access: 'public',
    limit: 'publicRead',
    answer: publicStatusView,
  },
  // A team workspace's status page (public-profile.ts): its public projects' monitors, signed out.
  'GET /api/public/workspaces/:slug/status': {
    tag: 'Public',
    summary: 'A team’s status page: the monitors of the workspace’s public projects',
    description:
      'By the slug its admins chose (`PUT /api/workspaces/{id}`); a slug given up in the last 30 days still finds the workspace, and `workspace.slug` is its current one.',
    access: 'public',
    limit: 'publicRead',
    answer: publicTeamStatusView,
  },
  // A public project's changelog (public-profile.ts): its releases, signed out, at /u/{username}/{projectId}/changelog.
  'GET /api/public/users/:username/projects/:projectId/changelog': {
    tag: 'Public',
    summary: 'A public project’s changelog: its releases, newest first',
    description: 'Each release’s version, notes and changes (at most 50); nothing of a private project or profile.',
    access: 'public',
    limit: 'publicRead',
    answer: publicChangelogView,
  },
  'GET /api/public/users/:username/projects/:projectId/changelog.atom': {
    tag: 'Public',
    summary: 'A public project’s changelog as an Atom feed',
    access: 'public',
    limit: 'publicRead',
    answer: { type: 'application/atom+xml', description: 'The feed: one entry per release.' },
  },
  // A public project's README badges (badges.ts): uptime.svg, last-deploy.svg, version.svg.
  'GET /api/badges/:username/:projectId/:badge': {
    tag: 'Public',
    summary: 'A README badge: uptime.svg, last-deploy.svg or version.svg',
    access: 'public',
    limit: 'publicRead',
    answer: { type: 'image/svg+xml', description: 'The badge.' },
  },
  // This surface as an OpenAPI 3.1 document (openapi/), for clients and the reference page.
  'GET /api/openapi.json': {
    tag: 'Meta',
    summary: 'This document',
    access: 'public',
    answer: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
  },
});

export type GatewayRouteKey = keyof typeof gatewayRoutes;
