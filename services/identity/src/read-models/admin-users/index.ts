import type { AdminUser, AdminUserCounts } from '@shiplog/schemas';
import type { ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/** Upserts one side of a user's row (each source fills its own columns, in whichever order they come). */
const upsert = (tx: pg.ClientBase, userId: string, columns: Record<string, unknown>) => {
  const names = Object.keys(columns);
  return tx.query(
    `INSERT INTO identity.admin_users (user_id, ${names.join(', ')})
     VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (user_id) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`,
    [userId, ...Object.values(columns)],
  );
};

/** The admin dashboard's User Management table: every account with its plan, searchable and paged. */
export const adminUsersProjection: ProjectionDefinition = {
  name: 'admin-users',
  sources: ['identity', 'billing'],
  tables: ['admin_users'],
  handlers: {
    UserRegistered: async (event, tx) => {
      const d = event.data;
      await upsert(tx, d.userId, { username: d.username, email: d.email, created_at: d.registeredAt });
    },
    // The erasure consumer deletes the row too, but reads wait only for projections: the admin who just
    // deleted an account must not see it in the table they reload.
    UserDeleted: async (event, tx) => {
      const { userId } = event.data;
      await tx.query('DELETE FROM identity.admin_users WHERE user_id = $1', [userId]);
    },
    AccountInfoUpdated: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.admin_users SET email = $2 WHERE user_id = $1', [d.userId, d.email]);
    },
    TrialStarted: async (event, tx) => {
      const d = event.data;
      await upsert(tx, d.userId, {
        subscription_status: 'trialing',
        trial_start: d.trialStartDate,
        trial_end: d.trialEndDate,
      });
    },
    TrialExtended: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.admin_users SET trial_end = $2 WHERE user_id = $1', [d.userId, d.trialEndDate]);
    },
    SubscriptionStatusChanged: async (event, tx) => {
      const d = event.data;
      await tx.query('UPDATE identity.admin_users SET subscription_status = $2 WHERE user_id = $1', [d.userId, d.to]);
    },
  },
};

const iso = (column: string, alias: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${alias}"`;

const MATCHING = `username IS NOT NULL AND ($1::text IS NULL OR search LIKE $1)`;

/**
 * One page of users, newest first, matching `q` in the username or email; and how many match in all.
 * Two queries side by side: the page stops after `limit` rows of the newest-first index, and the count
 * (the trigram index on `search` when searching) sorts nothing.
 */
export async function adminUsersPage(
  pool: pg.Pool,
  query: { q: string; page: number; limit: number },
): Promise<{ users: AdminUser[]; total: number }> {
  // A substring search: % and _ in what the admin typed are literal characters.
  const pattern = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` : null;
  const [page, count] = await Promise.all([
    pool.query<AdminUser>(
      `SELECT user_id AS id, username, email, subscription_status AS "subscriptionStatus",
              ${iso('trial_start', 'trialStartDate')}, ${iso('trial_end', 'trialEndDate')}, ${iso('created_at', 'createdAt')}
       FROM identity.admin_users WHERE ${MATCHING}
       ORDER BY created_at DESC, user_id DESC LIMIT $2 OFFSET $3`,
      [pattern, query.limit, (query.page - 1) * query.limit],
    ),
    pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity.admin_users WHERE ${MATCHING}`, [pattern]),
  ]);
  return { users: page.rows, total: count.rows[0]?.n ?? 0 };
}

/** The dashboard's four counters, by each user's status (active and paid are both subscriptions). */
export async function adminUserCounts(pool: pg.Pool): Promise<AdminUserCounts> {
  const { rows } = await pool.query<AdminUserCounts>(
    `SELECT count(*)::int AS "totalUsers",
            count(*) FILTER (WHERE subscription_status IN ('active', 'paid'))::int AS "activeSubscriptions",
            count(*) FILTER (WHERE subscription_status = 'trialing')::int AS "trialUsers",
            count(*) FILTER (WHERE subscription_status = 'unpaid')::int AS "unpaidUsers"
     FROM identity.admin_users WHERE username IS NOT NULL`,
  );
  return rows[0]!;
}
