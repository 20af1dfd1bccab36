import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '@shiplog/event-store';
import { handleCommand, type ServiceContext } from '@shiplog/service-kit';
import type { MonitorsEnv } from '../../env.ts';
import { type MonitorCommand, monitorDecider } from '../../monitor/decide.ts';
import { expiryWarning, isNewWarning } from '../../monitor/expiry.ts';
import { type MonitorEvent, monitorStream } from '../../monitor/monitor.ts';
import { deployBefore } from '../../reactions/project-cascade/index.ts';
import type { Claimed } from '../../read-models/monitor-list/index.ts';
import type { CheckResult } from './probe.ts';
import type { Streak } from './record.ts';

/** A deployment this long before an incident's first failure is named in it. */
const DEPLOY_WINDOW_MINUTES = 30;

/** A command of the checker's on the monitor's stream; a change another checker reported first appends nothing. */
export async function report(
  store: ServiceContext<MonitorsEnv>['store'],
  monitorId: string,
  command: MonitorCommand,
  at: Date,
): Promise<MonitorEvent[]> {
  try {
    const result = await handleCommand(store, monitorStream(monitorId), monitorDecider, command, {
      userId: null,
      correlationId: randomUUID(),
      now: at,
    });
    return result.events;
  } catch (error) {
    // Another checker reported this change first.
    if (error instanceof ConcurrencyError) return [];
    throw error;
  }
}

/** ` after deploy 1.4.0` when the project was deployed shortly before `since`, else nothing. */
async function afterDeploy(pool: ServiceContext<MonitorsEnv>['pool'], projectId: string, since: Date): Promise<string> {
  const deploy = await deployBefore(pool, projectId, since, DEPLOY_WINDOW_MINUTES);
  if (!deploy) return '';
  return deploy.version ? ` after deploy ${deploy.version}` : ` after the ${deploy.environment} deploy`;
}

/**
 * What a recorded check changes, decided and reported on the monitor's stream: enough failures in a
 * row open an incident, a pass closes it, a failure that goes on repeats it when asked, a refused
 * check ends it, and a certificate or registration near its end is warned of.
 */
export async function reportOutcome(
  { store, pool }: Pick<ServiceContext<MonitorsEnv>, 'store' | 'pool'>,
  monitor: Claimed,
  result: CheckResult,
  streak: Streak,
  at: Date,
): Promise<void> {
  // Refused by policy: no incident opens, and an open one ends (nothing is known of the target).
  // Every command names where the project is: a team's monitor's events are the team's (decision 057).
  const space = monitor.workspace_id;
  if (result.refused) {
    if (monitor.incident_id) await report(store, monitor.monitor_id, { type: 'ReportUnchecked', space }, at);
    return;
  }
  // Decided on the monitor's stream, which is never behind: the list the claim read may not yet show
  // an incident opened a moment ago, so a pass after a failure asks to close whatever is open.
  let command: MonitorCommand | null = null;
  // Inside a deployment's maintenance window a failure opens nothing; one that goes on after it
  // opens the incident at the next check, naming the deploy.
  const held =
    monitor.kind === 'http' && monitor.maintenance_started_at !== null && monitor.maintenance_started_at <= at;
  if (!result.ok && !held && streak.failures >= monitor.failure_threshold && !monitor.incident_id) {
    const since = streak.since ?? at;
    command = {
      type: 'ReportDown',
      incidentId: randomUUID(),
      failures: streak.failures,
      since,
      cause: `${result.cause ?? 'failed'}${await afterDeploy(pool, monitor.project_id, since)}`,
      space,
    };
  } else if (result.ok && (monitor.incident_id || streak.previous_failed)) command = { type: 'ReportUp', space };
  // Still down, with reminders asked for: the stream says whether one is due.
  else if (!result.ok && monitor.incident_id && monitor.repeat_minutes > 0)
    command = { type: 'ReportStillDown', space };
  if (command) await report(store, monitor.monitor_id, command, at);
  // A certificate or registration near its end: reported only at a warning not yet given for it (the stream decides).
  const expiresAt = result.expiresAt;
  const warning = expiresAt ? expiryWarning(expiresAt, at) : null;
  const warned = monitor.warned_expires_at
    ? { expiresAt: monitor.warned_expires_at.toISOString(), days: monitor.warned_days ?? 0 }
    : null;
  if (expiresAt && warning && isNewWarning(warning, expiresAt.toISOString(), warned))
    await report(store, monitor.monitor_id, { type: 'ReportExpiry', expiresAt, space }, at);
}
