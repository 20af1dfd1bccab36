import { chatRequestSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The assistant (answered in `api.ts`). */
export const assistantRoutes = declareRoutes({
  // With `Accept: text/event-stream` its answer streams through as it is written.
  'POST /chat': {
    tag: 'Assistant',
    summary: 'Ask the assistant',
    description: 'With `Accept: text/event-stream` the answer streams as it is written.',
    access: 'user',
    limit: 'chat',
    timeoutMs: 120_000,
    body: chatRequestSchema,
    // `ChatResponse`; a streamed answer's last event (`done`) carries the day's usage besides.
    answer: z.object({ message: z.string(), boostGranted: z.boolean() }),
  },
});
