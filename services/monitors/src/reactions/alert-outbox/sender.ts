import { failureCause, type Outbound } from '@shiplog/outbound';
import type { AlertDeliveryView } from '@shiplog/schemas';
import { escapeHtml, loadAggregate, type Mailer, repeating, type ServiceContext } from '@shiplog/service-kit';
import type pg from 'pg';
import { type AlertChannels, alertChannelsStream } from '../../alert-channel/alert-channel.ts';
import { alertChannelsDecider } from '../../alert-channel/decide.ts';
import { type AlertMessage, deliveryRequest } from '../../alert-channel/webhooks.ts';
import type { MonitorsEnv } from '../../env.ts';

/** The name of the email channel every account has: its id is the user's own. */
export const EMAIL_CHANNEL = 'Email';

/** The user's address, if they proved it (alerts are emailed only to one: decision 030). */
export async function provenAddress(db: Pick<pg.Pool, 'query'>, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ email: string | null }>(
    'SELECT CASE WHEN email_verified THEN email END AS email FROM monitors.users WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.email ?? null;
}

/** Tries a delivery gets: the first, then after 30 s, 1, 2, 4 and 8 minutes. */
export const MAX_ATTEMPTS = 6;
const backoffMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);
/** How long a claimed delivery is its sender's: a sender that dies leaves it to be tried again after. */
const LEASE_SECONDS = 120;

interface DeliveryRow {
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
 * Sends what the outbox holds. Each tick claims the due deliveries (moving `next_at` on, so two
 * senders never try one at once), posts each in its channel's shape through the SSRF guard, and marks
 * it sent on a 2xx; otherwise it is tried again with backoff, up to six times, and each try's error is
 * kept for the delivery log. A delivery carries its alert's id (`Shiplog-Delivery`, the message's
 * `id`): a receiver that got a try whose answer was lost knows the retry for the same alert.
 */
export function createAlertSender(context: ServiceContext<MonitorsEnv>, outbound: Outbound, mailer: Mailer) {
  const { pool, store, logger, config } = context;

  /** The email of a message: its title, its words and the link to the project. */
  async function email(row: DeliveryRow): Promise<string | null> {
    const to = await provenAddress(pool, row.user_id);
    if (!to) return 'No proven address';
    const { title, text, link } = row.message;
    await mailer.send({
      to,
      subject: title,
      text: [text, '', `Open it: ${link}`].join('\n'),
      html: `<p>${escapeHtml(text)}</p>\n<p><a href="${escapeHtml(link)}">Open it in Shiplog</a></p>`,
    });
    return null;
  }

  /** One try of one delivery; the row as it stands after. */
  async function attempt(row: DeliveryRow, channels: AlertChannels, now: Date, maxAttempts = MAX_ATTEMPTS) {
    const isEmail = row.channel_id === row.user_id;
    const channel = isEmail ? null : channels.get(row.channel_id);
    let error: string | null = null;
    if (isEmail) error = await email(row).catch((failure: unknown) => `Mail: ${failureCause(failure)}`);
    else if (!channel) error = 'The channel was removed';
    else {
      try {
        const request = deliveryRequest(channel, row.message, now);
        const answer = await outbound.post(request.url, request.headers, request.body);
        if (answer.status < 200 || answer.status > 299) error = `HTTP ${answer.status}`;
      } catch (failure) {
        error =
          failure instanceof Error && failure.name === 'RefusedAddressError' ? failure.message : failureCause(failure);
      }
    }
    const attempts = row.attempts + 1;
    const state = error === null ? 'sent' : (!channel && !isEmail) || attempts >= maxAttempts ? 'failed' : 'pending';
    const { rows } = await pool.query<DeliveryRow>(
      `UPDATE monitors.alert_deliveries SET state = $2, attempts = $3, last_error = $4,
         sent_at = CASE WHEN $2 = 'sent' THEN $5::timestamptz END, next_at = $6
       WHERE delivery_id = $1 RETURNING *`,
      [row.delivery_id, state, attempts, error, now, new Date(now.getTime() + backoffMs(attempts))],
    );
    if (error) logger.info({ deliveryId: row.delivery_id, attempts, error }, 'alert delivery failed');
    return rows[0]!;
  }

  /** Claims the deliveries due at `now` and tries each once. */
  async function tick(now: () => Date = () => new Date()): Promise<{ tried: number }> {
    const at = now();
    const { rows } = await pool.query<DeliveryRow>(
      `UPDATE monitors.alert_deliveries SET next_at = $1::timestamptz + make_interval(secs => $3)
       WHERE delivery_id IN (
         SELECT delivery_id FROM monitors.alert_deliveries WHERE state = 'pending' AND next_at <= $1
         ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [at, 100, LEASE_SECONDS],
    );
    const channelsOf = new Map<string, Promise<AlertChannels>>();
    await Promise.all(
      rows.map(async (row) => {
        if (!channelsOf.has(row.user_id))
          channelsOf.set(
            row.user_id,
            loadAggregate(store, alertChannelsStream(row.user_id), alertChannelsDecider).then((l) => l.state),
          );
        try {
          await attempt(row, await channelsOf.get(row.user_id)!, now());
        } catch (error) {
          logger.error({ err: error, deliveryId: row.delivery_id }, 'could not try an alert delivery');
        }
      }),
    );
    return { tried: rows.length };
  }

  const loop = repeating(() => tick().then(() => {}), config.CHECKER_INTERVAL_MS, logger, 'alert sender tick');
  return { tick, attempt, start: loop.start, stop: loop.stop };
}
