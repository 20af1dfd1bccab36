import {
  accountInfoSchema,
  activityPageQuerySchema,
  activityView,
  adminCommentSchema,
  adminCommentUpdateSchema,
  adminUsersQuerySchema,
  apiTokenSchema,
  apiTokenView,
  changePasswordSchema,
  changeSubscriptionStatusSchema,
  chatRequestSchema,
  checkoutSchema,
  contactAdminSchema,
  contactMessageUpdateSchema,
  createAlertChannelSchema,
  createDomainMonitorSchema,
  createExpectationSchema,
  createMonitorSchema,
  createProjectSchema,
  createReminderSchema,
  currentUserView,
  dashboardChartsQuerySchema,
  deployHookSchema,
  emailVerificationSchema,
  extendTrialSchema,
  importDomainsSchema,
  importFileSchema,
  incidentNoteSchema,
  integrationFormSchema,
  loginSchema,
  messageView,
  notificationSettingsSchema,
  profileSchema,
  projectView,
  pushEndpointSchema,
  pushSubscriptionSchema,
  quickUpdateSchema,
  recordBackupSchema,
  recordDeploymentSchema,
  recordVersionSchema,
  registerSchema,
  reminderView,
  updateMonitorSchema,
  updateProjectSchema,
  updateReminderSchema,
  verifyPasswordSchema,
} from '@shiplog/schemas';
import { z } from 'zod';
import { exportQuery } from '../actions/export.ts';

/**
 * Every call of the `/api` surface, described for the OpenAPI document (document.ts): what it does, what
 * it takes and what it answers on success. Keyed as the surface names calls (`GET /api/projects/:id`);
 * the rules every call shares (a session or a token, the Origin check, recent sign-in, limits, the error
 * body) come from the route table, not from here. The contract tests fail when a call the gateway
 * serves is missing here, or when a call here is one it does not serve.
 */
export interface Operation {
  summary: string;
  tag: Tag;
  /** The JSON body it reads. */
  body?: z.ZodType;
  /** Its query string's parameters. */
  query?: z.ZodObject;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202 | 204;
  /** What a success answers: a schema (JSON), or another media type described in words. */
  answer?: z.ZodType | { type: string; description: string };
  /** Anything a reader should know beyond the summary. */
  description?: string;
  /** Refusals it answers in a shape of its own rather than the error body, by status. */
  refusals?: Record<number, string>;
  /** A create that takes an `Idempotency-Key`: the same key makes one record. */
  idempotent?: true;
}

export const tags = {
  Account: 'Signing up and in, the current user, the password and the account itself.',
  Sessions: 'The account’s signed-in sessions.',
  Projects: 'Projects: status, checklist, cost, links.',
  Timeline: 'Backups, deployments, releases and quick updates: the activity timeline.',
  Reminders: 'Dated reminders, by email, push and calendar.',
  Dashboard: 'The dashboard’s data and charts.',
  Monitors: 'Uptime, cron, expectation and domain monitors, their incidents and alert channels.',
  Tokens: 'Personal API tokens for the CLI and CI.',
  Settings: 'Profile, contact details and notification settings.',
  Billing: 'The subscription and Stripe checkout.',
  Assistant: 'The AI assistant.',
  Integrations: 'The domain API integration.',
  Data: 'Export and import of everything the user keeps.',
  Public: 'Public profiles, status pages and badges, readable signed out.',
  Admin: 'Administrators only.',
  Meta: 'This document.',
} as const;
export type Tag = keyof typeof tags;

/** GraphQL clients read errors in GraphQL's own body: `{ "errors": [{ "message": … }] }`. */
const graphqlRefusals = {
  400: 'The query could not be run (a GraphQL error body).',
  401: 'Not signed in (a GraphQL error body).',
};

const list = <T extends z.ZodType>(item: T) => z.array(item);
const json = (description: string) => ({ type: 'application/json', description });

