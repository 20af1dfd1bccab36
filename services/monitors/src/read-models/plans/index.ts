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
 * The monitors out of step with their plan at `now`: running though the plan lapsed (`ok` false), or
 * paused for the plan though it is back (`ok` true). A monitor on a personal project follows its
 * maker's plan; on a team workspace's, its owners' (any one of them on the paid tier keeps it). What
 * its owner paused is not among them, nor one whose plan billing has not told of yet.
 */
export async function monitorsOffPlan(
  pool: pg.Pool,
  now: Date,
): Promise<{ monitor_id: string; ok: boolean; workspace_id: string | null }[]> {
  const { rows } = await pool.query<{ monitor_id: string; ok: boolean; workspace_id: string | null }>(
    `WITH plan AS (
       SELECT user_id, (status IN ('active', 'paid') AND coalesce(cancel_ends > $1, true))
         OR (status = 'trialing' AND trial_end > $1) AS ok
       FROM monitors.plans),
     team AS (
       SELECT w.workspace_id, bool_or(p.ok) AS ok FROM monitors.workspace_members w JOIN plan p USING (user_id)
       WHERE w.role = 'owner' GROUP BY w.workspace_id),
     governed AS (
       SELECT m.monitor_id, m.paused, pr.workspace_id, CASE WHEN pr.workspace_id IS NULL THEN own.ok ELSE team.ok END AS ok
       FROM monitors.monitor_list m
       LEFT JOIN monitors.projects pr ON pr.project_id = m.project_id
       LEFT JOIN plan own ON own.user_id = m.user_id
       LEFT JOIN team ON team.workspace_id = pr.workspace_id)
     SELECT monitor_id, ok, workspace_id FROM governed
     WHERE ok IS NOT NULL AND ((paused IS NULL AND NOT ok) OR (paused = 'plan' AND ok))`,
    [now],
  );
  return rows;
}
