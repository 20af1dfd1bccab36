import { z } from 'zod';
import { CHAT_HISTORY_MAX, CHAT_MESSAGE_MAX } from './chat-values.ts';

const MESSAGE_REQUIRED = 'Message is required';

/** `POST /api/chat`: the question and the conversation so far (the client keeps it; the server stores none). */
export const chatRequestSchema = z.object({
  message: z
    .string({ error: MESSAGE_REQUIRED })
    .trim()
    .min(1, MESSAGE_REQUIRED)
    .max(CHAT_MESSAGE_MAX, `Message must be at most ${CHAT_MESSAGE_MAX} characters`),
  conversationHistory: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant'], { error: "Each history entry's role must be 'user' or 'assistant'" }),
        content: z
          .string({ error: "Each history entry's content must be text" })
          .max(CHAT_MESSAGE_MAX, `Each history entry must be at most ${CHAT_MESSAGE_MAX} characters`),
      }),
      { error: 'Conversation history must be a list of { role, content }' },
    )
    .max(CHAT_HISTORY_MAX, `Conversation history must hold at most ${CHAT_HISTORY_MAX} messages`)
    .optional()
    .default([]),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatHistoryEntry = ChatRequest['conversationHistory'][number];
