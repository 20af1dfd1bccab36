import {
  createDomainMonitorSchema,
  createExpectationSchema,
  createMonitorSchema,
  incidentNoteSchema,
  monitorKinds,
  monitorStates,
  updateMonitorSchema,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** A monitor's open incident, as the list reads it. */
const openIncidentView = z.object({ id: z.string(), startedAt: z.string(), cause: z.string() });

/** A monitor as the list answers it (`MonitorView`): its settings, state, last check and uptime. */
const monitorView = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  kind: z.enum(monitorKinds),
  url: z.string(),
  intervalSeconds: z.number(),
  graceSeconds: z.number(),
  expectedStatuses: z.string(),
  keyword: z.string().nullable(),
  keywordPresent: z.boolean(),
  failureThreshold: z.number(),
  repeatMinutes: z.number(),
  maxResponseMs: z.number().nullable(),
  state: z.enum(monitorStates),
  pausedBy: z.enum(['user', 'plan']).nullable(),
  maintenanceSince: z.string().nullable(),
  since: z.string(),
  lastCheck: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      ms: z.number().nullable(),
      cause: z.string().nullable(),
      expiresAt: z.string().nullable(),
      refused: z.boolean(),
    })
    .nullable(),
  uptime: z.object({ day: z.number().nullable(), month: z.number().nullable() }),
  openIncident: openIncidentView.nullable(),
  createdAt: z.string(),
});

/**
 * A monitor as a write answers it, from its stream: its open incident as the stream holds it (when it
 * was last alerted, and how many reminders it has had).
 */
const writtenMonitorView = monitorView.extend({
  openIncident: openIncidentView.extend({ alertedAt: z.string(), reminders: z.number() }).nullable(),
});

/** An incident as the API lists it (`IncidentView`). */
const incidentView = z.object({
  id: z.string(),
  cause: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  note: z.string().nullable(),
});

/** What a status page shows of the monitors asked for, and their incidents (`MonitorsStatus`). */
const monitorsStatusView = z.object({
  monitors: z.array(
    z.object({
      id: z.string(),
      projectId: z.string(),
      kind: z.enum(monitorKinds),
      origin: z.string(),
      intervalSeconds: z.number(),
      state: z.enum(monitorStates),
      since: z.string(),
      maintenanceSince: z.string().nullable(),
      uptime: z.object({ day: z.number().nullable(), month: z.number().nullable(), quarter: z.number().nullable() }),
      days: z.array(z.number().nullable()),
    }),
  ),
  incidents: z.array(
    z.object({
      id: z.string(),
      monitorId: z.string(),
      projectId: z.string(),
      cause: z.string(),
      startedAt: z.string(),
      endedAt: z.string().nullable(),
      note: z.string().nullable(),
    }),
  ),
});

/**
 * Monitors on the projects the caller reaches, and their incidents (answered in `api.ts`): read with
 * any role on the project (`viewer`), added, changed and removed by its members and up (`member`).
 * The account's own list (`GET /monitors`) is the monitors the caller made, on no one project.
 */
export const monitorRoutes = declareRoutes({
  'GET /monitors': {
    tag: 'Monitors',
    summary: 'Every monitor on every project the account reaches (its own and its workspaces’), with its state',
    access: 'user',
    answer: z.array(monitorView),
  },
  // For a public status page (the gateway's publicStatus): the monitors of the projects it names,
  // which the gateway read as the user's public ones.
  'GET /public/users/:userId/status': {
    summary: 'The status of a user’s monitors on the projects named (`?projects=`), and their incidents',
    access: 'public',
    internal: true,
    answer: monitorsStatusView,
  },
  // For a team's status page: the monitors of the workspace's projects it names, which the gateway
  // read as the workspace's public ones.
  'GET /public/workspaces/:workspaceId/status': {
    summary: 'The status of a team workspace’s monitors on the projects named (`?projects=`), and their incidents',
    access: 'public',
    internal: true,
    answer: monitorsStatusView,
  },
  'GET /projects/:projectId/monitors': {
    tag: 'Monitors',
    summary: 'A project’s monitors',
    access: 'user',
    project: 'viewer',
    answer: z.array(monitorView),
  },
  'POST /projects/:projectId/monitors': {
    tag: 'Monitors',
    summary: 'Add a monitor to a project (subscribers)',
    access: 'user',
    project: 'member',
    limit: 'monitorWrite',
    idempotent: true,
    body: z.union([createMonitorSchema, createExpectationSchema, createDomainMonitorSchema]),
    status: 201,
    answer: writtenMonitorView,
  },
  'PATCH /monitors/:id': {
    tag: 'Monitors',
    summary: 'Change, pause or resume a monitor',
    access: 'user',
    project: 'member',
    limit: 'monitorWrite',
    body: updateMonitorSchema,
    answer: writtenMonitorView,
  },
  'GET /monitors/:id/incidents': {
    tag: 'Monitors',
    summary: 'A monitor’s incidents',
    access: 'user',
    project: 'viewer',
    answer: z.array(incidentView),
  },
  'PUT /monitors/:id/incidents/:incidentId/note': {
    tag: 'Monitors',
    summary: 'Write the note on an incident',
    access: 'user',
    project: 'member',
    body: incidentNoteSchema,
    answer: z.object({ id: z.string(), note: z.string() }),
  },
  'DELETE /monitors/:id': {
    tag: 'Monitors',
    summary: 'Delete a monitor',
    access: 'user',
    project: 'member',
    status: 204,
  },
});
