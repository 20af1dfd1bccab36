import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';

/**
 * The team workspace the monitor's project was in when the event was decided; absent for a personal
 * project. It names the event's key (`dataSubjectOf`): a team's monitor outlives its maker's erasure.
 */
const workspaceId = id.optional();

/** What a monitor checks and how: its add and a move state them all (the defaults: added before they were). */
const settings = {
  /**
   * `http`: a URL is checked; `backup` / `deployment`: one is expected every `intervalSeconds`;
   * `domain`: the registration of the domain in `url` is looked up (RDAP).
   */
  kind: z.enum(['http', 'backup', 'deployment', 'domain']).default('http'),
  url: z.string(),
  intervalSeconds: z.number().int(),
  /** How late an expected backup or deployment may be before it counts as missed. */
  graceSeconds: z.number().int().default(0),
  expectedStatuses: z.string(),
  keyword: z.string().nullable(),
  keywordPresent: z.boolean(),
  failureThreshold: z.number().int(),
  /** Minutes between reminders while an incident stays open; 0: none. */
  repeatMinutes: z.number().int().default(0),
  /** An answer slower than this shows the monitor as degraded; null: none. */
  maxResponseMs: z.number().int().nullable().default(null),
};

/** What an incident's opening and closing both say: which monitor, whose, where, since when, why. */
const incident = {
  incidentId: id,
  monitorId: id,
  userId: id,
  workspaceId,
  projectId: id,
  projectName: z.string(),
  url: z.string(),
  cause: z.string(),
  startedAt: isoDate,
  at: isoDate,
};

