import type { EventOf } from '@shiplog/events';

/** A user's message to the administrators, folded from its `contact-<id>` stream. */
export type ContactMessageEvent = EventOf<'ContactMessageSent'> | EventOf<'ContactMessageHandled'>;

export type ContactMessage =
  | { status: 'none' }
  | { status: 'sent'; messageId: string; userId: string; handled: boolean };

export const initialContactMessage = (): ContactMessage => ({ status: 'none' });

export function evolveContactMessage(state: ContactMessage, event: ContactMessageEvent): ContactMessage {
  switch (event.type) {
    case 'ContactMessageSent':
      return { status: 'sent', messageId: event.data.messageId, userId: event.data.userId, handled: false };
    case 'ContactMessageHandled':
      return state.status === 'sent' ? { ...state, handled: event.data.handled } : state;
  }
}

export const contactMessageStream = (messageId: string) => `contact-${messageId}`;
