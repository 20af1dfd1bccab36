import { join } from 'node:path';
import type { ServiceDefinition } from '@shiplog/service-kit';
import { type BillingEnv, billingEnv } from './env.ts';
import { billingApi } from './subscription/api.ts';

/** billing: trials and subscriptions. Streams `subscription-<userId>`. */
export const billingService: ServiceDefinition<BillingEnv> = {
  name: 'billing',
  env: billingEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  setup(context) {
    const api = billingApi(context);
    return { routes: api.routes, consumers: api.consumers };
  },
};
