import {
  type ConsumerDefinition,
  loadAggregate,
  type Mailer,
  onEach,
  type ReceivedEvent,
  type ServiceContext,
} from '@shiplog/service-kit';
import { alertChannelsStream } from '../../alert-channel/alert-channel.ts';
import { type AlertEvent, alertEventTypes } from '../../alert-channel/compose.ts';
import { alertChannelsDecider } from '../../alert-channel/decide.ts';
import { alertMessage } from '../../alert-channel/webhooks.ts';
import type { MonitorsEnv } from '../../env.ts';
import { alertRecipients, knownProjects, provenAddress } from '../../read-models/known-projects/index.ts';
import { alertDeliveries, EMAIL_CHANNEL } from './deliveries.ts';

/**
 * The alert outbox: each incident that opens or recovers, each expiry warning and each failed workflow
 * run on a repository's default branch, becomes a delivery
 * to its owner's proven email address (when mail is configured) and to every alert channel they keep
 * (a team project's: its workspace's channels, or its maker's while the workspace has none)
 * (alert_deliveries, deliveries.ts), which the sender (timers/send-alerts) tries until sent. In the
 * consumer's transaction, and one per channel and event: a redelivered event adds nothing, and an
 * alert whose delivery was written is never lost to a restart. It reads the channels' stream (their URLs are never published),
 * so it is a reaction, not a projection.
 */
export function alertOutboxReaction(
  context: ServiceContext<MonitorsEnv>,
  mailer: Pick<Mailer, 'sends'>,
): ConsumerDefinition {
  const { store, config } = context;
  return {
    name: 'alert-outbox',
    sources: ['monitors'],
    handlers: onEach(alertEventTypes, async (event: ReceivedEvent<AlertEvent['type']>, tx, { defer }) => {
      // An incident ended by pausing or removing its monitor, or by a refused check, did not recover:
      // nobody is told it is up again.
      if (event.type === 'IncidentClosed' && event.data.ending !== 'recovered') return;
      const { userId, projectId } = event.data;
      // Read in the batch's transaction, as the reaction's other reads: not a second connection while it holds one.
      const channelsOf = async (owner: string) =>
        (await loadAggregate(store, alertChannelsStream(owner), alertChannelsDecider, tx)).state;
      // A team project's alerts go to its workspace's channels; to its maker's own while it has none.
      const workspaceId = (await knownProjects.find(tx, projectId))?.workspaceId ?? null;
      const team = workspaceId ? await channelsOf(workspaceId) : null;
      const [owner, channels] = team && team.size > 0 ? [workspaceId!, team] : [userId, await channelsOf(userId)];
      const message = alertMessage(event as AlertEvent & { id: string }, config.APP_URL);
      const deliver = (channelId: string, channelName: string, to: string) =>
        alertDeliveries.queue(defer, { alertId: event.id, channelId, userId: to, channelName, message });
      // Email goes only to an address its owner proved (decision 030); its channel id is theirs. A team
      // project's goes to every member who did not turn the workspace's alert emails off.
      const mailed = workspaceId
        ? await alertRecipients(tx, workspaceId)
        : (await provenAddress(tx, userId))
          ? [userId]
          : [];
      if (mailer.sends) for (const member of mailed) deliver(member, EMAIL_CHANNEL, member);
      for (const channel of channels.values()) deliver(channel.id, channel.name, owner);
    }),
  };
}
