import { randomUUID } from 'node:crypto';
import type { AlertDeliveryView } from '@shiplog/schemas';
import type { Batch } from '@shiplog/service-kit';
import type pg from 'pg';
import type { AlertMessage } from '../../alert-channel/webhooks.ts';

type Queryable = Pick<pg.Pool, 'query'>;

/** The name of the email channel every account has: its id is the user's own. */
export const EMAIL_CHANNEL = 'Email';

/** A delivery as the outbox keeps it. */
export interface DeliveryRow {
  delivery_id: string;
  alert_id: string;
  channel_id: string;
  user_id: string;
  channel_name: string;
  kind: string;
  message: AlertMessage;
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export const deliveryView = (row: DeliveryRow): AlertDeliveryView => ({
  id: row.delivery_id,
  channelId: row.channel_id,
  channelName: row.channel_name,
  kind: row.kind,
  summary: row.message.title,
  state: row.state,
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  sentAt: row.sent_at?.toISOString() ?? null,
});

/**
 * The outbox's table (`monitors.alert_deliveries`, not events, migration 007): what the consumer
 * queues (index.ts), what the sender (timers/send-alerts) claims and records each try of, a channel's
 * test, the delivery log, and its pruning. Its SQL is here alone.
 */
export const alertDeliveries = {
  /** The alert's delivery to one channel, at the batch's commit: one per channel and alert, so a redelivered event adds none. */
  queue(
    defer: Batch['defer'],
    delivery: { alertId: string; channelId: string; userId: string; channelName: string; message: AlertMessage },
  ): void {
    const { alertId, channelId, userId, channelName, message } = delivery;
    defer(
      `INSERT INTO monitors.alert_deliveries (delivery_id, alert_id, channel_id, user_id, channel_name, kind, message, next_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now()) ON CONFLICT (channel_id, alert_id) DO NOTHING`,
      [randomUUID(), alertId, channelId, userId, channelName, message.type, message],
    );
  },

  /** A channel's test, logged as a delivery that is never claimed (its one try is made at once). */
  async queueTest(
    db: Queryable,
    test: { channelId: string; userId: string; channelName: string; message: AlertMessage; at: Date },
  ): Promise<DeliveryRow> {
    const { rows } = await db.query<DeliveryRow>(
      `INSERT INTO monitors.alert_deliveries (delivery_id, alert_id, channel_id, user_id, channel_name, kind, message, next_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'test', $6, 'infinity', $7) RETURNING *`,
      [randomUUID(), test.message.id, test.channelId, test.userId, test.channelName, test.message, test.at],
    );
    return rows[0]!;
  },

  /** The user's latest deliveries, newest first (the delivery log). */
  async recent(db: Queryable, userId: string): Promise<DeliveryRow[]> {
    const { rows } = await db.query<DeliveryRow>(
      `SELECT * FROM monitors.alert_deliveries WHERE user_id = $1 ORDER BY created_at DESC, delivery_id LIMIT 50`,
      [userId],
    );
    return rows;
  },

  /**
   * Claims the pending deliveries due at `now` by moving their `next_at` on by `leaseSeconds`: at most
   * `limit`, and per account at most `perUser` with what each busy one has under way (`busyUsers` and
   * `busyCounts`, parallel arrays). Rows another sender is claiming are skipped.
   */
  async claim(
    db: Queryable,
    claim: {
      now: Date;
      limit: number;
      leaseSeconds: number;
      busyUsers: string[];
      busyCounts: number[];
      perUser: number;
    },
  ): Promise<DeliveryRow[]> {
    const { rows } = await db.query<DeliveryRow>(
      `WITH busy AS (SELECT * FROM unnest($4::uuid[], $5::int[]) AS b(user_id, running)),
       ranked AS (
         SELECT d.delivery_id, d.next_at,
           coalesce(b.running, 0) + row_number() OVER (PARTITION BY d.user_id ORDER BY d.next_at) AS nth
         FROM monitors.alert_deliveries d LEFT JOIN busy b USING (user_id)
         WHERE d.state = 'pending' AND d.next_at <= $1)
       UPDATE monitors.alert_deliveries SET next_at = $1::timestamptz + make_interval(secs => $3)
       WHERE delivery_id IN (
         SELECT delivery_id FROM monitors.alert_deliveries
         WHERE delivery_id IN (SELECT delivery_id FROM ranked WHERE nth <= $6 ORDER BY next_at LIMIT $2)
           AND state = 'pending' AND next_at <= $1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [claim.now, claim.limit, claim.leaseSeconds, claim.busyUsers, claim.busyCounts, claim.perUser],
    );
    return rows;
  },

  /** A try's outcome: its state, tries so far, error, when it was sent and when it is next tried; the row after. */
  async tried(
    db: Queryable,
    attempt: {
      deliveryId: string;
      state: DeliveryRow['state'];
      attempts: number;
      error: string | null;
      at: Date;
      nextAt: Date;
    },
  ): Promise<DeliveryRow> {
    const { rows } = await db.query<DeliveryRow>(
      `UPDATE monitors.alert_deliveries SET state = $2, attempts = $3, last_error = $4,
         sent_at = CASE WHEN $2 = 'sent' THEN $5::timestamptz END, next_at = $6
       WHERE delivery_id = $1 RETURNING *`,
      [attempt.deliveryId, attempt.state, attempt.attempts, attempt.error, attempt.at, attempt.nextAt],
    );
    return rows[0]!;
  },

  /** Drops the deliveries made more than `days` before `now` (the log shows a week, as the check results do). */
  async prune(db: Queryable, now: Date, days: number): Promise<void> {
    await db.query(
      `DELETE FROM monitors.alert_deliveries WHERE created_at < $1::timestamptz - make_interval(days => $2)`,
      [now, days],
    );
  },
};
