import { describe, expect, it } from 'vitest';
import type { ContactMessageCommand } from './decide.ts';
import { contactMessageDecider } from './decide.ts';

const now = new Date('2026-11-26T10:00:00.000Z');
const send: ContactMessageCommand = {
  type: 'SendContactMessage',
  messageId: '0193a1b2-0000-7000-8000-000000000020',
  userId: '0193a1b2-0000-7000-8000-000000000002',
  username: 'ada',
  subject: 'Billing question',
  message: 'Can I pay yearly?',
};
const adminId = '0193a1b2-0000-7000-8000-000000000001';

const apply = (state: ReturnType<typeof contactMessageDecider.initialState>, command: ContactMessageCommand) =>
  contactMessageDecider.decide(command, state, now).reduce(contactMessageDecider.evolve, state);

describe('contact message decide', () => {
  it('sends once, with the sender and the time', () => {
    const [sent] = contactMessageDecider.decide(send, contactMessageDecider.initialState(), now);
    expect(sent).toEqual({
      type: 'ContactMessageSent',
      data: {
        messageId: send.messageId,
        userId: send.userId,
        username: 'ada',
        subject: 'Billing question',
        message: 'Can I pay yearly?',
        at: now.toISOString(),
      },
    });
    expect(contactMessageDecider.decide(send, apply(contactMessageDecider.initialState(), send), now)).toEqual([]);
  });

  it('marks it handled and back, recording only changes', () => {
    let state = apply(contactMessageDecider.initialState(), send);
    const mark = (handled: boolean) =>
      contactMessageDecider.decide({ type: 'MarkContactMessageHandled', handled, adminId }, state, now);
    expect(mark(false)).toEqual([]);
    expect(mark(true).map((e) => e.type)).toEqual(['ContactMessageHandled']);
    state = apply(state, { type: 'MarkContactMessageHandled', handled: true, adminId });
    expect(mark(true)).toEqual([]);
    expect(mark(false)).toEqual([
      {
        type: 'ContactMessageHandled',
        data: { messageId: send.messageId, handled: false, handledBy: adminId, at: now.toISOString() },
      },
    ]);
  });

  it('answers 404 for a message that is not there (never sent, or gone with its sender)', () => {
    expect(() =>
      contactMessageDecider.decide(
        { type: 'MarkContactMessageHandled', handled: true, adminId },
        contactMessageDecider.initialState(),
        now,
      ),
    ).toThrow(expect.objectContaining({ status: 404, code: 'MESSAGE_NOT_FOUND' }));
  });
});
