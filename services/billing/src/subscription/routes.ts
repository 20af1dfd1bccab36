import {
  changeSubscriptionStatusSchema,
  checkoutSchema,
  extendTrialSchema,
  subscriptionStatuses,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

const planInterval = z.enum(['month', 'year']);

/** The subscription as `GET /api/subscription/status` answers it (`SubscriptionView`). */
const subscriptionView = z.object({
  status: z.enum(subscriptionStatuses).nullable(),
  daysRemaining: z.number().nullable(),
  trialStartDate: z.string().nullable(),
  trialEndDate: z.string().nullable(),
  plan: planInterval.nullable(),
  nextPaymentDate: z.string().nullable(),
  lastPaymentDate: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  hasBillingAccount: z.boolean(),
});

/** A plan's price (`Price`). */
const priceView = z.object({
  id: z.string(),
  unit_amount: z.number(),
  currency: z.string(),
  recurring: z.object({ interval: planInterval }),
});

/** The subscription, Stripe checkout and the portal, Stripe's deliveries (answered in `api.ts`). */
export const subscriptionRoutes = declareRoutes({
  // The gateway also composes GET /api/user from it, and plan gates ask it (service-kit's plan-gates.ts).
  'GET /subscription/status': {
    tag: 'Billing',
    summary: 'The subscription’s status and trial end',
    access: 'user',
    timeoutMs: 60_000,
    answer: subscriptionView,
  },
  'PUT /admin/users/:userId/subscription': {
    tag: 'Admin',
    summary: 'Set a user’s subscription status',
    access: 'admin',
    body: changeSubscriptionStatusSchema,
    answer: subscriptionView,
  },
  'POST /admin/users/:userId/extend-trial': {
    tag: 'Admin',
    summary: 'Extend a user’s trial',
    access: 'admin',
    body: extendTrialSchema,
    answer: subscriptionView,
  },
  'GET /stripe/prices': {
    tag: 'Billing',
    summary: 'The plans one may buy',
    access: 'user',
    timeoutMs: 60_000,
    answer: z.array(priceView),
  },
  'POST /stripe/create-checkout-session': {
    tag: 'Billing',
    summary: 'Start a Stripe Checkout',
    access: 'user',
    timeoutMs: 60_000,
    body: checkoutSchema,
    answer: z.object({ url: z.url() }),
  },
  'POST /stripe/create-customer-portal': {
    tag: 'Billing',
    summary: 'Open the Stripe customer portal',
    access: 'user',
    timeoutMs: 60_000,
    answer: z.object({ url: z.url() }),
  },
  // Stripe's deliveries carry no session: the signature over the raw body (passed on untouched) is the credential.
  'POST /stripe/webhook': {
    tag: 'Billing',
    summary: 'Stripe’s event deliveries',
    description: 'The `Stripe-Signature` header over the raw body is the credential.',
    access: 'public',
    rawBody: true,
    answer: z.object({ received: z.literal(true) }),
  },
});
