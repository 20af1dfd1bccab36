import { ConflictError, NotFoundError, ValidationError } from '@shiplog/errors';
import { type Decider, inSpace } from '@shiplog/service-kit';
import { daysLeft, expiryWarning, isNewWarning } from './expiry.ts';
import {
  type AddedMonitor,
  evolveMonitor,
  initialMonitor,
  type Monitor,
  type MonitorEvent,
  type MonitorSettings,
} from './monitor.ts';

/** The project a monitor goes on, as the route reached it: one the caller may add to. */
export interface MonitoredProject {
  id: string;
  name: string;
}

/**
 * What is done to a monitor, and `space`: the team workspace its project is in now (null for a
 * personal one), as whoever asks knows it. Every event decided names it, so a team's monitor is sealed
 * with the team's key and outlives its maker's erasure (decision 057).
 */
export type MonitorCommand = MonitorAction & { space: string | null };

/**
 * Who may do it was decided by the route, from the caller's role on the monitor's project
 * (`RouteDeclaration.project`); the checks, the plan's enforcement and a deleted project's cascade run
 * them with no caller at all. `userId` on an add is the monitor's maker.
 */
export type MonitorAction =
  | {
      type: 'AddMonitor';
      userId: string;
      monitorId: string;
      project: MonitoredProject;
      settings: MonitorSettings;
    }
  | { type: 'ChangeMonitor'; changes: Partial<MonitorSettings> }
  /** By someone who may change it, or because the account's plan lapsed. */
  | { type: 'PauseMonitor'; reason: 'user' | 'plan' }
  /** By someone who may change it; or (reason `plan`) because the plan is back, which resumes only what the plan paused. */
  | { type: 'ResumeMonitor'; reason?: 'plan' }
  | { type: 'RemoveMonitor'; reason: 'user' | 'project_deleted' }
  /**
   * The checks say it is down: `failures` in a row since `since` (the first of them), for `cause`.
   * Opens an incident unless one is open or the monitor is paused or gone.
   */
  | { type: 'ReportDown'; incidentId: string; failures: number; since: Date; cause: string }
  /** A check passed: closes the open incident, if any. */
  | { type: 'ReportUp' }
  /**
   * A check was refused by policy (the address is a private one now): nothing is known of the target,
   * so an open incident ends, as when paused, and none opens.
   */
  | { type: 'ReportUnchecked' }
  /** A check failed again while the incident is open: a reminder, once `repeatMinutes` have passed since the last alert. */
  | { type: 'ReportStillDown' }
  /**
   * A check read when what the monitor watches ends (an https site's certificate, a domain's
   * registration): warns at 14, 7 and 1 days before, once each.
   */
  | { type: 'ReportExpiry'; expiresAt: Date }
  /** A note on one of the monitor's closed incidents: what happened. */
  | { type: 'NoteIncident'; incidentId: string; note: string }
  /**
   * Its project moved to another space (the command's `space`): the monitor stated again whole, under
   * that space's key (decision 058). Nothing for one that is gone.
   */
  | { type: 'MoveWithProject' };

export class MonitorNotFoundError extends NotFoundError {
  constructor() {
    super('Monitor not found', 'MONITOR_NOT_FOUND');
  }
}

/** The live monitor: one never added, or removed, is not found. */
function liveMonitor(state: Monitor) {
  if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
  return state;
}

export function decideMonitor(command: MonitorCommand, state: Monitor, now: Date): MonitorEvent[] {
  return inSpace(decideAction(command, state, now), command.space);
}

