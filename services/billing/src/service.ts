import { join } from 'node:path';
import type { ServiceDefinition } from '@shiplog/service-kit';
import { type BillingEnv, billingEnv } from './env.ts';
import { startTrialReaction } from './reactions/start-trial/index.ts';
import { billingApi, WEBHOOK_PATH } from './subscription/api.ts';

/** billing: trials, subscriptions and Stripe. Streams `subscription-<userId>`. */
export const billingService: ServiceDefinition<BillingEnv> = {
  name: 'billing',
  env: billingEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  setup(context) {
    return {
      routes: billingApi(context).routes,
      rawBodyPaths: [WEBHOOK_PATH],
      consumers: [startTrialReaction(context)],
    };
  },
};
