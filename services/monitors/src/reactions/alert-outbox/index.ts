import { randomUUID } from 'node:crypto';
import {
  type ConsumerDefinition,
  loadAggregate,
  onEach,
  type ReceivedEvent,
  type ServiceContext,
} from '@shiplog/service-kit';
import { alertChannelsStream } from '../../alert-channel/alert-channel.ts';
import type { AlertEvent } from '../../alert-channel/compose.ts';
import { alertChannelsDecider } from '../../alert-channel/decide.ts';
import { alertMessage } from '../../alert-channel/webhooks.ts';
import type { MonitorsEnv } from '../../env.ts';

/**
 * The alert outbox: each incident that opens or closes, and each certificate warning, becomes a
 * delivery to every alert channel its owner keeps (alert_deliveries), which the sender (sender.ts)
 * tries until sent. In the consumer's transaction, and one per channel and event: a redelivered event
 * adds nothing, and an alert whose delivery was written is never lost to a restart. It reads the
 * channels' stream (their URLs are never published), so it is a reaction, not a projection.
 */
export function alertOutboxReaction(context: ServiceContext<MonitorsEnv>): ConsumerDefinition {
  const { store, config } = context;
  return {
    name: 'alert-outbox',
    sources: ['monitors'],
    handlers: onEach(
      ['IncidentOpened', 'IncidentClosed', 'ExpiryApproaching'] as const,
      async (event: ReceivedEvent<AlertEvent['type']>, _tx, { defer }) => {
        const { state: channels } = await loadAggregate(
          store,
          alertChannelsStream(event.data.userId),
          alertChannelsDecider,
        );
        const message = alertMessage(event as AlertEvent & { id: string }, config.APP_URL);
        for (const channel of channels.values())
          defer(
            `INSERT INTO monitors.alert_deliveries (delivery_id, alert_id, channel_id, user_id, channel_name, kind, message, next_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (channel_id, alert_id) DO NOTHING`,
            [randomUUID(), event.id, channel.id, event.data.userId, channel.name, message.type, message, message.at],
          );
      },
    ),
  };
}
