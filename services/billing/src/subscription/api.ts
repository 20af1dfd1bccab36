import { type Handler, handleCommand, loadAggregate, requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import type { BillingEnv } from '../env.ts';
import { subscriptionDecider, TRIAL_DAYS } from './decide.ts';
import { type Subscription, subscriptionStream } from './subscription.ts';

export function billingApi(context: ServiceContext<BillingEnv>) {
  const { store } = context;

  /** Reaction: every new account starts its trial, in the same transaction as the handled record. */
  const startTrial: Handler = async (event, tx) => {
    const { userId } = event.data as { userId: string };
    await handleCommand(
      store,
      subscriptionStream(userId),
      subscriptionDecider,
      { type: 'StartTrial', userId, days: TRIAL_DAYS },
      {
        userId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        now: new Date(event.occurredAt),
        transaction: tx,
        idempotencyKey: `trial:${event.id}`,
      },
    );
  };

  function routes(router: Router) {
    // GET /api/subscription/status (spec/account.md §7); the gateway also composes GET /api/user from it.
    router.get('/subscription/status', async (req, res) => {
      const userId = requireUserId(req);
      const { state } = await loadAggregate(store, subscriptionStream(userId), subscriptionDecider);
      res.json(subscriptionStatus(state, new Date()));
    });
  }

  return { routes, consumers: [{ name: 'trials', sources: ['identity'], handlers: { UserRegistered: startTrial } }] };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `status` is null only before billing has seen the account (its trial starts on UserRegistered). */
export function subscriptionStatus(state: Subscription, now: Date) {
  if (state.status === 'none') return { status: null, daysRemaining: null, trialStartDate: null, trialEndDate: null };
  const daysRemaining =
    state.status === 'trialing'
      ? Math.max(0, Math.ceil((new Date(state.trialEndDate).getTime() - now.getTime()) / DAY_MS))
      : null;
  return {
    status: state.status,
    daysRemaining,
    trialStartDate: state.trialStartDate,
    trialEndDate: state.trialEndDate,
  };
}
