import { declareRoutes, madeSecretLink, secretLinkState } from '@shiplog/service-kit';
import { z } from 'zod';

/** A pinged run (`PingRun`): how it ended, or `running` until it does, and how long it ran. */
const pingRunView = z.object({
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  outcome: z.enum(['running', 'ok', 'failed']),
  seconds: z.number().nullable(),
});

/** A project's cron ping URL, and the pings cron jobs send to it (answered in `api.ts`). */
export const pingRoutes = declareRoutes({
  'GET /projects/:projectId/ping': {
    tag: 'Monitors',
    summary: 'The project’s cron ping URL, if it has one',
    access: 'user',
    project: 'viewer',
    answer: secretLinkState.extend({ runs: z.array(pingRunView) }),
  },
  // The URL is a credential of its own: a session only, and a recent one to make it.
  'POST /projects/:projectId/ping': {
    tag: 'Monitors',
    summary: 'Make (or replace) the project’s cron ping URL',
    access: 'user',
    project: 'member',
    recentAuth: true,
    status: 201,
    answer: madeSecretLink,
  },
  'DELETE /projects/:projectId/ping': {
    tag: 'Monitors',
    summary: 'Turn the cron ping URL off',
    access: 'user',
    project: 'member',
    status: 204,
  },
  // For integrations: a scheduled GitHub workflow's run, reported as its cron ping would be, by the member
  // whose GitHub connection joined the repository to the project.
  'POST /projects/:projectId/runs': {
    summary: 'A scheduled job’s run started, ended well or failed, as its ping would say',
    access: 'user',
    project: 'member',
    internal: true,
    body: z.object({ outcome: z.enum(['start', 'ok', 'failed']), label: z.string().max(200).nullable().default(null) }),
    answer: pingRunView,
  },
  // Cron jobs call without a session, with curl or wget, GET or POST alike: the secret in the path is the credential.
  'GET /ping/:secret': {
    tag: 'Monitors',
    summary: 'A cron job’s run ended well',
    description: 'The secret in the path is the credential; GET and POST alike, for curl and wget.',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
  'POST /ping/:secret': {
    tag: 'Monitors',
    summary: 'A cron job’s run ended well',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
  'GET /ping/:secret/start': {
    tag: 'Monitors',
    summary: 'A cron job’s run started',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
  'POST /ping/:secret/start': {
    tag: 'Monitors',
    summary: 'A cron job’s run started',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
  'GET /ping/:secret/fail': {
    tag: 'Monitors',
    summary: 'A cron job’s run failed',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
  'POST /ping/:secret/fail': {
    tag: 'Monitors',
    summary: 'A cron job’s run failed',
    access: 'public',
    limit: 'ping',
    answer: pingRunView,
  },
});
