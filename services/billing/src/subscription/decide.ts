import { NotFoundError } from '@shiplog/errors';
import type { SubscriptionStatus } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import { evolveSubscription, initialSubscription, type Subscription, type SubscriptionEvent } from './subscription.ts';

export const TRIAL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type SubscriptionCommand =
  | { type: 'StartTrial'; userId: string; days: number }
  | { type: 'ChangeStatus'; status: SubscriptionStatus; changedBy: string | null; reason: string };

export function decideSubscription(command: SubscriptionCommand, state: Subscription, now: Date): SubscriptionEvent[] {
  switch (command.type) {
    case 'StartTrial':
      // A trial starts once per account; a repeated request changes nothing.
      if (state.status !== 'none') return [];
      return [
        {
          type: 'TrialStarted',
          data: {
            userId: command.userId,
            trialStartDate: now.toISOString(),
            trialEndDate: new Date(now.getTime() + command.days * DAY_MS).toISOString(),
          },
        },
      ];
    case 'ChangeStatus':
      if (state.status === 'none') throw new NotFoundError('User not found', 'USER_NOT_FOUND');
      if (state.status === command.status) return [];
      return [
        {
          type: 'SubscriptionStatusChanged',
          data: {
            userId: state.userId,
            from: state.status,
            to: command.status,
            changedBy: command.changedBy,
            reason: command.reason,
          },
        },
      ];
  }
}

export const subscriptionDecider: Decider<Subscription, SubscriptionCommand, SubscriptionEvent> = {
  initialState: initialSubscription,
  evolve: evolveSubscription,
  decide: decideSubscription,
};
