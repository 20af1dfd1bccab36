import { failureCause, type Outbound } from '@shiplog/outbound';
import { MAX_ALERT_CHANNELS } from '@shiplog/schemas';
import { escapeHtml, loadAggregate, type Mailer, repeating, type ServiceContext } from '@shiplog/service-kit';
import { type AlertChannels, alertChannelsStream } from '../../alert-channel/alert-channel.ts';
import { alertChannelsDecider } from '../../alert-channel/decide.ts';
import { deliveryRequest } from '../../alert-channel/webhooks.ts';
import type { MonitorsEnv } from '../../env.ts';
import { alertDeliveries, type DeliveryRow } from '../../reactions/alert-outbox/deliveries.ts';
import { provenAddress } from '../../read-models/known-projects/index.ts';
import { InFlight } from '../run-checks/in-flight.ts';

/** Tries a delivery gets: the first, then after 30 s, 1, 2, 4 and 8 minutes. */
export const MAX_ATTEMPTS = 6;
const backoffMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);
/** How long a claimed delivery is its sender's: a sender that dies leaves it to be tried again after. */
const LEASE_SECONDS = 120;

/**
 * Sends what the outbox (reactions/alert-outbox) holds. Each tick claims the due deliveries (moving `next_at` on, so two
 * senders never try one at once; as many as `CHECKER_CONCURRENCY` under way, and one alert's worth of
 * one account), posts each in its channel's shape through the SSRF guard, and marks
 * it sent on a 2xx; otherwise it is tried again with backoff, up to six times, and each try's error is
 * kept for the delivery log. A delivery carries its alert's id (`Shiplog-Delivery`, the message's
 * `id`): a receiver that got a try whose answer was lost knows the retry for the same alert.
 */
export function createAlertSender(
  context: ServiceContext<MonitorsEnv>,
  outbound: Outbound,
  mailer: Mailer,
  options: { now?: () => Date } = {},
) {
  const { pool, store, logger, config } = context;
  const clock = options.now ?? context.now;
  // One account holds at most one alert's worth of tries at once: its email and every channel it may keep.
  const inFlight = new InFlight({ capacity: config.CHECKER_CONCURRENCY, perUser: MAX_ALERT_CHANNELS + 1 });

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
        const answer = await outbound.post(request.url, request.headers, request.body, inFlight.signal);
        if (answer.status < 200 || answer.status > 299) error = `HTTP ${answer.status}`;
      } catch (failure) {
        error =
          failure instanceof Error && failure.name === 'RefusedAddressError' ? failure.message : failureCause(failure);
      }
    }
    // Stopped mid-try: nothing is recorded, and the claim runs out for another sender to take it.
    if (inFlight.signal.aborted) return row;
    const attempts = row.attempts + 1;
    const state = error === null ? 'sent' : (!channel && !isEmail) || attempts >= maxAttempts ? 'failed' : 'pending';
    const after = await alertDeliveries.tried(pool, {
      deliveryId: row.delivery_id,
      state,
      attempts,
      error,
      at: now,
      nextAt: new Date(now.getTime() + backoffMs(attempts)),
    });
    if (error) logger.info({ deliveryId: row.delivery_id, attempts, error }, 'alert delivery failed');
    return after;
  }

  /**
   * Claims the deliveries due at `now`, as many as there is room for and at most one alert's worth of
   * one account at once, and starts trying each; `done` settles when those tries have ended.
   */
  async function dispatch(now: () => Date = clock): Promise<{ tried: number; done: Promise<unknown> }> {
    const room = inFlight.room();
    if (room.total <= 0) return { tried: 0, done: Promise.resolve() };
    const rows = await alertDeliveries.claim(pool, {
      now: now(),
      limit: room.total,
      leaseSeconds: LEASE_SECONDS,
      busyUsers: room.busyUsers,
      busyCounts: room.busyCounts,
      perUser: room.perUser,
    });
    const channelsOf = new Map<string, Promise<AlertChannels>>();
    const channels = (userId: string) => {
      if (!channelsOf.has(userId))
        channelsOf.set(
          userId,
          loadAggregate(store, alertChannelsStream(userId), alertChannelsDecider).then((l) => l.state),
        );
      return channelsOf.get(userId)!;
    };
    const done = Promise.all(
      rows.map((row) =>
        inFlight.start(
          row.user_id,
          async () => attempt(row, await channels(row.user_id), now()),
          (error) => logger.error({ err: error, deliveryId: row.delivery_id }, 'could not try an alert delivery'),
        ),
      ),
    );
    return { tried: rows.length, done };
  }

  /** Claims the deliveries due at `now` and tries each once, waiting for those tries (a test's step with its clock). */
  async function tick(now: () => Date = clock): Promise<{ tried: number }> {
    const { tried, done } = await dispatch(now);
    await done;
    return { tried };
  }

  // The loop does not wait for the tries it started: a webhook that never answers holds its own
  // account's places until its timeout, and every other account's alerts go out at the next tick.
  const loop = repeating(() => dispatch(), config.CHECKER_INTERVAL_MS, logger, 'alert sender tick');
  return {
    tick,
    attempt,
    start: loop.start,
    async stop() {
      await loop.stop();
      await inFlight.stop();
    },
  };
}
