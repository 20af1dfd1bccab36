import { publishedEventTypesOf } from '@shiplog/events';
import { deterministicId, onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import {
  type DailyUsage,
  type DailyUsageEvent,
  evolveDailyUsage,
  initialDailyUsage,
} from '../../daily-usage/daily-usage.ts';

/**
 * `daily_chat_usage` (spec/account.md §3): one row per user and UTC day, each event applied with the
 * aggregate's own `evolve`. The row's id derives from the user and the day, so a rebuild makes the
 * same rows. It is the usage as stored, for reports and operators (who used the assistant, how much):
 * the API itself decides and answers from the day's stream, which is always current.
 */
export const dailyChatUsageProjection: ProjectionDefinition = {
  name: 'daily-chat-usage',
  sources: ['chat'],
  tables: ['daily_chat_usage'],
  handlers: onEach(publishedEventTypesOf('chat'), async (event, tx) => {
    const { userId, date } = event.data;
    const { rows } = await tx.query<{ messages_used: number; boost_used: boolean }>(
      'SELECT messages_used, boost_used FROM chat.daily_chat_usage WHERE user_id = $1 AND date = $2 FOR UPDATE',
      [userId, date],
    );
    const before: DailyUsage = rows[0]
      ? { messagesUsed: rows[0].messages_used, boostUsed: rows[0].boost_used }
      : initialDailyUsage();
    const after = evolveDailyUsage(before, event satisfies DailyUsageEvent);
    await tx.query(
      `INSERT INTO chat.daily_chat_usage (id, user_id, date, messages_used, boost_used, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (user_id, date) DO UPDATE
         SET messages_used = EXCLUDED.messages_used, boost_used = EXCLUDED.boost_used, updated_at = EXCLUDED.updated_at`,
      [
        deterministicId(`daily-chat-usage:${userId}:${date}`),
        userId,
        date,
        after.messagesUsed,
        after.boostUsed,
        event.data.at,
      ],
    );
  }),
};
