import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const billingEnv = serviceEnv
  .extend({
    /** Unset: checkout and the portal answer 503; prices come from the defaults below. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** Signs webhook deliveries (`whsec_…`); unset, the webhook answers 503. */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Points the Stripe SDK at another server (tests: the project's Stripe stand-in). */
    STRIPE_API_URL: z.url().optional(),
    STRIPE_PRICE_MONTHLY: z.string().min(1).default('price_shiplog_monthly'),
    STRIPE_PRICE_YEARLY: z.string().min(1).default('price_shiplog_yearly'),
  })
  .superRefine(checkServiceEnv);
export type BillingEnv = z.infer<typeof billingEnv>;
