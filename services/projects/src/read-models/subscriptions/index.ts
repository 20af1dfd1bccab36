import type { SubscriptionStatus } from '@shiplog/schemas';
import type { ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/** Each user's subscription status as billing's events tell it: the Quick Update gate reads this. */
export const subscriptionsProjection: ProjectionDefinition = {
  name: 'subscriptions',
  sources: ['billing'],
  tables: ['subscriptions'],
  handlers: {
    TrialStarted: async (event, tx) => {
      const { userId } = event.data as { userId: string };
      await tx.query(
        `INSERT INTO projects.subscriptions (user_id, status) VALUES ($1, 'trialing') ON CONFLICT (user_id) DO NOTHING`,
        [userId],
      );
    },
    SubscriptionStatusChanged: async (event, tx) => {
      const { userId, to } = event.data as { userId: string; to: SubscriptionStatus };
      await tx.query(
        `INSERT INTO projects.subscriptions (user_id, status) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status`,
        [userId, to],
      );
    },
  },
};

/** Active and paid count as subscribed (spec/core.md §4). */
export async function isSubscribed(pool: pg.Pool, userId: string): Promise<boolean> {
  const { rows } = await pool.query<{ status: string }>(
    'SELECT status FROM projects.subscriptions WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.status === 'active' || rows[0]?.status === 'paid';
}
