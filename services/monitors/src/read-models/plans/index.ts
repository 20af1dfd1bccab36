import type { ProjectionDefinition } from '@shiplog/service-kit';

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
    TrialStarted: async ({ data }, _tx, { defer }) =>
      defer(
        `INSERT INTO monitors.plans (user_id, status, trial_end) VALUES ($1, 'trialing', $2)
         ON CONFLICT (user_id) DO UPDATE SET trial_end = EXCLUDED.trial_end`,
        [data.userId, data.trialEndDate],
      ),
    TrialExtended: async ({ data }, _tx, { defer }) =>
      defer(
        `INSERT INTO monitors.plans (user_id, status, trial_end) VALUES ($1, 'trialing', $2)
         ON CONFLICT (user_id) DO UPDATE SET trial_end = EXCLUDED.trial_end`,
        [data.userId, data.trialEndDate],
      ),
    SubscriptionStatusChanged: async ({ data }, _tx, { defer }) =>
      defer(
        `INSERT INTO monitors.plans (user_id, status) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status`,
        [data.userId, data.to],
      ),
    StripeSubscriptionSynced: async ({ data }, _tx, { defer }) =>
      defer(
        `INSERT INTO monitors.plans (user_id, status, cancel_ends) VALUES ($1, 'trialing', $2)
         ON CONFLICT (user_id) DO UPDATE SET cancel_ends = EXCLUDED.cancel_ends`,
        [data.userId, data.cancelAtPeriodEnd ? data.currentPeriodEnd : null],
      ),
  },
};
