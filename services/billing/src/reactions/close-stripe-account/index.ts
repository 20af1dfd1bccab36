import { PassingFailure } from '@shiplog/messaging';
import type { ConsumerDefinition, ServiceContext } from '@shiplog/service-kit';
import { closeStripeAccount, type StripeClient } from '../../adapters/stripe.ts';
import { StripeAccounts } from '../../adapters/stripe-accounts.ts';
import type { BillingEnv } from '../../env.ts';

/**
 * A deleted account stops paying: its Stripe subscriptions are cancelled at once and its customer
 * deleted, found through the id link kept outside the shredded stream. The link goes in the same
 * transaction as the handled record, once Stripe has done both; while Stripe does not answer, the
 * deletion waits here and is retried (only this reaction waits).
 */
export function closeStripeAccountReaction(
  { pool, schema }: ServiceContext<BillingEnv>,
  stripe: StripeClient | null,
): ConsumerDefinition {
  const accounts = new StripeAccounts(pool, schema);
  return {
    name: 'close-stripe-account',
    sources: ['identity'],
    only: 'UserDeleted',
    handlers: {
      UserDeleted: async (event, tx) => {
        const account = await accounts.find(event.data.userId, tx);
        if (!account) return;
        if (!stripe)
          throw new PassingFailure(
            'A deleted account has a Stripe customer, but STRIPE_SECRET_KEY is not set: it cannot be closed',
          );
        await closeStripeAccount(await stripe(), account);
        await accounts.remove(account.userId, tx);
      },
    },
  };
}
