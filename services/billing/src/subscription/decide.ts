import { NotFoundError } from '@shiplog/errors';
import { isSubscribed, type SubscriptionStatus } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import {
  evolveSubscription,
  initialSubscription,
  type StripeSnapshot,
  type Subscription,
  type SubscriptionEvent,
} from './subscription.ts';

export const TRIAL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type SubscriptionCommand =
  | { type: 'StartTrial'; userId: string; days: number }
  | { type: 'ChangeStatus'; status: SubscriptionStatus; changedBy: string | null; reason: string }
  | { type: 'ExtendTrial'; days: number; extendedBy: string }
  | { type: 'RecordStripeCustomer'; customerId: string }
  | {
      /** One Stripe event's effect: the subscription re-read from Stripe, and the invoice it was about. */
      type: 'ApplyStripeEvent';
      stripeEventId: string;
      subscription: StripeSnapshot | null;
      invoice: { invoiceId: string; outcome: 'paid' | 'failed'; amount: number | null; currency: string | null } | null;
    };

/** Stripe's subscription statuses in ours (spec/account.md §4 has no paused or incomplete_expired). */
export function statusFromStripe(stripeStatus: string): SubscriptionStatus {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'unpaid':
    case 'canceled':
    case 'incomplete':
      return stripeStatus;
    case 'incomplete_expired':
      return 'canceled';
    case 'paused':
      // A Stripe trial that ended without a payment method: no access until the customer pays.
      return 'unpaid';
    default:
      return 'incomplete';
  }
}

const ended = (stripeStatus: string) => stripeStatus === 'canceled' || stripeStatus === 'incomplete_expired';

const userNotFound = () => new NotFoundError('User not found', 'USER_NOT_FOUND');

export function decideSubscription(command: SubscriptionCommand, state: Subscription, now: Date): SubscriptionEvent[] {
  const at = now.toISOString();
  if (command.type === 'StartTrial') {
    // A trial starts once per account; a repeated request changes nothing.
    if (state.status !== 'none') return [];
    return [
      {
        type: 'TrialStarted',
        data: {
          userId: command.userId,
          trialStartDate: at,
          trialEndDate: new Date(now.getTime() + command.days * DAY_MS).toISOString(),
        },
      },
    ];
  }
  if (state.status === 'none') throw userNotFound();
  const { userId } = state;
  const statusChange = (to: SubscriptionStatus, changedBy: string | null, reason: string): SubscriptionEvent[] =>
    state.status === to
      ? []
      : [{ type: 'SubscriptionStatusChanged', data: { userId, from: state.status, to, changedBy, reason } }];

  switch (command.type) {
    case 'ChangeStatus':
      return statusChange(command.status, command.changedBy, command.reason);
    case 'ExtendTrial': {
      // From the later of now and the current end: days added to a trial that had ended count from today.
      const from = Math.max(now.getTime(), new Date(state.trialEndDate).getTime());
      const trialEndDate = new Date(from + command.days * DAY_MS).toISOString();
      return [
        {
          type: 'TrialExtended',
          data: { userId, days: command.days, trialEndDate, extendedBy: command.extendedBy, at },
        },
        // A paying subscriber keeps their plan; anyone else is on trial again.
        ...(isSubscribed(state.status) ? [] : statusChange('trialing', command.extendedBy, 'trial_extended')),
      ];
    }
    case 'RecordStripeCustomer':
      if (state.customerId) return [];
      return [{ type: 'StripeCustomerCreated', data: { userId, customerId: command.customerId, at } }];
    case 'ApplyStripeEvent': {
      if (state.stripeEvents.includes(command.stripeEventId)) return [];
      const events: SubscriptionEvent[] = [];
      const snapshot = command.subscription;
      // An ended subscription that is not the current one (a late `deleted` of an older subscription)
      // must not override the one the user pays for now.
      const stale =
        snapshot !== null &&
        state.stripe !== null &&
        snapshot.subscriptionId !== state.stripe.subscriptionId &&
        ended(snapshot.stripeStatus) &&
        !ended(state.stripe.stripeStatus);
      if (snapshot && !stale) {
        // Recorded even when nothing changed: the event id must be on record, so that replaying it
        // later (after an admin's change, say) does nothing.
        events.push({
          type: 'StripeSubscriptionSynced',
          data: { userId, stripeEventId: command.stripeEventId, ...snapshot, at },
        });
        events.push(...statusChange(statusFromStripe(snapshot.stripeStatus), null, 'stripe'));
      }
      if (command.invoice) {
        events.push({
          type: 'InvoicePaymentRecorded',
          data: { userId, stripeEventId: command.stripeEventId, ...command.invoice, at },
        });
      }
      return events;
    }
  }
}

export const subscriptionDecider: Decider<Subscription, SubscriptionCommand, SubscriptionEvent> = {
  initialState: initialSubscription,
  evolve: evolveSubscription,
  decide: decideSubscription,
};
