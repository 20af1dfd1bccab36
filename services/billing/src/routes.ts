import { subscriptionRoutes } from './subscription/routes.ts';

/** Every route billing answers, as declared beside its handler: what the gateway serves and documents. */
export const billingRoutes = { ...subscriptionRoutes };
