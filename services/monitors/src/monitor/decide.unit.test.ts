import { ConflictError } from '@shiplog/errors';
import { describe, expect, it } from 'vitest';
import { type MonitorAction, MonitorNotFoundError, monitorDecider } from './decide.ts';
import type { MonitorEvent, MonitorSettings } from './monitor.ts';

const userId = '0190a1b2-0000-7000-8000-000000000001';
const monitorId = '0190a1b2-0000-7000-8000-0000000000b1';
const projectId = '0190a1b2-0000-7000-8000-0000000000f1';
const incidentId = '0190a1b2-0000-7000-8000-0000000000c1';
const now = new Date('2026-11-26T12:05:00.000Z');
const at = now.toISOString();
const settings: MonitorSettings = {
  kind: 'http',
  url: 'https://weather.example.com/',
  intervalSeconds: 60,
  graceSeconds: 0,
  expectedStatuses: '200-399',
  keyword: null,
  keywordPresent: true,
  failureThreshold: 2,
  repeatMinutes: 60,
  maxResponseMs: null,
};
const project = { id: projectId, name: 'Weather API' };

const added: MonitorEvent = {
  type: 'MonitorAdded',
  data: { monitorId, userId, projectId, projectName: 'Weather API', ...settings, at },
};
const opened: MonitorEvent = {
  type: 'IncidentOpened',
  data: {
    incidentId,
    monitorId,
    userId,
    projectId,
    projectName: 'Weather API',
    url: settings.url,
    cause: 'HTTP 503',
    failures: 2,
    startedAt: '2026-11-26T12:04:00.000Z',
    at,
  },
};
const closed: MonitorEvent = {
  type: 'IncidentClosed',
  data: {
    incidentId,
    monitorId,
    userId,
    projectId,
    projectName: 'Weather API',
    url: settings.url,
    cause: 'HTTP 503',
    startedAt: '2026-11-26T12:04:00.000Z',
    endedAt: at,
    ending: 'recovered',
    at,
  },
};
/** The incident ended as what ended it: a pause, a removal, a check refused by policy. */
const endedBy = (ending: 'paused' | 'removed' | 'unchecked'): MonitorEvent =>
  closed.type === 'IncidentClosed' ? { ...closed, data: { ...closed.data, ending } } : closed;

function given(events: MonitorEvent[]) {
  const state = events.reduce(monitorDecider.evolve, monitorDecider.initialState());
  // On a personal project unless `space` names the team workspace it is in.
  return {
    when: (command: MonitorAction, space: string | null = null) =>
      monitorDecider.decide({ ...command, space }, state, now),
  };
}

const reportDown = (failures: number): MonitorAction => ({
  type: 'ReportDown',
  incidentId,
  failures,
  since: new Date('2026-11-26T12:04:00.000Z'),
  cause: 'HTTP 503',
});

