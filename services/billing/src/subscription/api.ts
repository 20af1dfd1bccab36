import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { isSubscribed } from '@shiplog/schemas';
import {
  type CommandContext,
  callerOf,
  handleCommand,
  loadAggregate,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type Stripe from 'stripe';
import {
  closeStripeAccount,
  idOf,
  PriceList,
  type StripeClient,
  snapshotOf,
  stripeUnavailable,
} from '../adapters/stripe.ts';
import { StripeAccounts } from '../adapters/stripe-accounts.ts';
import type { BillingEnv } from '../env.ts';
import { type SubscriptionCommand, subscriptionDecider } from './decide.ts';
import { subscriptionRoutes } from './routes.ts';
import { type StripeSnapshot, subscriptionStream, subscriptionView } from './subscription.ts';

export function billingApi(context: ServiceContext<BillingEnv>, stripe: StripeClient | null) {
  const { store, config, logger, pool, schema, vault, now } = context;
  const prices = new PriceList(stripe, config, logger, now);
  const accounts = new StripeAccounts(pool, schema);

  const load = (userId: string) => loadAggregate(store, subscriptionStream(userId), subscriptionDecider);

  async function run(userId: string, command: SubscriptionCommand, ctx: Omit<CommandContext, 'now'>, res?: Response) {
    const result = await handleCommand(store, subscriptionStream(userId), subscriptionDecider, command, {
      ...ctx,
      now: now(),
    });
    if (res && result.position) reportPosition(res, 'billing', result.position);
    return result;
  }

  const requireStripe = async (): Promise<Stripe> => {
    if (!stripe)
      throw new ServiceUnavailableError(
        'Payments are not available on this server. Its administrator can set them up.',
        'PAYMENTS_NOT_CONFIGURED',
      );
    return stripe();
  };

  /** The path's user id; a malformed one is a user that does not exist. */
  function userIdOf(req: Request): string {
    const userId = req.params.userId;
    if (!isId(userId)) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    return userId;
  }

  /** The user's Stripe customer: created once (Stripe's idempotency key covers a race), recorded as an event. */
  async function customerOf(req: Request, res: Response, userId: string): Promise<string> {
    const { state } = await load(userId);
    if (state.status === 'none') throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    if (state.customerId) return state.customerId;
    const customer = await (await requireStripe()).customers
      .create({ metadata: { userId } }, { idempotencyKey: `shiplog-customer-${userId}` })
      .catch(stripeUnavailable);
    await accounts.link(userId, customer.id);
    const caller = callerOf(req);
    const result = await run(userId, { type: 'RecordStripeCustomer', customerId: customer.id }, caller, res);
    return result.state.status === 'none' ? customer.id : (result.state.customerId ?? customer.id);
  }

  /**
   * One Stripe event applied to its user's subscription. The subscription is re-read from Stripe, so
   * whatever order the deliveries come in, the state recorded is Stripe's latest; the event's id goes
   * into the same append, so a retry or replay changes nothing.
   */
  async function applyStripeEvent(event: Stripe.Event): Promise<void> {
    const client = await requireStripe();
    let subscriptionId: string | null = null;
    let userId: string | null = null;
    let invoice: Extract<SubscriptionCommand, { type: 'ApplyStripeEvent' }>['invoice'] = null;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        subscriptionId = idOf(session.subscription);
        userId = session.client_reference_id ?? session.metadata?.userId ?? null;
        break;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        subscriptionId = event.data.object.id;
        break;
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const paid = event.type === 'invoice.paid';
        const object = event.data.object;
        subscriptionId = idOf(object.parent?.subscription_details?.subscription);
        userId = object.parent?.subscription_details?.metadata?.userId ?? null;
        invoice = {
          invoiceId: object.id ?? event.id,
          outcome: paid ? 'paid' : 'failed',
          amount: paid ? object.amount_paid : object.amount_due,
          currency: object.currency,
        };
        break;
      }
      default:
        return;
    }
    let snapshot: StripeSnapshot | null = null;
    if (subscriptionId) {
      const subscription = await client.subscriptions.retrieve(subscriptionId).catch(stripeUnavailable);
      snapshot = snapshotOf(subscription);
      userId ??= subscription.metadata?.userId ?? null;
    }
    if (!userId && snapshot) {
      const customer = await client.customers.retrieve(snapshot.customerId).catch(stripeUnavailable);
      userId = 'metadata' in customer ? (customer.metadata?.userId ?? null) : null;
    }
    if (!userId || !isId(userId)) {
      logger.warn({ stripeEvent: event.id, type: event.type }, 'Stripe event names no Shiplog user; ignored');
      return;
    }
    if (await vault.isForgotten(userId)) {
      // A deleted account (the vault says so at once; its keys may still be cached a moment): nothing
      // to record, and Stripe must stop retrying. What the deletion's reaction closed stays closed; a
      // subscription that appeared since is closed too.
      if (snapshot)
        await closeStripeAccount(client, { userId, customerId: snapshot.customerId, subscriptionIds: [] }).catch(
          stripeUnavailable,
        );
      logger.warn({ stripeEvent: event.id, userId }, 'Stripe event for an account that no longer exists');
      return;
    }
    if (snapshot) await accounts.link(userId, snapshot.customerId, snapshot.subscriptionId);
    const command: SubscriptionCommand = {
      type: 'ApplyStripeEvent',
      stripeEventId: event.id,
      subscription: snapshot,
      invoice,
    };
    try {
      // Two deliveries for one user at once: decided again from the stream as it then stands.
      await run(userId, command, { userId: null, correlationId: event.id, retries: 4 });
    } catch (error) {
      // An account billing never knew: nothing to update, and Stripe must stop retrying.
      if (!(error instanceof NotFoundError)) throw error;
      logger.warn({ stripeEvent: event.id, userId }, 'Stripe event for an account that no longer exists');
    }
  }

  return serveRoutes(subscriptionRoutes, {
    // spec/account.md §7; the gateway also composes GET /api/user from it, and plan gates ask it
    // (service-kit's plan-gates.ts).
    'GET /subscription/status': async (req, res) => {
      const { state } = await load(requireUserId(req));
      res.json(subscriptionView(state, now()));
    },

    // Admins set a user's status.
    'PUT /admin/users/:userId/subscription': async (req, res, parsed) => {
      const caller = callerOf(req);
      const { subscriptionStatus: status } = parsed.body;
      const userId = userIdOf(req);
      const result = await run(
        userId,
        { type: 'ChangeStatus', status, changedBy: caller.userId, reason: 'admin' },
        caller,
        res,
      );
      res.json(subscriptionView(result.state, now()));
    },

    // Admins extend a user's trial by { days }.
    'POST /admin/users/:userId/extend-trial': async (req, res, parsed) => {
      const caller = callerOf(req);
      const { days } = parsed.body;
      const userId = userIdOf(req);
      const result = await run(userId, { type: 'ExtendTrial', days, extendedBy: requireUserId(req) }, caller, res);
      res.json(subscriptionView(result.state, now()));
    },

    'GET /stripe/prices': async (req, res) => {
      requireUserId(req);
      res.json(await prices.list());
    },

    'POST /stripe/create-checkout-session': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { priceId, mode } = parsed.body;
      if (!prices.ids().includes(priceId)) throw new ValidationError({ priceId: ['Unknown plan'] });
      const client = await requireStripe();
      const { state } = await load(userId);
      if (state.status !== 'none' && isSubscribed(subscriptionView(state, now()).status) && state.stripe)
        throw new ConflictError(
          'You already have an active subscription. Manage it from the billing portal.',
          'ALREADY_SUBSCRIBED',
        );
      const customer = await customerOf(req, res, userId);
      const session = await client.checkout.sessions
        .create({
          mode,
          customer,
          client_reference_id: userId,
          metadata: { userId },
          subscription_data: { metadata: { userId } },
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: new URL('/?success=true', config.APP_URL).toString(),
          cancel_url: new URL('/?cancelled=true', config.APP_URL).toString(),
        })
        .catch(stripeUnavailable);
      if (!session.url) throw new ServiceUnavailableError('The payment provider returned no checkout page.');
      res.json({ url: session.url });
    },

    'POST /stripe/create-customer-portal': async (req, res) => {
      const userId = requireUserId(req);
      const client = await requireStripe();
      const { state } = await load(userId);
      if (state.status === 'none' || !state.customerId)
        throw new ConflictError(
          'There is no billing account yet: choose a plan first, then manage it here.',
          'NO_BILLING_ACCOUNT',
        );
      const portal = await client.billingPortal.sessions
        .create({ customer: state.customerId, return_url: new URL('/subscription', config.APP_URL).toString() })
        .catch(stripeUnavailable);
      res.json({ url: portal.url });
    },

    // Stripe's deliveries: the raw body, exactly as sent, against the signature (its declaration's rawBody).
    'POST /stripe/webhook': async (req, res) => {
      const client = await requireStripe();
      if (!config.STRIPE_WEBHOOK_SECRET)
        throw new ServiceUnavailableError(
          'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET is not set).',
          'WEBHOOKS_NOT_CONFIGURED',
        );
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body))
        throw new ValidationError({ 'stripe-signature': ['Missing Stripe signature'] }, 'Missing Stripe signature');
      let event: Stripe.Event;
      try {
        event = client.webhooks.constructEvent(req.body, signature, config.STRIPE_WEBHOOK_SECRET);
      } catch {
        throw new ValidationError({ 'stripe-signature': ['Invalid Stripe signature'] }, 'Invalid Stripe signature');
      }
      await applyStripeEvent(event);
      res.json({ received: true });
    },
  });
}
