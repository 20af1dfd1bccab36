import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';
import { subscriptionStatuses } from './values.ts';

const subscriptionStatus = z.enum(subscriptionStatuses);

// billing — `subscription-<userId>` streams.
export const billingEvents = {
  TrialStarted: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, trialStartDate: isoDate, trialEndDate: isoDate }),
  }),
  SubscriptionStatusChanged: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      from: subscriptionStatus.nullable(),
      to: subscriptionStatus,
      changedBy: id.nullable(),
      reason: z.string(),
    }),
  }),

  /** An administrator extended the trial: it ends `days` after the later of then and its old end. */
  TrialExtended: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, days: z.number().int(), trialEndDate: isoDate, extendedBy: id, at: isoDate }),
  }),
  /** The user's Stripe customer, created once at their first checkout and reused after. */
  StripeCustomerCreated: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({ userId: id, customerId: z.string(), at: isoDate }),
  }),
  /**
   * The subscription as Stripe held it when a webhook told us it changed (re-read from Stripe, so
   * deliveries out of order cannot leave an old state). `stripeEventId` makes a retried delivery a no-op.
   */
  StripeSubscriptionSynced: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      stripeEventId: z.string(),
      customerId: z.string(),
      subscriptionId: z.string(),
      stripeStatus: z.string(),
      priceId: z.string().nullable(),
      plan: z.enum(['month', 'year']).nullable(),
      currentPeriodEnd: isoDate.nullable(),
      cancelAtPeriodEnd: z.boolean(),
      at: isoDate,
    }),
  }),
  /** An invoice was paid (`invoice.paid`), or its payment failed (`invoice.payment_failed`). */
  InvoicePaymentRecorded: event({
    owner: 'billing',
    version: 1,
    publish: true,
    schema: z.object({
      userId: id,
      stripeEventId: z.string(),
      invoiceId: z.string(),
      outcome: z.enum(['paid', 'failed']),
      amount: z.number().int().nullable(),
      currency: z.string().nullable(),
      at: isoDate,
    }),
  }),
} as const satisfies Record<string, { owner: 'billing' }>;
