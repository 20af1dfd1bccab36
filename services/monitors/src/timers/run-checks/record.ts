import type pg from 'pg';
import { type Claimed, monitorChecks } from '../../read-models/monitor-list/index.ts';
import type { CheckResult } from './probe.ts';

/** What a recorded check tells of its monitor's failures in a row. */
export interface Streak {
  /** Failures in a row this check ends (0 after a pass). */
  failures: number;
  /** Since when it has been failing (null after a pass). */
  since: Date | null;
  /** Whether the check before it failed (null for the first). */
  previous_failed: boolean | null;
}

/**
 * Stores the result and its hourly count (not an event), and ends the claim; answers the failures in
 * a row it ends (0 after a pass), since when, and whether the check before it failed.
 */
export function recordResult(pool: pg.Pool, monitor: Claimed, result: CheckResult, at: Date): Promise<Streak> {
  return monitorChecks.record(pool, {
    monitorId: monitor.monitor_id,
    userId: monitor.user_id,
    at,
    ok: result.ok,
    status: result.status,
    ms: result.ms,
    cause: result.cause,
    expiresAt: result.expiresAt ?? null,
    refused: result.refused === true,
    lookBack: monitor.failure_threshold - 1,
  });
}
