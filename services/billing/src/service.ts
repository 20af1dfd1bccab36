import { join } from 'node:path';
import { type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { stripeClient } from './adapters/stripe.ts';
import { type BillingEnv, billingEnv } from './env.ts';
import { closeStripeAccountReaction } from './reactions/close-stripe-account/index.ts';
import { startTrialReaction } from './reactions/start-trial/index.ts';
import { billingApi } from './subscription/api.ts';

/** billing: trials, subscriptions and Stripe. Streams `subscription-<userId>`. */
export const billingService: ServiceDefinition<BillingEnv> = {
  name: 'billing',
  env: billingEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  setup(context) {
    const stripe = stripeClient(context.config, (outcome) => context.metrics.outbound('stripe', outcome));
    return {
      ...servedTogether(billingApi(context, stripe)),
      consumers: [startTrialReaction(context), closeStripeAccountReaction(context, stripe)],
    };
  },
};
