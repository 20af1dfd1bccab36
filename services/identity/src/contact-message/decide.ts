import { NotFoundError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import {
  type ContactMessage,
  type ContactMessageEvent,
  evolveContactMessage,
  initialContactMessage,
} from './contact-message.ts';

export type ContactMessageCommand =
  | {
      type: 'SendContactMessage';
      messageId: string;
      userId: string;
      username: string;
      subject: string;
      message: string;
    }
  | { type: 'MarkContactMessageHandled'; handled: boolean; adminId: string };

export function decideContactMessage(
  command: ContactMessageCommand,
  state: ContactMessage,
  now: Date,
): ContactMessageEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'SendContactMessage': {
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ContactMessageSent', data: { ...data, at } }];
    }
    case 'MarkContactMessageHandled':
      // A message whose sender deleted their account went with it (its events are shredded).
      if (state.status !== 'sent') throw new NotFoundError('Message not found', 'MESSAGE_NOT_FOUND');
      if (state.handled === command.handled) return [];
      return [
        {
          type: 'ContactMessageHandled',
          data: { messageId: state.messageId, handled: command.handled, handledBy: command.adminId, at },
        },
      ];
  }
}

export const contactMessageDecider: Decider<ContactMessage, ContactMessageCommand, ContactMessageEvent> = {
  initialState: initialContactMessage,
  evolve: evolveContactMessage,
  decide: decideContactMessage,
};
