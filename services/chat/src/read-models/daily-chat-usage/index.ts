import { publishedEventTypesOf } from '@shiplog/events';
import { deterministicId, onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import { type DailyUsageEvent, evolveDailyUsage, initialDailyUsage } from '../../daily-usage/daily-usage.ts';

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
  handlers: onEach(publishedEventTypesOf('chat'), async (event, _tx, batch) => {
    const { userId, date } = event.data;
    // What the event does, as the aggregate's `evolve` says, applied to the row in the upsert itself:
    // its change to the count (evolved from 1, so a refund's floor at 0 is applied by the SQL, against
    // the row's real count) and whether it uses the boost. No read first: one deferred write per event,
    // sent with the batch's commit.
    const counted = evolveDailyUsage({ messagesUsed: 1, boostUsed: false }, event satisfies DailyUsageEvent);
    const fresh = evolveDailyUsage(initialDailyUsage(), event);
    batch.defer(
      `INSERT INTO chat.daily_chat_usage (id, user_id, date, messages_used, boost_used, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $7, $7)
       ON CONFLICT (user_id, date) DO UPDATE
         SET messages_used = GREATEST(0, daily_chat_usage.messages_used + $6),
             boost_used = daily_chat_usage.boost_used OR EXCLUDED.boost_used,
             updated_at = EXCLUDED.updated_at`,
      [
        deterministicId(`daily-chat-usage:${userId}:${date}`),
        userId,
        date,
        fresh.messagesUsed,
        fresh.boostUsed,
        counted.messagesUsed - 1,
        event.data.at,
      ],
    );
  }),
};
