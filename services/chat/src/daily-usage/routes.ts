import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** The day's usage (`ChatUsage`): a pro user's remaining messages and limit are null (no cap). */
const chatUsageView = z.object({
  messagesRemaining: z.number().nullable(),
  boostAvailable: z.boolean(),
  boostUsed: z.boolean(),
  totalLimit: z.number().nullable(),
});

/** The day's chat usage (answered in `api.ts`). */
export const dailyUsageRoutes = declareRoutes({
  'GET /chat/usage': {
    tag: 'Assistant',
    summary: 'Today’s messages and the daily limit',
    access: 'user',
    answer: chatUsageView,
  },
});
