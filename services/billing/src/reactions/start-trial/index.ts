import type { ConsumerDefinition, ServiceContext } from '@shiplog/service-kit';
import { causedBy, handleCommand } from '@shiplog/service-kit';
import type { BillingEnv } from '../../env.ts';
import { subscriptionDecider, TRIAL_DAYS } from '../../subscription/decide.ts';
import { subscriptionStream } from '../../subscription/subscription.ts';

/** Every new account starts its trial, appended in the same transaction as the handled record. */
export function startTrialReaction({ store }: ServiceContext<BillingEnv>): ConsumerDefinition {
  return {
    name: 'trials',
    sources: ['identity'],
    handlers: {
      UserRegistered: async (event, tx) => {
        const { userId } = event.data;
        await handleCommand(
          store,
          subscriptionStream(userId),
          subscriptionDecider,
          { type: 'StartTrial', userId, days: TRIAL_DAYS },
          causedBy(event, tx, `trial:${event.id}`, userId),
        );
      },
    },
  };
}
