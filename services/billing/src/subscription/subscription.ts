import type { EventOf } from '@shiplog/events';
import type { SubscriptionStatus } from '@shiplog/schemas';

/** A user's subscription, folded from its `subscription-<userId>` stream. */
export type SubscriptionEvent = EventOf<'TrialStarted'> | EventOf<'SubscriptionStatusChanged'>;

export type Subscription =
  | { status: 'none' }
  | { status: SubscriptionStatus; userId: string; trialStartDate: string; trialEndDate: string };

export const initialSubscription = (): Subscription => ({ status: 'none' });

export function evolveSubscription(state: Subscription, event: SubscriptionEvent): Subscription {
  switch (event.type) {
    case 'TrialStarted':
      return state.status === 'none'
        ? {
            status: 'trialing',
            userId: event.data.userId,
            trialStartDate: event.data.trialStartDate,
            trialEndDate: event.data.trialEndDate,
          }
        : state;
    case 'SubscriptionStatusChanged':
      return state.status === 'none' ? state : { ...state, status: event.data.to };
  }
}

export const subscriptionStream = (userId: string) => `subscription-${userId}`;
