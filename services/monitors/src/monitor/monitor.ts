import type { EventOf } from '@shiplog/events';

/**
 * A monitor, folded from its `monitor-<id>` stream: what it checks and how, whether it is paused, and
 * its open incident. Check results are not here (they are not events: `read-models/monitor-list`
 * keeps them with retention); only what changes the monitor's state is.
 */
export type MonitorEvent =
  | EventOf<'MonitorAdded'>
  | EventOf<'MonitorChanged'>
  | EventOf<'MonitorPaused'>
  | EventOf<'MonitorResumed'>
  | EventOf<'MonitorRemoved'>
  | EventOf<'MonitorMoved'>
  | EventOf<'IncidentOpened'>
  | EventOf<'IncidentClosed'>
  | EventOf<'IncidentNoted'>
  | EventOf<'IncidentRepeated'>
  | EventOf<'ExpiryApproaching'>;

export interface MonitorSettings {
  /**
   * `http`: `url` is checked every `intervalSeconds`; `backup` / `deployment`: one is expected that
   * often; `domain`: the registration of the domain in `url` is looked up (RDAP) that often.
   */
  kind: 'http' | 'backup' | 'deployment' | 'domain';
  url: string;
  intervalSeconds: number;
  /** How late an expected backup or deployment may be (0 for a URL). */
  graceSeconds: number;
  expectedStatuses: string;
  keyword: string | null;
  keywordPresent: boolean;
  failureThreshold: number;
  /** Minutes between reminders while an incident stays open; 0: none. */
  repeatMinutes: number;
  /** An answer slower than this shows it as degraded (not an incident); null: none. */
  maxResponseMs: number | null;
}

export interface OpenIncident {
  id: string;
  startedAt: string;
  cause: string;
  /** When it was last alerted (opened, or reminded), and how many reminders it has had. */
  alertedAt: string;
  reminders: number;
}

export type Monitor =
  | { lifecycle: 'none' }
  | {
      lifecycle: 'active' | 'removed';
      id: string;
      userId: string;
      projectId: string;
      projectName: string;
      settings: MonitorSettings;
      paused: 'user' | 'plan' | null;
      incident: OpenIncident | null;
      /** Its closed incidents' ids: a note goes only on one of these. */
      closed: string[];
      /** The end last warned of (a certificate's, a domain's), and at how many days: each warning is given once. */
      expiry: { expiresAt: string; days: number } | null;
    };

/** A monitor that was added: live (`active`) or `removed`. */
export type AddedMonitor = Exclude<Monitor, { lifecycle: 'none' }>;

export const monitorStream = (monitorId: string) => `monitor-${monitorId}`;

export const initialMonitor = (): Monitor => ({ lifecycle: 'none' });

/** A live monitor's identity and settings, as its add or a move states them. */
function stated(d: EventOf<'MonitorAdded' | 'MonitorMoved'>['data']) {
  const { monitorId, userId, projectId, projectName, kind, url, intervalSeconds, graceSeconds } = d;
  const { expectedStatuses, keyword, keywordPresent, failureThreshold, repeatMinutes, maxResponseMs } = d;
  const settings: MonitorSettings = {
    kind,
    url,
    intervalSeconds,
    graceSeconds,
    expectedStatuses,
    keyword,
    keywordPresent,
    failureThreshold,
    repeatMinutes,
    maxResponseMs,
  };
  return { lifecycle: 'active' as const, id: monitorId, userId, projectId, projectName, settings };
}

export function evolveMonitor(state: Monitor, event: MonitorEvent): Monitor {
  if (event.type === 'MonitorAdded')
    return { ...stated(event.data), paused: null, incident: null, closed: [], expiry: null };
  if (event.type === 'MonitorMoved') {
    // Whole, as it stood when its project moved: its earlier events may no longer be readable.
    const { paused, incident, closed, expiry } = event.data;
    return { ...stated(event.data), paused, incident, closed, expiry };
  }
  if (state.lifecycle === 'none') return state;
  switch (event.type) {
    case 'MonitorChanged': {
      const changes = Object.fromEntries(Object.entries(event.data.changes).filter(([, v]) => v !== undefined));
      return { ...state, settings: { ...state.settings, ...changes } };
    }
    case 'MonitorPaused':
      return { ...state, paused: event.data.reason };
    case 'MonitorResumed':
      return { ...state, paused: null };
    case 'MonitorRemoved':
      return { ...state, lifecycle: 'removed', incident: null };
    case 'IncidentOpened':
      return {
        ...state,
        incident: {
          id: event.data.incidentId,
          startedAt: event.data.startedAt,
          cause: event.data.cause,
          alertedAt: event.data.at,
          reminders: 0,
        },
      };
    case 'IncidentClosed':
      return { ...state, incident: null, closed: [...state.closed, event.data.incidentId] };
    case 'IncidentNoted':
      return state;
    case 'IncidentRepeated':
      return state.incident?.id === event.data.incidentId
        ? { ...state, incident: { ...state.incident, alertedAt: event.data.at, reminders: event.data.count } }
        : state;
    case 'ExpiryApproaching':
      return { ...state, expiry: { expiresAt: event.data.expiresAt, days: event.data.warning } };
  }
}