export const operations: Record<string, Operation> = {
  // Account
  'POST /api/register': {
    tag: 'Account',
    summary: 'Create an account and sign in',
    body: registerSchema,
    status: 201,
    answer: currentUserView,
  },
  'POST /api/login': { tag: 'Account', summary: 'Sign in', body: loginSchema, answer: currentUserView },
  'POST /api/logout': { tag: 'Account', summary: 'Sign out', answer: messageView },
  'GET /api/user': { tag: 'Account', summary: "The signed-in user, or the API token's", answer: currentUserView },
  'POST /api/user/change-password': {
    tag: 'Account',
    summary: 'Change the password; every other session ends',
    body: changePasswordSchema,
    answer: currentUserView,
  },
  'POST /api/reauth': {
    tag: 'Account',
    summary: 'Confirm the password before a sensitive change',
    description: 'For ten minutes afterwards this session may make the changes that answer 403 `REAUTH_REQUIRED`.',
    body: verifyPasswordSchema,
    answer: messageView,
  },
  'DELETE /api/user': {
    tag: 'Account',
    summary: 'Delete the account and everything it keeps',
    answer: messageView,
  },
  'POST /api/user/account-info': {
    tag: 'Settings',
    summary: 'Change the email address and phone number',
    description: 'A new address is mailed a link that proves it.',
    body: accountInfoSchema,
    answer: json('The account’s contact details.'),
  },
  'POST /api/user/email-verification': {
    tag: 'Settings',
    summary: 'Mail a new link that proves the address',
    answer: json('Where the link was sent.'),
  },
  'POST /api/email-verification': {
    tag: 'Settings',
    summary: 'Prove the address with the mailed link’s token',
    body: emailVerificationSchema,
    answer: json('The address now proven.'),
  },
  'GET /api/profile': { tag: 'Settings', summary: 'The profile', answer: json('Name, bio, links and visibility.') },
  'POST /api/profile': {
    tag: 'Settings',
    summary: 'Change the profile',
    body: profileSchema,
    answer: json('The profile as saved.'),
  },
  'GET /api/notifications/settings': {
    tag: 'Settings',
    summary: 'Which notifications the user gets',
    answer: json('The notification settings.'),
  },
  'POST /api/notifications/settings': {
    tag: 'Settings',
    summary: 'Change which notifications the user gets',
    body: notificationSettingsSchema,
    answer: json('The notification settings as saved.'),
  },
  'POST /api/contact-admin': {
    idempotent: true,
    tag: 'Settings',
    summary: 'Send the administrators a message',
    body: contactAdminSchema,
    status: 201,
    answer: json('The message as sent.'),
  },

  // Sessions
  'GET /api/sessions': { tag: 'Sessions', summary: 'The account’s signed-in sessions', answer: json('The sessions.') },
  'POST /api/sessions/end-others': {
    tag: 'Sessions',
    summary: 'Sign out every other session',
    answer: messageView,
  },
  'DELETE /api/sessions/:sessionId': { tag: 'Sessions', summary: 'Sign out one session', answer: messageView },

  // Tokens
  'GET /api/tokens': { tag: 'Tokens', summary: 'The account’s API tokens', answer: list(apiTokenView) },
  'POST /api/tokens': {
    idempotent: true,
    tag: 'Tokens',
    summary: 'Make an API token',
    description: 'The token’s text is in this answer only. Send it as `Authorization: Bearer <token>`.',
    body: apiTokenSchema,
    status: 201,
    answer: json('The token with its text.'),
  },
  'DELETE /api/tokens/:tokenId': { tag: 'Tokens', summary: 'Revoke an API token', status: 204 },

  // Projects
  'GET /api/projects': { tag: 'Projects', summary: 'The user’s projects, newest first', answer: list(projectView) },
  'POST /api/projects': {
    idempotent: true,
    tag: 'Projects',
    summary: 'Create a project',
    description: 'An `Idempotency-Key` header makes a repeated request create the project once.',
    body: createProjectSchema,
    status: 201,
    answer: projectView,
  },
  'GET /api/projects/:id': { tag: 'Projects', summary: 'One project', answer: projectView },
  'PUT /api/projects/:id': {
    tag: 'Projects',
    summary: 'Change a project (any subset of its fields)',
    body: updateProjectSchema,
    answer: projectView,
  },
  'DELETE /api/projects/:id': {
    tag: 'Projects',
    summary: 'Delete a project, its reminders and its timeline',
    status: 204,
  },
  'GET /api/projects/:id/deploy-hook': {
    tag: 'Projects',
    summary: 'Whether the project has a deploy webhook, and its deliveries',
    answer: json('The webhook’s state and recent deliveries.'),
  },
  'POST /api/projects/:id/deploy-hook': {
    tag: 'Projects',
    summary: 'Make (or replace) the project’s deploy webhook URL',
    status: 201,
    answer: json('The webhook URL, shown once.'),
  },
  'DELETE /api/projects/:id/deploy-hook': { tag: 'Projects', summary: 'Turn the deploy webhook off', status: 204 },
  'POST /api/hooks/deploy/:secret': {
    tag: 'Projects',
    summary: 'A deployment, posted by CI or a hosting platform',
    description:
      'The secret in the path is the credential. Takes the generic payload, or Vercel’s and Netlify’s own; a delivery repeated with the same `deploymentId` records nothing more.',
    body: deployHookSchema,
    status: 201,
    answer: json('The recorded deployment, or why nothing was recorded.'),
  },

  // Timeline
  'POST /api/projects/:id/backup': {
    idempotent: true,
    tag: 'Timeline',
    summary: 'Record a backup',
    body: recordBackupSchema,
    status: 201,
    answer: json('The timeline entry.'),
  },
  'POST /api/projects/:id/deployment': {
    idempotent: true,
    tag: 'Timeline',
    summary: 'Record a deployment',
    body: recordDeploymentSchema,
    status: 201,
    answer: json('The timeline entry.'),
  },
  'POST /api/projects/:id/version': {
    idempotent: true,
    tag: 'Timeline',
    summary: 'Record a release',
    body: recordVersionSchema,
    status: 201,
    answer: json('The timeline entry.'),
  },
  'POST /api/activities': {
    idempotent: true,
    tag: 'Timeline',
    summary: 'Log a quick update (subscribers)',
    body: quickUpdateSchema,
    status: 201,
    answer: json('The timeline entry.'),
  },
  'GET /api/activities': {
    tag: 'Timeline',
    summary: 'The timeline, newest first, a page at a time',
    description: 'The total number of entries is in the `X-Total-Count` header.',
    query: activityPageQuerySchema,
    answer: list(activityView),
  },
  'GET /api/projects/:id/activities': {
    tag: 'Timeline',
    summary: 'One project’s timeline, newest first',
    answer: list(activityView),
  },

  // Reminders
  'GET /api/reminders': { tag: 'Reminders', summary: 'The user’s reminders', answer: list(reminderView) },
  'POST /api/reminders': {
    idempotent: true,
    tag: 'Reminders',
    summary: 'Create a reminder',
    body: createReminderSchema,
    status: 201,
    answer: reminderView,
  },
  'GET /api/reminders/options/notification-times': {
    tag: 'Reminders',
    summary: 'The reminder times one may choose, with their labels',
    answer: json('The choices.'),
  },
  'GET /api/reminders/project/:projectId': {
    tag: 'Reminders',
    summary: 'One project’s reminders',
    answer: list(reminderView),
  },
  'GET /api/reminders/:id': { tag: 'Reminders', summary: 'One reminder', answer: reminderView },
  'PATCH /api/reminders/:id': {
    tag: 'Reminders',
    summary: 'Change a reminder',
    body: updateReminderSchema,
    answer: reminderView,
  },
  'DELETE /api/reminders/:id': { tag: 'Reminders', summary: 'Delete a reminder', status: 204 },
  'POST /api/reminders/:id/complete': { tag: 'Reminders', summary: 'Mark a reminder done', answer: reminderView },
  'POST /api/reminders/:id/reactivate': {
    tag: 'Reminders',
    summary: 'Make a done reminder active again',
    answer: reminderView,
  },
  'GET /api/reminders/push': {
    tag: 'Reminders',
    summary: 'Push reminders: the server’s public key and the user’s devices',
    answer: json('The push state.'),
  },
  'POST /api/reminders/push/subscriptions': {
    tag: 'Reminders',
    summary: 'Turn push reminders on for a device',
    body: pushSubscriptionSchema,
    status: 201,
    answer: json('The push state.'),
  },
  'DELETE /api/reminders/push/subscriptions': {
    tag: 'Reminders',
    summary: 'Turn push reminders off for a device',
    body: pushEndpointSchema,
    answer: json('The push state.'),
  },
  'POST /api/reminders/push/test': {
    tag: 'Reminders',
    summary: 'Send a test push to each of the user’s devices',
    answer: json('What each device’s push service answered.'),
  },
  'GET /api/reminders/calendar': {
    tag: 'Reminders',
    summary: 'Whether the private calendar feed is on',
    answer: json('The feed’s state.'),
  },
  'POST /api/reminders/calendar': {
    tag: 'Reminders',
    summary: 'Make (or replace) the private calendar feed’s link',
    status: 201,
    answer: json('The feed’s URL, shown once.'),
  },
  'DELETE /api/reminders/calendar': { tag: 'Reminders', summary: 'Turn the calendar feed off', status: 204 },
  'GET /api/calendar/:secret': {
    tag: 'Reminders',
    summary: 'The private calendar feed (iCalendar)',
    description: 'The secret in the file name is the credential: calendar apps subscribe without a session.',
    answer: { type: 'text/calendar', description: 'The active reminders as events with alarms.' },
  },

  // Dashboard
  'POST /api/graphql': {
    tag: 'Dashboard',
    summary: 'The dashboard’s data in one query (GraphQL)',
    answer: json('A GraphQL response.'),
    refusals: graphqlRefusals,
  },
  'GET /api/graphql': {
    tag: 'Dashboard',
    summary: 'A GraphQL query in the query string',
    answer: json('A GraphQL response.'),
    refusals: graphqlRefusals,
  },
  'GET /api/dashboard/charts': {
    tag: 'Dashboard',
    summary: 'Shipping per week and monthly cost, in the browser’s time zone',
    query: dashboardChartsQuerySchema,
    answer: json('The charts’ series.'),
  },
  'GET /api/events': {
    tag: 'Dashboard',
    summary: 'What changes in the user’s data, as it changes (server-sent events)',
    answer: { type: 'text/event-stream', description: 'One event per change.' },
  },

  // Monitors
  'GET /api/monitors': {
    tag: 'Monitors',
    summary: 'Every monitor of the account, with its state',
    answer: json('The monitors.'),
  },
  'GET /api/projects/:projectId/monitors': {
    tag: 'Monitors',
    summary: 'A project’s monitors',
    answer: json('The monitors.'),
  },
  'POST /api/projects/:projectId/monitors': {
    idempotent: true,
    tag: 'Monitors',
    summary: 'Add a monitor to a project (subscribers)',
    body: z.union([createMonitorSchema, createExpectationSchema, createDomainMonitorSchema]),
    status: 201,
    answer: json('The monitor.'),
  },
  'PATCH /api/monitors/:id': {
    tag: 'Monitors',
    summary: 'Change, pause or resume a monitor',
    body: updateMonitorSchema,
    answer: json('The monitor.'),
  },
  'DELETE /api/monitors/:id': { tag: 'Monitors', summary: 'Delete a monitor', status: 204 },
  'GET /api/monitors/:id/incidents': { tag: 'Monitors', summary: 'A monitor’s incidents', answer: json('Incidents.') },
  'PUT /api/monitors/:id/incidents/:incidentId/note': {
    tag: 'Monitors',
    summary: 'Write the note on an incident',
    body: incidentNoteSchema,
    answer: json('The incident.'),
  },
  'GET /api/projects/:projectId/ping': {
    tag: 'Monitors',
    summary: 'The project’s cron ping URL, if it has one',
    answer: json('The ping URL’s state.'),
  },
  'POST /api/projects/:projectId/ping': {
    tag: 'Monitors',
    summary: 'Make (or replace) the project’s cron ping URL',
    status: 201,
    answer: json('The ping URL, shown once.'),
  },
  'DELETE /api/projects/:projectId/ping': { tag: 'Monitors', summary: 'Turn the cron ping URL off', status: 204 },
  'GET /api/ping/:secret': {
    tag: 'Monitors',
    summary: 'A cron job’s run ended well',
    description: 'The secret in the path is the credential; GET and POST alike, for curl and wget.',
    answer: json('Received.'),
  },
  'POST /api/ping/:secret': { tag: 'Monitors', summary: 'A cron job’s run ended well', answer: json('Received.') },
  'GET /api/ping/:secret/start': { tag: 'Monitors', summary: 'A cron job’s run started', answer: json('Received.') },
  'POST /api/ping/:secret/start': { tag: 'Monitors', summary: 'A cron job’s run started', answer: json('Received.') },
  'GET /api/ping/:secret/fail': { tag: 'Monitors', summary: 'A cron job’s run failed', answer: json('Received.') },
  'POST /api/ping/:secret/fail': { tag: 'Monitors', summary: 'A cron job’s run failed', answer: json('Received.') },
  'GET /api/alert-channels': {
    tag: 'Monitors',
    summary: 'Where alerts go besides email',
    answer: json('The alert channels.'),
  },
  'POST /api/alert-channels': {
    idempotent: true,
    tag: 'Monitors',
    summary: 'Add an alert channel (webhook, Slack, Discord, ntfy)',
    body: createAlertChannelSchema,
    status: 201,
    answer: json('The channel, with its signing secret once.'),
  },
  'DELETE /api/alert-channels/:id': { tag: 'Monitors', summary: 'Remove an alert channel', status: 204 },
  'POST /api/alert-channels/:id/test': {
    tag: 'Monitors',
    summary: 'Send a test alert to a channel now',
    answer: json('How the delivery went.'),
  },
  'GET /api/alert-channels/deliveries': {
    tag: 'Monitors',
    summary: 'The latest alert deliveries and how each went',
    answer: json('Deliveries.'),
  },

  // Billing
  'GET /api/subscription/status': {
    tag: 'Billing',
    summary: 'The subscription’s status and trial end',
    answer: json('The subscription.'),
  },
  'GET /api/stripe/prices': { tag: 'Billing', summary: 'The plans one may buy', answer: json('Prices.') },
  'POST /api/stripe/create-checkout-session': {
    tag: 'Billing',
    summary: 'Start a Stripe Checkout',
    body: checkoutSchema,
    answer: json('The Checkout page’s URL.'),
  },
  'POST /api/stripe/create-customer-portal': {
    tag: 'Billing',
    summary: 'Open the Stripe customer portal',
    answer: json('The portal’s URL.'),
  },
  'POST /api/stripe/webhook': {
    tag: 'Billing',
    summary: 'Stripe’s event deliveries',
    description: 'The `Stripe-Signature` header over the raw body is the credential.',
    answer: json('Received.'),
  },

  // Assistant
  'POST /api/chat': {
    tag: 'Assistant',
    summary: 'Ask the assistant',
    description: 'With `Accept: text/event-stream` the answer streams as it is written.',
    body: chatRequestSchema,
    answer: json('The reply and the day’s usage.'),
  },
  'GET /api/chat/usage': { tag: 'Assistant', summary: 'Today’s messages and the daily limit', answer: json('Usage.') },

  // Integrations
  'GET /api/integrations': { tag: 'Integrations', summary: 'The saved integrations', answer: json('Integrations.') },
  'POST /api/integrations': {
    idempotent: true,
    tag: 'Integrations',
    summary: 'Save an integration',
    body: integrationFormSchema,
    status: 201,
    answer: json('The integration.'),
  },
  'DELETE /api/integrations/:id': { tag: 'Integrations', summary: 'Remove an integration', status: 204 },
  'GET /api/integrations/:id/projects': {
    tag: 'Integrations',
    summary: 'The domains the integration’s API lists',
    answer: json('Domains.'),
  },
  'POST /api/integrations/:id/import': {
    tag: 'Integrations',
    summary: 'Import domains as projects',
    body: importDomainsSchema,
    answer: json('What was imported.'),
  },
  'POST /api/integration/test': {
    tag: 'Integrations',
    summary: 'Test a connection to a domain API',
    body: integrationFormSchema,
    answer: json('Whether it answered.'),
  },
  'POST /api/integration/diagnostics': {
    tag: 'Integrations',
    summary: 'Diagnose a connection to a domain API',
    body: integrationFormSchema,
    answer: json('Each check and its result.'),
  },

  // Data
  'GET /api/export': {
    tag: 'Data',
    summary: 'Everything the user keeps, as a file',
    query: exportQuery,
    answer: { type: 'application/octet-stream', description: 'JSON, or a zip of CSV files.' },
  },
  'POST /api/import': {
    tag: 'Data',
    summary: 'An export file back in (up to 20 MB)',
    body: importFileSchema,
    status: 201,
    answer: json('What was imported.'),
  },

  // Public
  'GET /api/public/users/:username': {
    tag: 'Public',
    summary: 'A public profile and its public projects',
    answer: json('The profile.'),
  },
  'GET /api/public/users/:username/status': {
    tag: 'Public',
    summary: 'A public status page: the monitors of the public projects',
    answer: json('The status page.'),
  },
  'GET /api/badges/:username/:projectId/:badge': {
    tag: 'Public',
    summary: 'A README badge: uptime.svg, last-deploy.svg or version.svg',
    answer: { type: 'image/svg+xml', description: 'The badge.' },
  },
  'GET /api/openapi.json': { tag: 'Meta', summary: 'This document', answer: json('OpenAPI 3.1.') },

  // Admin
  'GET /api/admin/users': {
    tag: 'Admin',
    summary: 'Users, a page at a time',
    description: 'The total is in the `X-Total-Count` header.',
    query: adminUsersQuerySchema,
    answer: json('Users.'),
  },
  'GET /api/admin/users/summary': { tag: 'Admin', summary: 'Counts of users by plan', answer: json('Counts.') },
  'DELETE /api/admin/users/:userId': { tag: 'Admin', summary: 'Delete a user’s account', status: 204 },
  'PUT /api/admin/users/:userId/subscription': {
    tag: 'Admin',
    summary: 'Set a user’s subscription status',
    body: changeSubscriptionStatusSchema,
    answer: json('The subscription.'),
  },
  'POST /api/admin/users/:userId/extend-trial': {
    tag: 'Admin',
    summary: 'Extend a user’s trial',
    body: extendTrialSchema,
    answer: json('The subscription.'),
  },
  'GET /api/admin/comments': {
    tag: 'Settings',
    summary: 'The administrators’ messages to show',
    answer: json('Messages.'),
  },
  'GET /api/admin/comments/all': { tag: 'Admin', summary: 'Every administrators’ message', answer: json('Messages.') },
  'POST /api/admin/comments': {
    idempotent: true,
    tag: 'Admin',
    summary: 'Post a message to every user',
    body: adminCommentSchema,
    status: 201,
    answer: json('The message.'),
  },
  'PUT /api/admin/comments/:id': {
    tag: 'Admin',
    summary: 'Change a message',
    body: adminCommentUpdateSchema,
    answer: json('The message.'),
  },
  'DELETE /api/admin/comments/:id': { tag: 'Admin', summary: 'Delete a message', status: 204 },
  'GET /api/admin/contact-messages': {
    tag: 'Admin',
    summary: 'Messages users sent the administrators',
    answer: json('Messages.'),
  },
  'PUT /api/admin/contact-messages/:id': {
    tag: 'Admin',
    summary: 'Mark a user’s message handled',
    body: contactMessageUpdateSchema,
    answer: json('The message.'),
  },
};
