import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from './chat.ts';
import { asksForMoreMessages } from './chat-values.ts';

describe('asksForMoreMessages', () => {
  it.each([
    'can I have more messages?',
    'Can I have more messages',
    'I need more messages',
    'give me extra messages',
    'Could you give me some additional messages please?',
    'I’d like more messages today',
    'please grant me more messages',
    'Can I get my daily boost?',
    'give me the boost',
    'I want 9 more messages',
    'can i get extra chats',
    'Any chance I could get more questions today?',
    'unlock more messages please',
  ])('hears a request for more messages in %j', (text) => {
    expect(asksForMoreMessages(text)).toBe(true);
  });

  it.each([
    'how many messages do I have left?',
    'How many more messages can I send today?',
    "I don't need more messages, thanks",
    'the more messages I send, the slower it gets',
    'summarise my messages',
    'write a message to my users about the outage',
    'I need to send more messages to my customers',
    'What is my boost status?',
    'how do I boost my site performance?',
    'list my projects',
    'more',
    '',
  ])('does not hear one in %j', (text) => {
    expect(asksForMoreMessages(text)).toBe(false);
  });
});

describe('chatRequestSchema', () => {
  it('trims the message, defaults the history, and refuses blank, oversized or malformed input', () => {
    expect(chatRequestSchema.parse({ message: '  hi  ' })).toEqual({ message: 'hi', conversationHistory: [] });
    const errors = (input: unknown) => chatRequestSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(errors({ message: '   ' })).toEqual(['Message is required']);
    expect(errors({})).toEqual(['Message is required']);
    expect(errors({ message: 'x'.repeat(4001) })).toEqual(['Message must be at most 4000 characters']);
    expect(errors({ message: 'hi', conversationHistory: 'nope' })).toEqual([
      'Conversation history must be a list of { role, content }',
    ]);
    expect(errors({ message: 'hi', conversationHistory: [{ role: 'system', content: 'x' }] })).toEqual([
      "Each history entry's role must be 'user' or 'assistant'",
    ]);
    expect(
      errors({
        message: 'hi',
        conversationHistory: Array.from({ length: 101 }, () => ({ role: 'user', content: 'x' })),
      }),
    ).toEqual(['Conversation history must hold at most 100 messages']);
  });
});
