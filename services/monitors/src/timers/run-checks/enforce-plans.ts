import { NotFoundError } from '@shiplog/errors';
import type { ServiceContext } from '@shiplog/service-kit';
import type { MonitorsEnv } from '../../env.ts';
import type { MonitorCommand } from '../../monitor/decide.ts';
import { monitorsOffPlan } from '../../read-models/plans/index.ts';
import { report } from './report.ts';

/**
 * Pauses the monitors of accounts whose plan lapsed (reason `plan`: the card says so), and resumes
 * what a plan paused once the plan is back; what its owner paused stays paused. By the rule of
 * `inPaidTier`, on the plans billing's events left (read-models/plans).
 */
export async function enforcePlans(
  { store, pool }: Pick<ServiceContext<MonitorsEnv>, 'store' | 'pool'>,
  now: Date,
): Promise<{ paused: number; resumed: number }> {
  const rows = await monitorsOffPlan(pool, now);
  let paused = 0;
  let resumed = 0;
  for (const { monitor_id, ok, workspace_id: space } of rows) {
    const command: MonitorCommand = ok
      ? { type: 'ResumeMonitor', reason: 'plan', space }
      : { type: 'PauseMonitor', reason: 'plan', space };
    const events = await report(store, monitor_id, command, now).catch((error: unknown) => {
      // Removed since the list was read.
      if (error instanceof NotFoundError) return [];
      throw error;
    });
    if (events.some((e) => e.type === 'MonitorPaused')) paused += 1;
    if (events.some((e) => e.type === 'MonitorResumed')) resumed += 1;
  }
  return { paused, resumed };
}
