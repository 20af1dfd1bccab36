import { ConflictError, NotFoundError } from '@shiplog/errors';
import type { AlertChannelKind } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import { type AlertChannelEvent, type AlertChannels, evolveAlertChannels } from './alert-channel.ts';

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
