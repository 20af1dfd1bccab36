import { z } from 'zod';
import { type SubscriptionStatus, subscriptionStatuses } from './subscription-values.ts';

/** `PUT /api/admin/users/{id}/subscription` (spec/account.md §7): any status of the fixed list. */
export const changeSubscriptionStatusSchema = z.object({
  subscriptionStatus: z.enum(subscriptionStatuses, {
    error: `Status must be one of ${subscriptionStatuses.join(', ')}`,
  }),
});

const DAYS_MESSAGE = 'Please enter a valid number of days';

/** `POST /api/admin/users/{id}/extend-trial`: a whole number of days, at least 1 (spec/account.md §5). */
export const extendTrialSchema = z.object({
  days: z.preprocess(
    // The form's number input may arrive as text; anything else that is not a whole number is refused.
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: DAYS_MESSAGE }).int(DAYS_MESSAGE).min(1, DAYS_MESSAGE).max(3650, 'At most 3650 days at a time'),
  ),
});

/** `POST /api/stripe/create-checkout-session`. */
export const checkoutSchema = z.object({
  priceId: z.string({ error: 'Choose a plan' }).trim().min(1, 'Choose a plan').max(200),
  mode: z.literal('subscription', { error: "mode must be 'subscription'" }).optional().default('subscription'),
});

/** A plan's price as `GET /api/stripe/prices` answers it (spec/account.md §3). */
export interface Price {
  id: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: 'month' | 'year' };
}

export type PlanInterval = Price['recurring']['interval'];

/** `GET /api/subscription/status`: the spec's `{ status, daysRemaining }`, and what the page shows with it. */
export interface SubscriptionView {
  status: SubscriptionStatus | null;
  daysRemaining: number | null;
  trialStartDate: string | null;
  trialEndDate: string | null;
  plan: PlanInterval | null;
  /** The end of the paid period: the next payment, or the end of access when cancelling at period end. */
  nextPaymentDate: string | null;
  lastPaymentDate: string | null;
  cancelAtPeriodEnd: boolean;
  /** A Stripe customer exists: the billing portal can open. */
  hasBillingAccount: boolean;
}
