import { ConflictError, NotFoundError } from '@shiplog/errors';
import type { EventOf } from '@shiplog/events';
import type { AlertChannelKind } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';

/**
 * A user's alert channels, folded from their `alert-channels-<userId>` stream: where alerts go besides
 * email. The events are not published: a channel's URL and secret never leave this service.
 */
export type AlertChannelEvent = EventOf<'AlertChannelAdded'> | EventOf<'AlertChannelRemoved'>;

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

export type AlertChannelCommand =
  | {
      type: 'AddChannel';
      userId: string;
      channelId: string;
      kind: AlertChannelKind;
      name: string;
      url: string;
      secret: string | null;
      allowed: number;
    }
  | { type: 'RemoveChannel'; userId: string; channelId: string };

export class AlertChannelNotFoundError extends NotFoundError {
  constructor() {
    super('Alert channel not found', 'ALERT_CHANNEL_NOT_FOUND');
  }
}

export function evolveAlertChannels(state: AlertChannels, event: AlertChannelEvent): AlertChannels {
  const next = new Map(state);
  if (event.type === 'AlertChannelAdded') {
    const { channelId, kind, name, url, secret, at } = event.data;
    next.set(channelId, { id: channelId, kind, name, url, secret, createdAt: at });
  } else next.delete(event.data.channelId);
  return next;
}

export function decideAlertChannels(
  command: AlertChannelCommand,
  state: AlertChannels,
  now: Date,
): AlertChannelEvent[] {
  const at = now.toISOString();
  const { userId, channelId } = command;
  if (command.type === 'RemoveChannel') {
    if (!state.has(channelId)) throw new AlertChannelNotFoundError();
    return [{ type: 'AlertChannelRemoved', data: { channelId, userId, at } }];
  }
  if (state.has(channelId)) return [];
  if (state.size >= command.allowed)
    throw new ConflictError(
      `You can keep up to ${command.allowed} alert channels: remove one to add another`,
      'ALERT_CHANNEL_LIMIT_REACHED',
    );
  const { kind, name, url, secret } = command;
  return [{ type: 'AlertChannelAdded', data: { channelId, userId, kind, name, url, secret, at } }];
}

export const alertChannelsDecider: Decider<AlertChannels, AlertChannelCommand, AlertChannelEvent> = {
  initialState: () => new Map(),
  evolve: evolveAlertChannels,
  decide: decideAlertChannels,
};
