import type { EventOf } from '@shiplog/events';
import { BOOST_MESSAGES, type ChatUsage, FREE_DAILY_MESSAGES } from '@shiplog/schemas';

/**
 * A user's chat messages on one UTC day, folded from its `chat-usage-<userId>-<date>` stream: a new
 * day is a new, empty stream, so the count starts again at midnight UTC without a job to reset it.
 */
export type DailyUsageEvent =
  | EventOf<'ChatMessageCounted'>
  | EventOf<'ChatMessageRefunded'>
  | EventOf<'DailyBoostGranted'>;

export interface DailyUsage {
  messagesUsed: number;
  boostUsed: boolean;
}

export const initialDailyUsage = (): DailyUsage => ({ messagesUsed: 0, boostUsed: false });

export function evolveDailyUsage(state: DailyUsage, event: DailyUsageEvent): DailyUsage {
  switch (event.type) {
    case 'ChatMessageCounted':
      return { ...state, messagesUsed: state.messagesUsed + 1 };
    case 'ChatMessageRefunded':
      return { ...state, messagesUsed: Math.max(0, state.messagesUsed - 1) };
    case 'DailyBoostGranted':
      return { ...state, boostUsed: true };
  }
}

export const usageStream = (userId: string, date: string) => `chat-usage-${userId}-${date}`;

/** The usage day of a moment: its UTC date, `YYYY-MM-DD`. */
export const usageDate = (now: Date) => now.toISOString().slice(0, 10);

/** A free user's cap today: 3, or 12 once the boost is granted. */
export const dailyLimit = (state: DailyUsage) => FREE_DAILY_MESSAGES + (state.boostUsed ? BOOST_MESSAGES : 0);

/** The usage as the client reads it: pro users (`unlimited`) have no cap and no boost to ask for. */
export function usageView(state: DailyUsage, unlimited: boolean): ChatUsage {
  if (unlimited)
    return { messagesRemaining: null, boostAvailable: false, boostUsed: state.boostUsed, totalLimit: null };
  const limit = dailyLimit(state);
  return {
    messagesRemaining: Math.max(0, limit - state.messagesUsed),
    boostAvailable: !state.boostUsed,
    boostUsed: state.boostUsed,
    totalLimit: limit,
  };
}
