import type pg from 'pg';
import { type Claimed, monitorChecks } from '../../read-models/monitor-list/index.ts';
import type { InFlight } from './in-flight.ts';

/** An expected backup or deployment is looked for this often (or at its own cadence, if shorter). */
const EXPECTATION_CHECK_SECONDS = 60;

/**
 * Claims the monitors whose check is due at `now`, only as many as there is room for in `inFlight`
 * (at most its share of one account), each for as long as a check may take (`checkTimeoutMs`, and a
 * few seconds to record it): one statement moves their `next_at` on and marks them running
 * (read-models/monitor-list, `monitorChecks.claim`).
 */
export async function claimDue(
  pool: pg.Pool,
  inFlight: InFlight,
  checkTimeoutMs: number,
  now: Date,
): Promise<Claimed[]> {
  const room = inFlight.room();
  if (room.total <= 0) return [];
  return monitorChecks.claim(pool, {
    now,
    limit: room.total,
    leaseSeconds: Math.ceil(checkTimeoutMs / 1000) + 5,
    expectationSeconds: EXPECTATION_CHECK_SECONDS,
    busyUsers: room.busyUsers,
    busyCounts: room.busyCounts,
    perUser: room.perUser,
  });
}