function decideAction(command: MonitorAction, state: Monitor, now: Date): MonitorEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'AddMonitor': {
      if (state.lifecycle !== 'none') throw new ConflictError('Monitor already exists', 'MONITOR_EXISTS');
      const { project, userId, monitorId, settings } = command;
      // The cap is the user's monitor slots' to decide (monitor-slots/), on a stream that serialises it.
      return [
        {
          type: 'MonitorAdded',
          data: { monitorId, userId, projectId: project.id, projectName: project.name, ...settings, at },
        },
      ];
    }
    case 'ChangeMonitor': {
      const monitor = liveMonitor(state);
      // What a URL check has: a domain's or an expected run's monitor has none of it to change.
      if (monitor.settings.kind !== 'http') {
        const urlOnly = ['url', 'expectedStatuses', 'keyword', 'keywordPresent', 'maxResponseMs'] as const;
        const refused = urlOnly.filter((field) => command.changes[field] !== undefined);
        if (refused.length > 0)
          throw new ValidationError(
            Object.fromEntries(refused.map((field) => [field, ['Only a URL monitor has this to change']])),
          );
      }
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) => value !== undefined && monitor.settings[key as keyof MonitorSettings] !== value,
        ),
      );
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'MonitorChanged',
          data: { monitorId: monitor.id, userId: monitor.userId, projectId: monitor.projectId, changes, at },
        },
      ];
    }
    case 'PauseMonitor': {
      const monitor = liveMonitor(state);
      if (monitor.paused) return [];
      const { id: monitorId, userId, projectId } = monitor;
      // A paused monitor has no open incident: nothing is known of the target while it is not checked.
      return [
        ...closeIncident(monitor, at, 'paused'),
        { type: 'MonitorPaused', data: { monitorId, userId, projectId, reason: command.reason, at } },
      ];
    }
    case 'ResumeMonitor': {
      const monitor = liveMonitor(state);
      if (!monitor.paused || (command.reason === 'plan' && monitor.paused !== 'plan')) return [];
      return [
        {
          type: 'MonitorResumed',
          data: { monitorId: monitor.id, userId: monitor.userId, projectId: monitor.projectId, at },
        },
      ];
    }
    case 'RemoveMonitor': {
      const monitor = liveMonitor(state);
      const { id: monitorId, userId, projectId } = monitor;
      return [
        ...closeIncident(monitor, at, 'removed'),
        { type: 'MonitorRemoved', data: { monitorId, userId, projectId, reason: command.reason, at } },
      ];
    }
    case 'ReportDown': {
      if (state.lifecycle !== 'active' || state.paused || state.incident) return [];
      if (command.failures < state.settings.failureThreshold) return [];
      return [
        {
          type: 'IncidentOpened',
          data: {
            incidentId: command.incidentId,
            monitorId: state.id,
            userId: state.userId,
            projectId: state.projectId,
            projectName: state.projectName,
            url: state.settings.url,
            cause: command.cause,
            failures: command.failures,
            startedAt: command.since.toISOString(),
            at,
          },
        },
      ];
    }
    case 'ReportUp':
      if (state.lifecycle !== 'active') return [];
      return closeIncident(state, at, 'recovered');
    case 'ReportUnchecked':
      if (state.lifecycle !== 'active') return [];
      return closeIncident(state, at, 'unchecked');
    case 'ReportStillDown': {
      if (state.lifecycle !== 'active' || state.paused || !state.incident) return [];
      const { repeatMinutes } = state.settings;
      const { incident } = state;
      if (repeatMinutes <= 0 || now.getTime() - Date.parse(incident.alertedAt) < repeatMinutes * 60_000) return [];
      return [
        {
          type: 'IncidentRepeated',
          data: {
            incidentId: incident.id,
            monitorId: state.id,
            userId: state.userId,
            projectId: state.projectId,
            projectName: state.projectName,
            url: state.settings.url,
            cause: incident.cause,
            startedAt: incident.startedAt,
            count: incident.reminders + 1,
            at,
          },
        },
      ];
    }
    case 'ReportExpiry': {
      if (state.lifecycle !== 'active' || state.paused) return [];
      const warning = expiryWarning(command.expiresAt, now);
      const expiresAt = command.expiresAt.toISOString();
      if (warning === null || !isNewWarning(warning, expiresAt, state.expiry)) return [];
      return [
        {
          type: 'ExpiryApproaching',
          data: {
            monitorId: state.id,
            userId: state.userId,
            projectId: state.projectId,
            projectName: state.projectName,
            url: state.settings.url,
            of: state.settings.kind === 'domain' ? 'domain' : 'certificate',
            expiresAt,
            warning,
            daysLeft: daysLeft(command.expiresAt, now),
            at,
          },
        },
      ];
    }
    case 'MoveWithProject': {
      if (state.lifecycle !== 'active') return [];
      const { id: monitorId, userId, projectId, projectName, settings, paused, incident, closed, expiry } = state;
      return [
        {
          type: 'MonitorMoved',
          data: { monitorId, userId, projectId, projectName, ...settings, paused, incident, closed, expiry, at },
        },
      ];
    }
    case 'NoteIncident': {
      const monitor = liveMonitor(state);
      if (!monitor.closed.includes(command.incidentId))
        throw new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');
      const { id: monitorId, userId, projectId } = monitor;
      return [
        {
          type: 'IncidentNoted',
          data: { incidentId: command.incidentId, monitorId, userId, projectId, note: command.note, at },
        },
      ];
    }
  }
}

/** Ends the open incident, if any, as what ended it: only a recovery tells anyone it is up again. */
function closeIncident(
  monitor: AddedMonitor,
  at: string,
  ending: 'recovered' | 'paused' | 'removed' | 'unchecked',
): MonitorEvent[] {
  const { incident } = monitor;
  if (!incident) return [];
  return [
    {
      type: 'IncidentClosed',
      data: {
        incidentId: incident.id,
        monitorId: monitor.id,
        userId: monitor.userId,
        projectId: monitor.projectId,
        projectName: monitor.projectName,
        url: monitor.settings.url,
        cause: incident.cause,
        startedAt: incident.startedAt,
        endedAt: at,
        ending,
        at,
      },
    },
  ];
}

export const monitorDecider: Decider<Monitor, MonitorCommand, MonitorEvent> = {
  initialState: initialMonitor,
  evolve: evolveMonitor,
  decide: decideMonitor,
};