// monitors: checks of what users shipped. A check's result is not an event (it goes to a table with
// retention); what changes a monitor's state is.
export const monitorEvents = {
  MonitorAdded: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      ...settings,
      at: isoDate,
    }),
  }),
  MonitorChanged: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      changes: z.object({
        url: z.string().optional(),
        intervalSeconds: z.number().int().optional(),
        graceSeconds: z.number().int().optional(),
        expectedStatuses: z.string().optional(),
        keyword: z.string().nullable().optional(),
        keywordPresent: z.boolean().optional(),
        failureThreshold: z.number().int().optional(),
        repeatMinutes: z.number().int().optional(),
        maxResponseMs: z.number().int().nullable().optional(),
      }),
      at: isoDate,
    }),
  }),
  /** Checks stop until resumed: by its owner, or because the plan lapsed. */
  MonitorPaused: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      reason: z.enum(['user', 'plan']),
      at: isoDate,
    }),
  }),
  MonitorResumed: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ monitorId: id, userId: id, workspaceId, projectId: id, at: isoDate }),
  }),
  /** Removed by its owner, or with its project. */
  MonitorRemoved: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      reason: z.enum(['user', 'project_deleted']),
      at: isoDate,
    }),
  }),
  /**
   * The monitor's project moved to another space (decision 058): the monitor as it stands, stated
   * again under the new space's key, so its stream reads whole without the key of its earlier events
   * (a team's monitor outlives its maker's erasure even when it was added before the move).
   */
  MonitorMoved: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      ...settings,
      paused: z.enum(['user', 'plan']).nullable(),
      incident: z
        .object({
          id,
          startedAt: isoDate,
          cause: z.string(),
          alertedAt: isoDate,
          reminders: z.number().int(),
        })
        .nullable(),
      closed: z.array(id),
      expiry: z.object({ expiresAt: isoDate, days: z.number().int() }).nullable(),
      at: isoDate,
    }),
  }),
  /** `failures` checks in a row failed: the target is down from the first of them. */
  IncidentOpened: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ ...incident, failures: z.number().int() }),
  }),
  /** The owner wrote what happened (a short post-mortem) on a closed incident; a later note replaces it. */
  IncidentNoted: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      incidentId: id,
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      note: z.string(),
      at: isoDate,
    }),
  }),
  /**
   * What a monitor watches ends within `warning` days (14, 7 or 1): an https site's certificate, or a
   * domain's registration. Told once at each.
   */
  ExpiryApproaching: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      monitorId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      url: z.string(),
      of: z.enum(['certificate', 'domain']),
      expiresAt: isoDate,
      warning: z.union([z.literal(14), z.literal(7), z.literal(1)]),
      daysLeft: z.number().int(),
      at: isoDate,
    }),
  }),
  /**
   * `alert-channels-<userId>` streams: where a user's alerts go besides email. A channel's URL and a
   * webhook's signing secret are credentials: never published, sealed with the user's key at rest.
   */
  AlertChannelAdded: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({
      channelId: id,
      userId: id,
      kind: z.enum(['webhook', 'slack', 'discord', 'ntfy']),
      name: z.string(),
      url: z.string(),
      secret: z.string().nullable(),
      at: isoDate,
    }),
  }),
  AlertChannelRemoved: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ channelId: id, userId: id, at: isoDate }),
  }),
  /**
   * A team workspace's alert channel was added or removed: published (its `AlertChannelAdded`, which
   * holds the URL and secret, is not) for the workspace's audit log; by its name and kind only.
   */
  TeamAlertChannelChanged: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    personal: false,
    schema: z.object({
      workspaceId: id,
      channelId: id,
      name: z.string(),
      kind: z.string(),
      change: z.enum(['added', 'removed']),
      at: isoDate,
    }),
  }),
  /** Still down `repeatMinutes` after the last alert: the `count`th reminder of the open incident. */
  IncidentRepeated: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ ...incident, count: z.number().int() }),
  }),
  /**
   * The incident is over: a check passed again (`recovered`), or nothing more is known of the target
   * because its monitor was paused or removed, or can no longer be checked (its address turned private:
   * `unchecked`). Only a recovery is alerted.
   */
  IncidentClosed: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      ...incident,
      endedAt: isoDate,
      ending: z.enum(['recovered', 'paused', 'removed', 'unchecked']).default('recovered'),
    }),
  }),
  /**
   * `workflow-runs-<projectId>` streams: a GitHub Actions run of the project's repository failed on its
   * default branch (integrations reports it), alerted through the project's channels as an incident
   * opening is, once per run. `userId` is whose the project is, `workspaceId` its team's.
   */
  WorkflowRunFailed: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({
      projectId: id,
      workspaceId: id.optional(),
      userId: id,
      projectName: z.string(),
      /** The workflow's file name (`ci.yml`), or its name. */
      workflow: z.string(),
      runId: z.number().int(),
      /** The run's page on GitHub, when the delivery named one. */
      runUrl: z.string().nullable(),
      branch: z.string(),
      /** What started it on GitHub: `push`, `schedule`, `workflow_dispatch`, … */
      trigger: z.string(),
      at: isoDate,
    }),
  }),
  /**
   * `ping-url-<projectId>` streams: a project's cron ping URL made by whoever the metadata names
   * (`replaced`: the one before it stopped working at once), or turned off. The URL's secret is never
   * in an event (its hash is the ping table's). `userId` is whose it is, the project's space its
   * `workspaceId` for a team project. What a team's audit log reads.
   */
  PingUrlMade: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ projectId: id, workspaceId: id.optional(), userId: id, replaced: z.boolean(), at: isoDate }),
  }),
  PingUrlTurnedOff: event({
    owner: 'monitors',
    version: 1,
    publish: true,
    schema: z.object({ projectId: id, workspaceId: id.optional(), userId: id, at: isoDate }),
  }),
  /**
   * `monitor-slots-<userId>` streams: the monitors a user holds against the plan's cap. Each add takes
   * a slot and each removal frees it on this one stream, appended with its expected revision, so
   * creates racing in parallel are counted one after another. Kept inside the service.
   */
  MonitorSlotTaken: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ monitorId: id, userId: id, at: isoDate }),
  }),
  MonitorSlotFreed: event({
    owner: 'monitors',
    version: 1,
    publish: false,
    schema: z.object({ monitorId: id, userId: id, at: isoDate }),
  }),
} as const satisfies Record<string, { owner: 'monitors' }>;
