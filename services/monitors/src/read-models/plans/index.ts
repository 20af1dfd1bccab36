import type { Batch, ProjectionDefinition } from '@shiplog/service-kit';

/**
 * Each account's plan, from billing's events: its status, when its trial ends, and when a cancelled
 * paid period ends. The checker pauses the monitors of an account whose plan lapsed and resumes them
 * when it is back (run-checks `enforcePlans`), by the rule of `planRunsMonitors`.
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
