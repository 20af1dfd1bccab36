import type { EventOf, PublishedEventType } from '@shiplog/events';

/**
 * What the timeline reads: every published event of projects, reminders and monitors, and identity's
 * security changes.
 */
export type TimelineEventType =
  | PublishedEventType<'projects'>
  | PublishedEventType<'reminders'>
  | PublishedEventType<'monitors'>
  | 'PasswordChanged'
  | 'AccountInfoUpdated';

/** A timeline row (spec/core.md §3 activities). */
export interface TimelineEntry {
  userId: string;
  projectId: string | null;
  eventType: string;
  action: string;
  /** '<what happened>: <project name>': the activity card shows the part after ': ' as the project. */
  details: string;
  metadata: Record<string, unknown>;
  version: string | null;
  status: 'success' | 'failed' | 'in_progress';
}

/**
 * Which events the timeline shows, and how. Pure: the projector and a rebuild give the same rows.
 * Checklist ticks that come with a deployment, backup or quick update are part of that entry, not
 * one of their own.
 */
export function toTimelineEntry(event: EventOf<TimelineEventType>): TimelineEntry | null {
  const entry = (
    e: Omit<TimelineEntry, 'status' | 'metadata' | 'version'> & Partial<TimelineEntry>,
  ): TimelineEntry => ({
    status: 'success',
    metadata: {},
    version: null,
    ...e,
  });
  switch (event.type) {
    case 'ProjectCreated': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'project_created',
        action: 'created',
        details: `Created project: ${d.name}`,
        metadata: { status: d.status },
      });
    }
    case 'ProjectUpdated': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'project_updated',
        action: 'updated',
        details: `Updated project: ${d.name}`,
        metadata: { fields: Object.keys(d.changes) },
      });
    }
    case 'ProjectStatusChanged': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'status_change',
        action: 'updated',
        details: `Status changed to ${d.to}: ${d.name}`,
        metadata: { from: d.from, to: d.to },
      });
    }
    case 'ChecklistUpdated': {
      const d = event.data;
      if (d.cause !== 'toggle') return null;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'project_updated',
        action: 'updated',
        details: `Updated checklist: ${d.name}`,
        metadata: { changed: d.changed, checklist: d.checklist },
      });
    }
    case 'BackupRecorded': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'backup_created',
        action: 'created',
        details: `Backup created: ${d.name}`,
        version: d.version,
        metadata: { notes: d.notes, location: d.location, size: d.size },
      });
    }
    case 'DeploymentRecorded': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'deployment',
        action: { started: 'deploying', failed: 'deployment failed', success: 'deployed' }[d.status],
        details: {
          started: `Deployment to ${d.environment} started: ${d.name}`,
          failed: `Deployment to ${d.environment} failed: ${d.name}`,
          success: `Deployed to ${d.environment}: ${d.name}`,
        }[d.status],
        version: d.version,
        status: d.status === 'started' ? 'in_progress' : d.status,
        metadata: {
          environment: d.environment,
          deploymentUrl: d.url,
          notes: d.notes,
          method: d.method,
          duration: d.duration,
          // The platform's own id, when a deploy webhook recorded it.
          ...(d.source ? { source: d.source } : {}),
          // What it shipped, when GitHub's delivery recorded it.
          ...(d.shipped ? { shipped: d.shipped } : {}),
        },
      });
    }
    case 'VersionReleased': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'version_release',
        action: 'released',
        details: `Released ${d.version}: ${d.name}`,
        version: d.version,
        metadata: { changes: d.changes, notes: d.notes, ...(d.shipped ? { shipped: d.shipped } : {}) },
      });
    }
    case 'QuickUpdateLogged': {
      // Redeployed wins over Backed Up; neither is a plain update (spec/core.md §4).
      const d = event.data;
      const [eventType, action] = d.redeployed
        ? ['deployment', 'redeployed']
        : d.backedUp
          ? ['backup_created', 'backed up']
          : ['project_updated', 'updated'];
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType,
        action,
        details: `Quick update: ${d.name}`,
        metadata: { notes: d.notes, redeployed: d.redeployed, backedUp: d.backedUp, timestamp: d.at },
      });
    }
    case 'ProjectDeleted': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: null,
        eventType: 'project_deleted',
        action: 'deleted',
        details: `Deleted project: ${d.name}`,
      });
    }
    // One entry for a move, in the space it went to (whose members read the project's timeline now).
    case 'ProjectMovedIn': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'project_updated',
        action: 'moved',
        details: `${d.workspaceId ? 'Moved to a team workspace' : 'Moved to a personal space'}: ${d.name}`,
        metadata: { from: d.from, to: d.workspaceId ?? null },
      });
    }
    case 'ProjectMovedOut':
      return null;
    case 'ReminderAdded': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'reminder_added',
        action: 'created',
        details: `Added reminder "${d.title}": ${d.projectName}`,
        metadata: { reminderId: d.reminderId, dueDate: d.dueDate },
      });
    }
    case 'ReminderUpdated': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'reminder_updated',
        action: 'updated',
        details: `Updated reminder "${d.title}": ${d.projectName}`,
        metadata: { reminderId: d.reminderId, fields: Object.keys(d.changes) },
      });
    }
    case 'ReminderCompleted': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'reminder_completed',
        action: 'completed',
        details: `Completed reminder "${d.title}": ${d.projectName}`,
        metadata: { reminderId: d.reminderId },
      });
    }
    case 'ReminderReactivated': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'reminder_updated',
        action: 'updated',
        details: `Reactivated reminder "${d.title}": ${d.projectName}`,
        metadata: { reminderId: d.reminderId },
      });
    }
    // Security-relevant changes of the account (spec/core.md §3: security_update).
    case 'PasswordChanged':
      return entry({
        userId: event.data.userId,
        projectId: null,
        eventType: 'security_update',
        action: 'updated',
        details: 'Password changed',
        metadata: { change: 'password' },
      });
    case 'AccountInfoUpdated':
      return entry({
        userId: event.data.userId,
        projectId: null,
        eventType: 'security_update',
        action: 'updated',
        details: 'Account information updated',
        metadata: { change: 'account_info' },
      });
    case 'MonitorAdded': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'monitor_added',
        action: 'created',
        details:
          d.kind === 'http'
            ? `Started monitoring ${d.url}: ${d.projectName}`
            : d.kind === 'domain'
              ? `Watching the registration of ${d.url}: ${d.projectName}`
              : `Expecting a ${d.kind} every ${cadence(d.intervalSeconds)}: ${d.projectName}`,
        metadata: { monitorId: d.monitorId, url: d.url, intervalSeconds: d.intervalSeconds },
      });
    }
    // An incident is two rows: when it opens (failed), and when it closes, with how long it lasted.
    case 'IncidentOpened': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'incident',
        action: 'down',
        details: `${d.url ? 'Down' : 'Overdue'} since ${clock(d.startedAt)} UTC, ${d.cause}: ${d.projectName}`,
        metadata: {
          incidentId: d.incidentId,
          monitorId: d.monitorId,
          url: d.url,
          cause: d.cause,
          startedAt: d.startedAt,
        },
        status: 'failed',
      });
    }
    case 'IncidentClosed': {
      const d = event.data;
      const minutes = Math.max(1, Math.round((Date.parse(d.endedAt) - Date.parse(d.startedAt)) / 60_000));
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'incident',
        // Recovered only when a check passed; pausing, removing or a refused check ends it unresolved.
        action: d.ending === 'recovered' ? 'recovered' : 'ended',
        details: `${d.url ? 'Down' : 'Overdue'} ${clock(d.startedAt)}–${clock(d.endedAt)} UTC, ${minutes} min, ${d.cause}${endings[d.ending]}: ${d.projectName}`,
        metadata: {
          incidentId: d.incidentId,
          monitorId: d.monitorId,
          url: d.url,
          cause: d.cause,
          startedAt: d.startedAt,
          endedAt: d.endedAt,
          minutes,
          ending: d.ending,
        },
      });
    }
    // Told at 14, 7 and 1 days before a certificate or a domain's registration ends.
    case 'ExpiryApproaching': {
      const d = event.data;
      const what = d.of === 'domain' ? `Registration of ${d.url}` : `Certificate of ${d.url}`;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: d.of === 'domain' ? 'domain' : 'certificate',
        action: 'expiring',
        details: `${what} ends ${d.expiresAt.slice(0, 10)}, in ${d.daysLeft} ${d.daysLeft === 1 ? 'day' : 'days'}: ${d.projectName}`,
        metadata: { monitorId: d.monitorId, url: d.url, expiresAt: d.expiresAt, daysLeft: d.daysLeft },
      });
    }
    // A failed GitHub Actions run on the default branch: GitHub's, as a deployment is its platform's.
    case 'WorkflowRunFailed': {
      const d = event.data;
      return entry({
        userId: d.userId,
        projectId: d.projectId,
        eventType: 'workflow',
        action: 'failed',
        details: `${d.workflow} failed on ${d.branch} (${d.trigger}): ${d.projectName}`,
        metadata: {
          workflow: d.workflow,
          runId: d.runId,
          runUrl: d.runUrl,
          branch: d.branch,
          trigger: d.trigger,
          source: { platform: 'github' },
        },
        status: 'failed',
      });
    }
    // A monitor's settings, pauses and removal are the monitor's own business: its card shows them.
    case 'MonitorChanged':
    case 'MonitorPaused':
    case 'MonitorResumed':
    case 'MonitorRemoved':
    // A note belongs to its incident, which the monitor's card lists; a reminder is only an alert.
    case 'IncidentNoted':
    case 'IncidentRepeated':
    // A team's alert channels are its settings, and a project's webhook and ping URLs credentials
    // beside it: its audit log has them.
    case 'TeamAlertChannelChanged':
    case 'DeployHookMade':
    case 'DeployHookTurnedOff':
    case 'PingUrlMade':
    case 'PingUrlTurnedOff':
      return null;
    // Deliberately not on the timeline: sends and moves are the scheduler's bookkeeping, and a deleted
    // reminder leaves its added/completed rows as its history.
    case 'ReminderNotificationSent':
    case 'ReminderRescheduled':
    case 'ReminderDeleted':
      return null;
    // An import's projects and reminders bring their history with them (HistoryImported), whose
    // entries are rows of their own, each with its original time (index.ts).
    case 'ProjectImported':
    case 'ReminderImported':
    case 'HistoryImported':
      return null;
    // A reminder or monitor stated again under its project's new key: the project's move is the entry.
    case 'ReminderMoved':
    case 'MonitorMoved':
      return null;
    default:
      // A new event type of a source the timeline reads fails to compile here until it is placed.
      return event satisfies never;
  }
}

/** `12:04`: an instant's hour and minute in UTC, as the timeline's details read. */
const clock = (iso: string) => iso.slice(11, 16);

/** How an incident that did not recover ended, as its closing row says after its cause. */
const endings = {
  recovered: '',
  paused: ', ended when the monitor was paused',
  removed: ', ended when the monitor was removed',
  unchecked: ', ended: the address can no longer be checked',
} as const;

/** `1 day`, `12 hours`, `90 minutes`: an expectation's cadence as the timeline reads. */
function cadence(seconds: number): string {
  const [amount, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [Math.round(seconds / 60), 'minute'];
  return amount === 1 ? unit : `${amount} ${unit}s`;
}
