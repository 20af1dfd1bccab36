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
      /** The owner is a team workspace: its audit log is told (TeamAlertChannelChanged). */
      team?: boolean;
    }
  | { type: 'RemoveChannel'; userId: string; channelId: string; team?: boolean };

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
    const channel = state.get(channelId);
    if (!channel) throw new AlertChannelNotFoundError();
    return [
      { type: 'AlertChannelRemoved', data: { channelId, userId, at } },
      ...(command.team
        ? [
            {
              type: 'TeamAlertChannelChanged' as const,
              data: {
                workspaceId: userId,
                channelId,
                name: channel.name,
                kind: channel.kind,
                change: 'removed' as const,
                at,
              },
            },
          ]
        : []),
    ];
  }
  if (state.has(channelId)) return [];
  if (state.size >= command.allowed)
    throw new ConflictError(
      `You can keep up to ${command.allowed} alert channels: remove one to add another`,
      'ALERT_CHANNEL_LIMIT_REACHED',
    );
  const { kind, name, url, secret } = command;
  return [
    { type: 'AlertChannelAdded', data: { channelId, userId, kind, name, url, secret, at } },
    ...(command.team
      ? [
          {
            type: 'TeamAlertChannelChanged' as const,
            data: { workspaceId: userId, channelId, name, kind, change: 'added' as const, at },
          },
        ]
      : []),
  ];
}

export const alertChannelsDecider: Decider<AlertChannels, AlertChannelCommand, AlertChannelEvent> = {
  initialState: () => new Map(),
  evolve: evolveAlertChannels,
  decide: decideAlertChannels,
};
