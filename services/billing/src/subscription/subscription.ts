import type { EventOf } from '@shiplog/events';
import { isSubscribed, type PlanInterval, type SubscriptionStatus, type SubscriptionView } from '@shiplog/schemas';

/** A user's subscription, folded from its `subscription-<userId>` stream. */
export type SubscriptionEvent =
  | EventOf<'TrialStarted'>
  | EventOf<'SubscriptionStatusChanged'>
  | EventOf<'TrialExtended'>
  | EventOf<'StripeCustomerCreated'>
  | EventOf<'StripeSubscriptionSynced'>
  | EventOf<'InvoicePaymentRecorded'>;

/** The Stripe subscription as last re-read from Stripe. */
export interface StripeSnapshot {
  customerId: string;
  subscriptionId: string;
  stripeStatus: string;
  priceId: string | null;
  plan: PlanInterval | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

export type Subscription =
  | { status: 'none' }
  | {
      status: SubscriptionStatus;
      userId: string;
      trialStartDate: string;
      trialEndDate: string;
      customerId: string | null;
      stripe: StripeSnapshot | null;
      lastPaymentDate: string | null;
      /** Stripe event ids already applied: a retried or replayed delivery changes nothing. */
      stripeEvents: string[];
    };

export type KnownSubscription = Exclude<Subscription, { status: 'none' }>;

export const initialSubscription = (): Subscription => ({ status: 'none' });

export function evolveSubscription(state: Subscription, event: SubscriptionEvent): Subscription {
  if (event.type === 'TrialStarted') {
    return state.status === 'none'
      ? {
          status: 'trialing',
          userId: event.data.userId,
          trialStartDate: event.data.trialStartDate,
          trialEndDate: event.data.trialEndDate,
          customerId: null,
          stripe: null,
          lastPaymentDate: null,
          stripeEvents: [],
        }
      : state;
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'SubscriptionStatusChanged':
      return { ...state, status: event.data.to };
    case 'TrialExtended':
      return { ...state, trialEndDate: event.data.trialEndDate };
    case 'StripeCustomerCreated':
      return { ...state, customerId: event.data.customerId };
    case 'StripeSubscriptionSynced': {
      const { userId: _userId, stripeEventId, at: _at, ...snapshot } = event.data;
      return {
        ...state,
        customerId: snapshot.customerId,
        stripe: snapshot,
        stripeEvents: [...state.stripeEvents, stripeEventId],
      };
    }
    case 'InvoicePaymentRecorded':
      return {
        ...state,
        lastPaymentDate: event.data.outcome === 'paid' ? event.data.at : state.lastPaymentDate,
        stripeEvents: [...state.stripeEvents, event.data.stripeEventId],
      };
  }
}

export const subscriptionStream = (userId: string) => `subscription-${userId}`;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The status at `now`: a subscription cancelled at period end keeps its access until that end, and
 * stops counting then, whether or not Stripe's `customer.subscription.deleted` has arrived yet.
 */
export function effectiveStatus(state: KnownSubscription, now: Date): SubscriptionStatus {
  const ends = state.stripe?.cancelAtPeriodEnd ? state.stripe.currentPeriodEnd : null;
  if (ends && isSubscribed(state.status) && now.getTime() >= new Date(ends).getTime()) return 'canceled';
  return state.status;
}

/** `GET /api/subscription/status`; `status` is null only before billing has seen the account. */
export function subscriptionView(state: Subscription, now: Date): SubscriptionView {
  if (state.status === 'none')
    return {
      status: null,
      daysRemaining: null,
      trialStartDate: null,
      trialEndDate: null,
      plan: null,
      nextPaymentDate: null,
      lastPaymentDate: null,
      cancelAtPeriodEnd: false,
      hasBillingAccount: false,
    };
  const status = effectiveStatus(state, now);
  return {
    status,
    daysRemaining:
      status === 'trialing'
        ? Math.max(0, Math.ceil((new Date(state.trialEndDate).getTime() - now.getTime()) / DAY_MS))
        : null,
    trialStartDate: state.trialStartDate,
    trialEndDate: state.trialEndDate,
    plan: isSubscribed(status) ? (state.stripe?.plan ?? null) : null,
    nextPaymentDate: isSubscribed(status) ? (state.stripe?.currentPeriodEnd ?? null) : null,
    lastPaymentDate: state.lastPaymentDate,
    cancelAtPeriodEnd: isSubscribed(status) && (state.stripe?.cancelAtPeriodEnd ?? false),
    hasBillingAccount: state.customerId !== null,
  };
}
