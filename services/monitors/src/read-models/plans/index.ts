import type { Batch, ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/**
 * Each account's plan, from billing's events: its status, when its trial ends, and when a cancelled
 * paid period ends. The checker pauses the monitors of an account whose plan lapsed and resumes them
 * when it is back (timers/run-checks, `enforcePlans`), by the rule of `inPaidTier`.
 */
export const plansProjection: ProjectionDefinition = {
  name: 'plans',
  sources: ['billing'],
  tables: ['plans'],
  handlers: {
    TrialStarted: async ({ data }, _tx, { defer }) => setPlan(defer, data.userId, 'trial_end', data.trialEndDate),
    TrialExtended: async ({ data }, _tx, { defer }) => setPlan(defer, data.userId, 'trial_end', data.trialEndDate),
    SubscriptionStatusChanged: async ({ data }, _tx, { defer }) => setPlan(defer, data.userId, 'status', data.to),
    StripeSubscriptionSynced: async ({ data }, _tx, { defer }) =>
      setPlan(defer, data.userId, 'cancel_ends', data.cancelAtPeriodEnd ? data.currentPeriodEnd : null),
  },
};

/** One field of the account's plan; its row is made (as a trial) by whichever of billing's events comes first. */
function setPlan(
  defer: Batch['defer'],
  userId: string,
  column: 'status' | 'trial_end' | 'cancel_ends',
  value: string | null,
) {
  const insert =
    column === 'status'
      ? '(user_id, status) VALUES ($1, $2)'
      : `(user_id, status, ${column}) VALUES ($1, 'trialing', $2)`;
  defer(`INSERT INTO monitors.plans ${insert} ON CONFLICT (user_id) DO UPDATE SET ${column} = EXCLUDED.${column}`, [
    userId,
    value,
  ]);
}

/**
 * The monitors out of step with their account's plan at `now`: running though the plan lapsed
 * (`ok` false), or paused for the plan though it is back (`ok` true). What its owner paused is not
 * among them.
 */
export async function monitorsOffPlan(pool: pg.Pool, now: Date): Promise<{ monitor_id: string; ok: boolean }[]> {
  const { rows } = await pool.query<{ monitor_id: string; ok: boolean }>(
    `WITH plan AS (
       SELECT user_id, (status IN ('active', 'paid') AND coalesce(cancel_ends > $1, true))
         OR (status = 'trialing' AND trial_end > $1) AS ok
       FROM monitors.plans)
     SELECT m.monitor_id, p.ok FROM monitors.monitor_list m JOIN plan p USING (user_id)
     WHERE (m.paused IS NULL AND NOT p.ok) OR (m.paused = 'plan' AND p.ok)`,
    [now],
  );
  return rows;
}
