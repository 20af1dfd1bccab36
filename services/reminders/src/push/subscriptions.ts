import type { PushSubscriptionInput } from '@shiplog/schemas';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * The devices that receive push reminders (`reminders.push_subscriptions`): credentials for a device,
 * kept outside the event streams (migration 007), each with the session it was turned on in (migration
 * 008). Turned on and off by their owner (push/api.ts), ended with that session, read and pruned by
 * the scheduler (timers/send-due-reminders).
 */
export interface PushDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * The most devices one user has push reminders on. Turning it on in one more replaces the one turned on
 * longest ago: the device in the user's hand is the one they expect to work, and Settings cannot turn
 * off another device's push (it never reads an endpoint back).
 */
export const MAX_PUSH_DEVICES = 10;

export const pushSubscriptions = {
  /**
   * Keeps the device for `userId`, taking it from whoever had it before (the same browser, signed in
   * anew), and lets the user's devices past `MAX_PUSH_DEVICES`, the oldest, go: one user's saves in
   * turn (a lock on the user for the transaction), so two at once cannot leave eleven.
   */
  async save(pool: pg.Pool, userId: string, session: string, input: PushSubscriptionInput): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('push-devices:' || $1))", [userId]);
      await client.query(
        `INSERT INTO reminders.push_subscriptions (endpoint, user_id, session, p256dh, auth, label)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (endpoint) DO UPDATE
           SET user_id = EXCLUDED.user_id, session = EXCLUDED.session, p256dh = EXCLUDED.p256dh,
               auth = EXCLUDED.auth, label = EXCLUDED.label, created_at = now()`,
        [input.endpoint, userId, session, input.keys.p256dh, input.keys.auth, input.label ?? ''],
      );
      await client.query(
        `DELETE FROM reminders.push_subscriptions WHERE user_id = $1 AND endpoint IN (
           SELECT endpoint FROM reminders.push_subscriptions WHERE user_id = $1
           ORDER BY created_at DESC, endpoint OFFSET $2)`,
        [userId, MAX_PUSH_DEVICES],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  },

  /** Whether the user's device was there to remove. */
  async remove(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
    const { rowCount } = await db.query(
      'DELETE FROM reminders.push_subscriptions WHERE endpoint = $1 AND user_id = $2',
      [endpoint, userId],
    );
    return (rowCount ?? 0) > 0;
  },

  /** The session the devices were turned on in ended (sign-out, expiry, ended elsewhere): they go with it. */
  async endSession(db: Queryable, userId: string, session: string): Promise<void> {
    await db.query('DELETE FROM reminders.push_subscriptions WHERE user_id = $1 AND session = $2', [userId, session]);
  },

  /** The push service says the subscription is gone (404, 410): nobody receives there any more. */
  async forget(db: Queryable, endpoint: string): Promise<void> {
    await db.query('DELETE FROM reminders.push_subscriptions WHERE endpoint = $1', [endpoint]);
  },

  async devicesOf(db: Queryable, userId: string): Promise<PushDevice[]> {
    const { rows } = await db.query<{ endpoint: string; p256dh: string; auth: string }>(
      'SELECT endpoint, p256dh, auth FROM reminders.push_subscriptions WHERE user_id = $1 ORDER BY created_at',
      [userId],
    );
    return rows.map((row) => ({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }));
  },

  /** What Settings lists: each device's label and since when (never its endpoint). */
  async listOf(db: Queryable, userId: string): Promise<{ label: string; createdAt: string }[]> {
    const { rows } = await db.query<{ label: string; created_at: Date }>(
      'SELECT label, created_at FROM reminders.push_subscriptions WHERE user_id = $1 ORDER BY created_at',
      [userId],
    );
    return rows.map((row) => ({ label: row.label || 'A browser', createdAt: row.created_at.toISOString() }));
  },
};
