import { ForbiddenError, NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { subscriptionStatuses } from '@shiplog/schemas';
import {
  callerOf,
  type Handler,
  handleCommand,
  loadAggregate,
  parseInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Router } from 'express';
import { z } from 'zod';
import type { BillingEnv } from '../env.ts';
import { subscriptionDecider, TRIAL_DAYS } from './decide.ts';
import { type Subscription, subscriptionStream } from './subscription.ts';

const changeStatusSchema = z.object({
  subscriptionStatus: z.enum(subscriptionStatuses, {
    error: `Status must be one of ${subscriptionStatuses.join(', ')}`,
  }),
});

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

    // PUT /api/admin/users/{id}/subscription (spec/account.md §7): admins set a user's status.
    router.put('/admin/users/:userId/subscription', async (req, res) => {
      const caller = callerOf(req);
      requireUserId(req);
      if (!caller.isAdmin) throw new ForbiddenError('Only administrators can change subscriptions', 'ADMIN_REQUIRED');
      const { subscriptionStatus: status } = parseInput(changeStatusSchema, req.body);
      const userId = req.params.userId;
      if (!isId(userId)) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
      const result = await handleCommand(
        store,
        subscriptionStream(userId),
        subscriptionDecider,
        { type: 'ChangeStatus', status, changedBy: caller.userId, reason: 'admin' },
        { userId: caller.userId, correlationId: caller.correlationId },
      );
      if (result.position) reportPosition(res, 'billing', result.position);
      res.json(subscriptionStatus(result.state, new Date()));
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
