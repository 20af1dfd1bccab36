import { alertChannelKinds, createAlertChannelSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** A channel as its owner's list shows it (`AlertChannelView`): its URL only by origin. */
const alertChannelView = z.object({
  id: z.string(),
  kind: z.enum(alertChannelKinds),
  name: z.string(),
  origin: z.string(),
  createdAt: z.string(),
});

/** One alert's delivery to a channel, and how it went (`AlertDeliveryView`). */
const alertDeliveryView = z.object({
  id: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  kind: z.string(),
  summary: z.string(),
  state: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

/** The caller's alert channels and the delivery log (answered in `api.ts`). */
export const alertChannelRoutes = declareRoutes({
  // Whether an alert by email reaches anyone from this server: the cards say so when it does not.
  'GET /alert-channels/email': {
    tag: 'Monitors',
    summary: 'Whether this server sends alert emails (its operator configured a mail server)',
    access: 'user',
    answer: z.object({ sends: z.boolean() }),
  },
  'GET /alert-channels': {
    tag: 'Monitors',
    summary: 'Where alerts go besides email',
    access: 'user',
    answer: z.array(alertChannelView),
  },
  'POST /alert-channels': {
    tag: 'Monitors',
    summary: 'Add an alert channel (webhook, Slack, Discord, ntfy)',
    access: 'user',
    idempotent: true,
    body: createAlertChannelSchema,
    status: 201,
    // A generic webhook's signing secret, shown once (null for the others).
    answer: alertChannelView.extend({ signingSecret: z.string().nullable() }),
  },
  'DELETE /alert-channels/:id': {
    tag: 'Monitors',
    summary: 'Remove an alert channel',
    access: 'user',
    status: 204,
  },
  // A test alert sends one out at once.
  'POST /alert-channels/:id/test': {
    tag: 'Monitors',
    summary: 'Send a test alert to a channel now',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 60_000,
    answer: alertDeliveryView,
  },
  'GET /alert-channels/deliveries': {
    tag: 'Monitors',
    summary: 'The latest alert deliveries and how each went',
    access: 'user',
    answer: z.array(alertDeliveryView),
  },
  // A team workspace's own channels: where its projects' alerts go. Its owners and admins keep them.
  'GET /workspaces/:id/alert-channels': {
    tag: 'Workspaces',
    summary: 'Where the workspace’s projects’ alerts go (owners and admins)',
    access: 'user',
    answer: z.array(alertChannelView),
  },
  'POST /workspaces/:id/alert-channels': {
    tag: 'Workspaces',
    summary: 'Add an alert channel to the workspace (owners and admins)',
    description:
      'A team project’s incidents, missed runs and expiries go to its workspace’s channels (to its maker’s own while the workspace has none), and by email to its maker.',
    access: 'user',
    idempotent: true,
    body: createAlertChannelSchema,
    status: 201,
    answer: alertChannelView.extend({ signingSecret: z.string().nullable() }),
  },
  'DELETE /workspaces/:id/alert-channels/:channelId': {
    tag: 'Workspaces',
    summary: 'Remove one of the workspace’s alert channels (owners and admins)',
    access: 'user',
    status: 204,
  },
  'POST /workspaces/:id/alert-channels/:channelId/test': {
    tag: 'Workspaces',
    summary: 'Send a test alert to one of the workspace’s channels now (owners and admins)',
    access: 'user',
    limit: 'outbound',
    timeoutMs: 60_000,
    answer: alertDeliveryView,
  },
  // Each member's own choice: whether the workspace's alerts are emailed to them (on unless turned off).
  'GET /workspaces/:id/alert-mail': {
    tag: 'Workspaces',
    summary: 'Whether the workspace’s alerts are emailed to the caller',
    access: 'user',
    answer: z.object({ mail: z.boolean() }),
  },
  'PUT /workspaces/:id/alert-mail': {
    tag: 'Workspaces',
    summary: 'Turn the workspace’s alert emails to the caller on or off',
    access: 'user',
    body: z.object({ mail: z.boolean({ error: 'mail must be true or false' }) }),
    answer: z.object({ mail: z.boolean() }),
  },
  'GET /workspaces/:id/alert-channels/deliveries': {
    tag: 'Workspaces',
    summary: 'The latest deliveries to the workspace’s channels and how each went (owners and admins)',
    access: 'user',
    answer: z.array(alertDeliveryView),
  },
});
