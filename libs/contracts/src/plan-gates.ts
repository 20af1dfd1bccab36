import type { SubscriptionStatus, SubscriptionView } from '@shiplog/schemas';
import { type Caller, type ServiceClients, unavailable } from '@shiplog/service-kit';

/**
 * Plan gates (Quick Update, the chat tiers) decide from the subscription as billing, its owner, holds
 * it at this moment: folded from `subscription-<userId>` in billing's own store, which every status
 * change (an admin's, a Stripe webhook's, the end of a paid period) has already reached when it is
 * answered. A projection of billing's events elsewhere would be right only once it caught up, and
 * read-your-writes cannot help: the change was made by someone else's hand (decision 014).
 */
export async function currentSubscription(services: ServiceClients, caller: Caller): Promise<SubscriptionView> {
  const answer = await services.call<SubscriptionView>('billing', {
    method: 'GET',
    path: '/subscription/status',
    caller,
  });
  if (answer.status !== 200) throw unavailable('billing', new Error(`subscription status answered ${answer.status}`));
  return answer.body;
}

/** The status alone, for the gates that ask only whether the caller is subscribed. */
export const currentSubscriptionStatus = async (
  services: ServiceClients,
  caller: Caller,
): Promise<SubscriptionStatus | null> => (await currentSubscription(services, caller)).status;
