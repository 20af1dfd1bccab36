import { AppError } from '@shiplog/errors';
import { BOOST_MESSAGES, DAILY_LIMIT_EXCEEDED } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import {
  type DailyUsage,
  type DailyUsageEvent,
  dailyLimit,
  evolveDailyUsage,
  initialDailyUsage,
} from './daily-usage.ts';

export type DailyUsageCommand =
  /** A message is about to go to the model: counted first, so two racing for the last one cannot both pass. */
  | { type: 'CountMessage'; userId: string; date: string; unlimited: boolean }
  /** The model did not answer: the message is given back. */
  | { type: 'RefundMessage'; userId: string; date: string }
  | { type: 'GrantDailyBoost'; userId: string; date: string; via: 'request' | 'tool' };

export const DAILY_LIMIT_MESSAGE = 'Daily message limit reached. Upgrade to Pro for unlimited messages.';

export class DailyLimitExceededError extends AppError {
  constructor() {
    super(429, DAILY_LIMIT_EXCEEDED, DAILY_LIMIT_MESSAGE);
  }
}

export function decideDailyUsage(command: DailyUsageCommand, state: DailyUsage, now: Date): DailyUsageEvent[] {
  const at = now.toISOString();
  const { userId, date } = command;
  switch (command.type) {
    case 'CountMessage':
      if (!command.unlimited && state.messagesUsed >= dailyLimit(state)) throw new DailyLimitExceededError();
      return [{ type: 'ChatMessageCounted', data: { userId, date, at } }];
    case 'RefundMessage':
      if (state.messagesUsed === 0) return [];
      return [{ type: 'ChatMessageRefunded', data: { userId, date, reason: 'provider_failed', at } }];
    case 'GrantDailyBoost':
      // Once a day: a second ask grants nothing.
      if (state.boostUsed) return [];
      return [
        { type: 'DailyBoostGranted', data: { userId, date, extraMessages: BOOST_MESSAGES, via: command.via, at } },
      ];
  }
}

export const dailyUsageDecider: Decider<DailyUsage, DailyUsageCommand, DailyUsageEvent> = {
  initialState: initialDailyUsage,
  evolve: evolveDailyUsage,
  decide: decideDailyUsage,
};
