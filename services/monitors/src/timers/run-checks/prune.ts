import type pg from 'pg';
import { pingRuns } from '../../ping/runs.ts';
import { alertDeliveries } from '../../reactions/alert-outbox/deliveries.ts';
import { monitorChecks } from '../../read-models/monitor-list/index.ts';

/** Raw results are kept this long; hourly counts, 90 days. */
const RAW_DAYS = 7;
const ROLLUP_DAYS = 90;

/** Drops raw results, pinged runs and alert deliveries past 7 days, and hourly counts past 90. */
export async function prune(pool: pg.Pool, now: Date): Promise<void> {
  await monitorChecks.pruneResults(pool, now, RAW_DAYS);
  // The delivery log shows a week, as the results do; an alert still unsent a week on is not worth sending.
  await alertDeliveries.prune(pool, now, RAW_DAYS);
  await monitorChecks.pruneRollups(pool, now, ROLLUP_DAYS);
  await pingRuns.prune(pool, now, RAW_DAYS);
}