// Who may act on a monitor is its route's to decide, from the caller's role on its project
// (`project` in routes.ts; another user's project and monitor answer 404 in system/test/monitors and
// the gateway's ownership matrix). The decider refuses only what does not exist.
describe('monitors', () => {
  it('adds a monitor to the project the route reached, once', () => {
    expect(given([]).when({ type: 'AddMonitor', userId, monitorId, project, settings })).toEqual([added]);
    expect(() => given([added]).when({ type: 'AddMonitor', userId, monitorId, project, settings })).toThrow(
      ConflictError,
    );
  });

  it('changes only what differs, and is not found once removed', () => {
    const change = (changes: Partial<MonitorSettings>) => given([added]).when({ type: 'ChangeMonitor', changes });
    expect(change({ intervalSeconds: 60, url: settings.url })).toEqual([]);
    expect(change({ intervalSeconds: 300, url: settings.url })).toEqual([
      { type: 'MonitorChanged', data: { monitorId, userId, projectId, changes: { intervalSeconds: 300 }, at } },
    ]);
    const removed = given([added]).when({ type: 'RemoveMonitor', reason: 'user' });
    expect(removed).toEqual([{ type: 'MonitorRemoved', data: { monitorId, userId, projectId, reason: 'user', at } }]);
    expect(() => given([added, ...removed]).when({ type: 'ChangeMonitor', changes: { intervalSeconds: 300 } })).toThrow(
      MonitorNotFoundError,
    );
  });

  it('refuses every change to a monitor never added or removed, as not found', () => {
    const removed: MonitorEvent = {
      type: 'MonitorRemoved',
      data: { monitorId, userId, projectId, reason: 'user', at },
    };
    const changes: MonitorAction[] = [
      { type: 'ChangeMonitor', changes: { intervalSeconds: 300 } },
      { type: 'PauseMonitor', reason: 'user' },
      { type: 'ResumeMonitor' },
      { type: 'RemoveMonitor', reason: 'user' },
      { type: 'NoteIncident', incidentId, note: 'The disk filled up.' },
    ];
    for (const command of changes) {
      expect(() => given([]).when(command)).toThrow(MonitorNotFoundError);
      expect(() => given([added, opened, closed, removed]).when(command)).toThrow(MonitorNotFoundError);
    }
  });

  it('opens an incident once the failures in a row reach the threshold, and only one', () => {
    expect(given([added]).when(reportDown(1))).toEqual([]);
    expect(given([added]).when(reportDown(2))).toEqual([opened]);
    expect(given([added, opened]).when(reportDown(3))).toEqual([]);
  });

  it('closes the open incident when a check passes, and says nothing when none is open', () => {
    expect(given([added, opened]).when({ type: 'ReportUp' })).toEqual([closed]);
    expect(given([added]).when({ type: 'ReportUp' })).toEqual([]);
    expect(given([added, opened, closed]).when({ type: 'ReportUp' })).toEqual([]);
  });

  it('ends an open incident as paused or removed (not recovered) when paused or removed, and reports nothing while paused', () => {
    const paused = given([added, opened]).when({ type: 'PauseMonitor', reason: 'user' });
    expect(paused).toEqual([
      endedBy('paused'),
      { type: 'MonitorPaused', data: { monitorId, userId, projectId, reason: 'user', at } },
    ]);
    expect(given([added, ...paused]).when(reportDown(5))).toEqual([]);
    expect(given([added, ...paused]).when({ type: 'PauseMonitor', reason: 'user' })).toEqual([]);
    expect(given([added, ...paused]).when({ type: 'ResumeMonitor' })).toEqual([
      { type: 'MonitorResumed', data: { monitorId, userId, projectId, at } },
    ]);
    // The cascade of a deleted project removes it, with no caller.
    expect(given([added, opened]).when({ type: 'RemoveMonitor', reason: 'user' })[0]).toEqual(endedBy('removed'));
    expect(given([added, opened]).when({ type: 'RemoveMonitor', reason: 'project_deleted' })).toEqual([
      endedBy('removed'),
      { type: 'MonitorRemoved', data: { monitorId, userId, projectId, reason: 'project_deleted', at } },
    ]);
  });

  it('ends an open incident when its address can no longer be checked, and opens none', () => {
    expect(given([added, opened]).when({ type: 'ReportUnchecked' })).toEqual([endedBy('unchecked')]);
    expect(given([added]).when({ type: 'ReportUnchecked' })).toEqual([]);
  });

  it('reminds of an open incident once its repeat has passed since the last alert, and counts the reminders', () => {
    expect(given([added, opened]).when({ type: 'ReportStillDown' })).toEqual([]);
    const later = new Date(now.getTime() + 60 * 60_000);
    const state = [added, opened].reduce(monitorDecider.evolve, monitorDecider.initialState());
    const first = monitorDecider.decide({ type: 'ReportStillDown', space: null }, state, later);
    expect(first).toMatchObject([{ type: 'IncidentRepeated', data: { incidentId, count: 1, cause: 'HTTP 503' } }]);
    const reminded = first.reduce(monitorDecider.evolve, state);
    expect(
      monitorDecider.decide(
        { type: 'ReportStillDown', space: null },
        reminded,
        new Date(later.getTime() + 59 * 60_000),
      ),
    ).toEqual([]);
    expect(
      monitorDecider.decide(
        { type: 'ReportStillDown', space: null },
        reminded,
        new Date(later.getTime() + 60 * 60_000),
      ),
    ).toMatchObject([{ type: 'IncidentRepeated', data: { count: 2 } }]);
    // None once it is closed.
    expect(given([added, opened, closed]).when({ type: 'ReportStillDown' })).toEqual([]);
  });

  it('changes a URL check’s URL, and refuses it for a domain or an expected run', () => {
    expect(given([added]).when({ type: 'ChangeMonitor', changes: { url: 'https://other.example/' } })).toMatchObject([
      { type: 'MonitorChanged', data: { changes: { url: 'https://other.example/' } } },
    ]);
    const domain: MonitorEvent = {
      type: 'MonitorAdded',
      data: { ...added.data, kind: 'domain', url: 'weather.example' },
    };
    expect(() =>
      given([domain]).when({ type: 'ChangeMonitor', changes: { url: 'https://other.example/', keyword: 'x' } }),
    ).toThrow('Only a URL monitor has this to change');
    expect(given([domain]).when({ type: 'ChangeMonitor', changes: { repeatMinutes: 240 } })).toHaveLength(1);
  });

  it('pauses for a lapsed plan, and resumes for the plan only what the plan paused', () => {
    const byPlan = given([added]).when({ type: 'PauseMonitor', reason: 'plan' });
    expect(byPlan).toEqual([{ type: 'MonitorPaused', data: { monitorId, userId, projectId, reason: 'plan', at } }]);
    const resumed = { type: 'MonitorResumed', data: { monitorId, userId, projectId, at } };
    expect(given([added, ...byPlan]).when({ type: 'ResumeMonitor', reason: 'plan' })).toEqual([resumed]);
    const byOwner = given([added]).when({ type: 'PauseMonitor', reason: 'user' });
    expect(given([added, ...byOwner]).when({ type: 'ResumeMonitor', reason: 'plan' })).toEqual([]);
    expect(given([added, ...byOwner]).when({ type: 'ResumeMonitor' })).toEqual([resumed]);
  });

  it('notes a closed incident of the monitor, and no other', () => {
    const note = (events: MonitorEvent[]) =>
      given(events).when({ type: 'NoteIncident', incidentId, note: 'The disk filled up.' });
    expect(note([added, opened, closed])).toEqual([
      {
        type: 'IncidentNoted',
        data: { incidentId, monitorId, userId, projectId, note: 'The disk filled up.', at },
      },
    ]);
    expect(() => note([added, opened])).toThrow('Incident not found');
    expect(() => note([added])).toThrow('Incident not found');
  });

  it('names the team workspace its project is in on every event it decides, and none for a personal one', () => {
    const team = '0190a1b2-0000-7000-8000-0000000000e1';
    const spaces = (events: MonitorEvent[]) =>
      events.map((event) => (event.data as { workspaceId?: string }).workspaceId);
    const made = given([]).when({ type: 'AddMonitor', userId, monitorId, project, settings }, team);
    expect(spaces(made)).toEqual([team]);
    // The checks' commands too: an incident's opening, its reminder and its end.
    const down = given(made).when(reportDown(2), team);
    expect(spaces(down)).toEqual([team]);
    expect(spaces(given([...made, ...down]).when({ type: 'RemoveMonitor', reason: 'user' }, team))).toEqual([
      team,
      team,
    ]);
    // Moved to its maker's personal space since: no team is named any more.
    expect(given([...made, ...down]).when({ type: 'ReportUp' })[0]!.data).not.toHaveProperty('workspaceId');
  });

  it('states a monitor whole under its project’s new space when the project moves, read alone as it stood', () => {
    const team = '0190a1b2-0000-7000-8000-0000000000e1';
    const state = [added, opened].reduce(monitorDecider.evolve, monitorDecider.initialState());
    const moved = given([added, opened]).when({ type: 'MoveWithProject' }, team);
    expect(moved).toMatchObject([
      { type: 'MonitorMoved', data: { monitorId, workspaceId: team, incident: { id: incidentId } } },
    ]);
    // Its earlier events unreadable (their key destroyed): the move alone is the monitor.
    expect(moved.reduce(monitorDecider.evolve, monitorDecider.initialState())).toEqual(state);
    expect(given([]).when({ type: 'MoveWithProject' }, team)).toEqual([]);
  });
});
