import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';

/** A UTC calendar day, `YYYY-MM-DD`. */
const usageDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

// chat — `chat-usage-<userId>-<YYYY-MM-DD>` streams: a user's messages on one UTC day. They count
// messages; the text of a conversation is never stored.
export const chatEvents = {
  ChatMessageCounted: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, date: usageDate, at: isoDate }),
  }),
  /** The model failed to answer: the message is given back. */
  ChatMessageRefunded: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, date: usageDate, reason: z.enum(['provider_failed']), at: isoDate }),
  }),
  DailyBoostGranted: event({
    owner: 'chat',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      date: usageDate,
      extraMessages: z.number().int().positive(),
      /** How it was asked for: a plain request the service recognised, or the model's tool call. */
      via: z.enum(['request', 'tool']),
      at: isoDate,
    }),
  }),
} as const satisfies Record<string, { owner: 'chat' }>;
