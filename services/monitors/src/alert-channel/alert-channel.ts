import type { EventOf } from '@shiplog/events';
import type { AlertChannelKind } from '@shiplog/schemas';

/**
 * A user's alert channels, folded from their `alert-channels-<userId>` stream: where alerts go besides
 * email. The events are not published: a channel's URL and secret never leave this service.
 */
export type AlertChannelEvent =
  | EventOf<'AlertChannelAdded'>
  | EventOf<'AlertChannelRemoved'>
  | EventOf<'TeamAlertChannelChanged'>;

export interface AlertChannel {
  id: string;
  kind: AlertChannelKind;
  name: string;
  url: string;
  /** A generic webhook's signing secret (HMAC-SHA256); null for the others. */
  secret: string | null;
  createdAt: string;
}

export type AlertChannels = Map<string, AlertChannel>;

export const alertChannelsStream = (userId: string) => `alert-channels-${userId}`;

export function evolveAlertChannels(state: AlertChannels, event: AlertChannelEvent): AlertChannels {
  // Told the workspace's audit log of it: the channel itself comes and goes with the two others.
  if (event.type === 'TeamAlertChannelChanged') return state;
  const next = new Map(state);
  if (event.type === 'AlertChannelAdded') {
    const { channelId, kind, name, url, secret, at } = event.data;
    next.set(channelId, { id: channelId, kind, name, url, secret, createdAt: at });
  } else next.delete(event.data.channelId);
  return next;
}
