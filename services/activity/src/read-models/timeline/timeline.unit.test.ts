import { describe, expect, it } from 'vitest';
import { toTimelineEntry } from './timeline.ts';

const userId = '0190a000-0000-7000-8000-000000000001';
const projectId = '0190a000-0000-7000-8000-000000000002';
const reminderId = '0190a000-0000-7000-8000-000000000003';
const at = '2026-11-20T10:00:00.000Z';
const checklist = { authenticationAdded: true, backedUp: false, databaseAdded: true, deployed: false, hasTests: false };

const quickUpdate = (redeployed: boolean, backedUp: boolean) =>
  toTimelineEntry({
    type: 'QuickUpdateLogged',
    data: { projectId, userId, name: 'Shiplog', notes: 'fixed the build', redeployed, backedUp, at },
  });

describe('toTimelineEntry', () => {
  it('names the project after ": " in the details, as the activity card reads it', () => {
    const entry = toTimelineEntry({
      type: 'DeploymentRecorded',
      data: {
        projectId,
        userId,
        name: 'Shiplog',
        environment: 'production',
        version: '1.2.0',
        url: 'https://shiplog.dev',
        notes: null,
        method: null,
        duration: null,
        status: 'success',
        source: null,
        at,
      },
    });
    expect(entry).toMatchObject({
      userId,
      projectId,
      eventType: 'deployment',
      action: 'deployed',
      details: 'Deployed to production: Shiplog',
      version: '1.2.0',
      status: 'success',
      metadata: { environment: 'production', deploymentUrl: 'https://shiplog.dev' },
    });
  });

  it("shows a platform's failed deployment as failed, with the platform's id", () => {
    const entry = toTimelineEntry({
      type: 'DeploymentRecorded',
      data: {
        projectId,
        userId,
        name: 'Shiplog',
        environment: 'staging',
        version: 'a1b2c3d',
        url: null,
        notes: 'Build exited with code 1',
        method: 'Vercel',
        duration: null,
        status: 'failed',
        source: { platform: 'vercel', deploymentId: 'dpl_123' },
        at,
      },
    });
    expect(entry).toMatchObject({
      eventType: 'deployment',
      action: 'deployment failed',
      details: 'Deployment to staging failed: Shiplog',
      status: 'failed',
      metadata: { method: 'Vercel', source: { platform: 'vercel', deploymentId: 'dpl_123' } },
    });
  });

  it('files a quick update as a redeploy before a backup, and as a plain update with neither', () => {
    expect(quickUpdate(true, true)).toMatchObject({ eventType: 'deployment', action: 'redeployed' });
    expect(quickUpdate(false, true)).toMatchObject({ eventType: 'backup_created', action: 'backed up' });
    expect(quickUpdate(false, false)).toMatchObject({ eventType: 'project_updated', action: 'updated' });
    expect(quickUpdate(false, false)?.details).toBe('Quick update: Shiplog');
  });

  it('shows a checklist toggle, but not the ticks that come with another entry', () => {
    const checklistEvent = (cause: 'toggle' | 'quick_update' | 'deployment' | 'backup') =>
      toTimelineEntry({
        type: 'ChecklistUpdated',
        data: { projectId, userId, name: 'Shiplog', checklist, changed: ['databaseAdded'], cause, at },
      });
    expect(checklistEvent('toggle')).toMatchObject({ details: 'Updated checklist: Shiplog' });
    for (const cause of ['quick_update', 'deployment', 'backup'] as const) expect(checklistEvent(cause)).toBeNull();
  });

  it('keeps a deleted project’s row unlinked from it', () => {
    const entry = toTimelineEntry({ type: 'ProjectDeleted', data: { projectId, userId, name: 'Old', at } });
    expect(entry).toMatchObject({ projectId: null, eventType: 'project_deleted', details: 'Deleted project: Old' });
  });

  it('records a password change as a security update of no project', () => {
    expect(toTimelineEntry({ type: 'PasswordChanged', data: { userId, at } })).toEqual({
      userId,
      projectId: null,
      eventType: 'security_update',
      action: 'updated',
      details: 'Password changed',
      metadata: { change: 'password' },
      version: null,
      status: 'success',
    });
  });

  it('leaves the scheduler’s bookkeeping off the timeline', () => {
    expect(
      toTimelineEntry({
        type: 'ReminderNotificationSent',
        data: { reminderId, userId, projectId, reminderTime: 'at_time', occurrence: at, channel: 'log', at },
      }),
    ).toBeNull();
    expect(
      toTimelineEntry({ type: 'ReminderRescheduled', data: { reminderId, userId, projectId, from: at, to: at, at } }),
    ).toBeNull();
  });

  it('tells a monitor’s incidents, down and missed, with when and for how long', () => {
    const monitorId = '0190a000-0000-7000-8000-000000000004';
    const incidentId = '0190a000-0000-7000-8000-000000000005';
    const incident = { incidentId, monitorId, userId, projectId, projectName: 'Shiplog', startedAt: at };
    const down = toTimelineEntry({
      type: 'IncidentOpened',
      data: { ...incident, url: 'https://shiplog.dev/', cause: 'HTTP 503 after deploy 1.4.0', failures: 2, at },
    });
    expect(down).toMatchObject({
      eventType: 'incident',
      status: 'failed',
      details: 'Down since 10:00 UTC, HTTP 503 after deploy 1.4.0: Shiplog',
    });
    const back = toTimelineEntry({
      type: 'IncidentClosed',
      data: {
        ...incident,
        url: 'https://shiplog.dev/',
        cause: 'HTTP 503',
        endedAt: '2026-11-20T10:05:00.000Z',
        ending: 'recovered',
        at,
      },
    });
    expect(back).toMatchObject({
      status: 'success',
      action: 'recovered',
      details: 'Down 10:00–10:05 UTC, 5 min, HTTP 503: Shiplog',
      metadata: { minutes: 5 },
    });
    // Removed or paused while down: it ended, but nothing recovered.
    const removed = toTimelineEntry({
      type: 'IncidentClosed',
      data: {
        ...incident,
        url: 'https://shiplog.dev/',
        cause: 'HTTP 503',
        endedAt: '2026-11-20T10:05:00.000Z',
        ending: 'removed',
        at,
      },
    });
    expect(removed).toMatchObject({
      action: 'ended',
      details: 'Down 10:00–10:05 UTC, 5 min, HTTP 503, ended when the monitor was removed: Shiplog',
    });
    const missed = toTimelineEntry({
      type: 'IncidentOpened',
      data: { ...incident, url: '', cause: 'no backup yet', failures: 1, at },
    });
    expect(missed?.details).toBe('Overdue since 10:00 UTC, no backup yet: Shiplog');
  });

  it('tells what a new monitor watches: a URL, a domain’s registration, or a backup or deployment at a cadence', () => {
    const added = (kind: 'http' | 'backup' | 'domain', url: string, intervalSeconds: number) =>
      toTimelineEntry({
        type: 'MonitorAdded',
        data: {
          monitorId: '0190a000-0000-7000-8000-000000000004',
          userId,
          projectId,
          projectName: 'Shiplog',
          kind,
          url,
          intervalSeconds,
          graceSeconds: 0,
          expectedStatuses: '200-399',
          keyword: null,
          keywordPresent: true,
          failureThreshold: 2,
          repeatMinutes: 0,
          maxResponseMs: null,
          at,
        },
      })?.details;
    expect(added('http', 'https://shiplog.dev/', 60)).toBe('Started monitoring https://shiplog.dev/: Shiplog');
    expect(added('backup', '', 86_400)).toBe('Expecting a backup every day: Shiplog');
    expect(added('backup', '', 6 * 3600)).toBe('Expecting a backup every 6 hours: Shiplog');
    expect(added('domain', 'shiplog.dev', 86_400)).toBe('Watching the registration of shiplog.dev: Shiplog');
  });
});
