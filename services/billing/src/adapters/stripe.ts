import { AppError, ServiceUnavailableError } from '@shiplog/errors';
import { PassingFailure } from '@shiplog/messaging';
import type { PlanInterval, Price } from '@shiplog/schemas';
import type { Logger } from '@shiplog/service-kit';
import type Stripe from 'stripe';
import type { BillingEnv } from '../env.ts';
import type { StripeSnapshot } from '../subscription/subscription.ts';
import type { StripeAccount } from './stripe-accounts.ts';

/** The SDK's class, once loaded (see stripeClient). */
let sdk: typeof Stripe | undefined;

/** The client, made at its first use. */
export type StripeClient = () => Promise<Stripe>;

/**
 * The real SDK, pointed at `STRIPE_API_URL` when set; null without `STRIPE_SECRET_KEY`. The SDK loads
 * with the first payment call: a process that makes none does not carry it (about 14 MB).
 */
export function stripeClient(
  config: BillingEnv,
  observe: (outcome: 'ok' | 'error') => void = () => {},
): StripeClient | null {
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return null;
  const options: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 10_000 };
  if (config.STRIPE_API_URL) {
    const url = new URL(config.STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.protocol = protocol;
    options.host = url.hostname;
    options.port = url.port || (protocol === 'http' ? 80 : 443);
  }
  let client: Promise<Stripe> | undefined;
  return () => {
    client ??= import('stripe').then(({ default: Sdk }) => {
      sdk = Sdk;
      const stripe = new Sdk(key, options);
      // Each answer Stripe gives, counted (a request that never got one fails its caller, who logs it).
      stripe.on('response', (event: Stripe.ResponseEvent) => observe(event.status < 500 ? 'ok' : 'error'));
      return stripe;
    });
    return client;
  };
}

/** Stripe answered and refused (4xx): our configuration or a stale id, never an outage. */
const refusedByStripe = (error: unknown): boolean =>
  sdk !== undefined &&
  error instanceof sdk.errors.StripeError &&
  error.statusCode !== undefined &&
  error.statusCode < 500;

const missingAtStripe = (error: unknown): boolean =>
  refusedByStripe(error) && (error as { code?: string }).code === 'resource_missing';

/**
 * Stripe could not be reached or failed: a 503 the client can retry (a webhook delivery is retried by
 * Stripe). Stripe refusing a request (a price or customer it does not know: our configuration, never
 * the user's input, which is checked before) is a 502 that says so.
 */
export function stripeUnavailable(error: unknown): never {
  if (refusedByStripe(error)) {
    const refused = new AppError(
      502,
      'PAYMENTS_REFUSED',
      `The payment provider refused the request: ${(error as Error).message}`,
    );
    refused.cause = error;
    throw refused;
  }
  const unavailable = new ServiceUnavailableError(
    'The payment provider is not reachable right now. Please try again in a moment.',
    'PAYMENTS_UNAVAILABLE',
  );
  unavailable.cause = error;
  throw unavailable;
}

/** Subscriptions in these states charge nothing more; every other one is cancelled with its account. */
const CLOSED_STATUSES = new Set(['canceled', 'incomplete_expired']);

/**
 * A deleted account closed at Stripe: every subscription of its customer cancelled at once (not at
 * period end), then the customer deleted, so the card is never charged again and Stripe keeps none of
 * the customer's data. Idempotent: what Stripe no longer knows counts as closed. Stripe not answering
 * is a `PassingFailure` (the reaction waits and retries); a refusal is thrown as Stripe gave it.
 */
export async function closeStripeAccount(stripe: Stripe, account: StripeAccount): Promise<void> {
  try {
    const open = new Set<string>(account.subscriptionIds);
    try {
      for await (const subscription of stripe.subscriptions.list({ customer: account.customerId, status: 'all' })) {
        if (CLOSED_STATUSES.has(subscription.status)) open.delete(subscription.id);
        else open.add(subscription.id);
      }
    } catch (error) {
      if (!missingAtStripe(error)) throw error;
    }
    for (const id of open) {
      await stripe.subscriptions.cancel(id, {}, { idempotencyKey: `shiplog-close-${id}` }).catch((error: unknown) => {
        if (!missingAtStripe(error)) throw error;
      });
    }
    await stripe.customers.del(account.customerId).catch((error: unknown) => {
      if (!missingAtStripe(error)) throw error;
    });
  } catch (error) {
    if (refusedByStripe(error)) throw error;
    throw new PassingFailure('The payment provider is not reachable right now', { cause: error });
  }
}

const PRICES_FRESH_MS = 5 * 60_000;

/**
 * The two plans' prices (spec/account.md §9: $7 a month, $49.99 a year), read from Stripe and kept
 * five minutes. When Stripe is not configured, or does not answer, the last prices read (or the
 * configured defaults) are served: the subscription page must not break with Stripe.
 */
export class PriceList {
  readonly #stripe: StripeClient | null;
  readonly #defaults: Price[];
  readonly #logger: Logger;
  readonly #now: () => Date;
  #held: { prices: Price[]; at: number } | null = null;
  #reading: Promise<Price[]> | null = null;

  /** `now`: the service's clock, by which the prices read are kept five minutes. */
  constructor(stripe: StripeClient | null, config: BillingEnv, logger: Logger, now: () => Date) {
    this.#stripe = stripe;
    this.#logger = logger;
    this.#now = now;
    this.#defaults = [
      { id: config.STRIPE_PRICE_MONTHLY, unit_amount: 700, currency: 'usd', recurring: { interval: 'month' } },
      { id: config.STRIPE_PRICE_YEARLY, unit_amount: 4999, currency: 'usd', recurring: { interval: 'year' } },
    ];
  }

  /** The configured ids: the only prices a checkout may use. */
  ids(): string[] {
    return this.#defaults.map((p) => p.id);
  }

  async list(now = this.#now().getTime()): Promise<Price[]> {
    if (!this.#stripe) return this.#defaults;
    if (this.#held && now - this.#held.at < PRICES_FRESH_MS) return this.#held.prices;
    this.#reading ??= this.#read(this.#stripe).finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #read(client: StripeClient): Promise<Price[]> {
    try {
      const stripe = await client();
      const prices = await Promise.all(
        this.#defaults.map(async (fallback) => {
          const price = await stripe.prices.retrieve(fallback.id);
          return {
            id: price.id,
            unit_amount: price.unit_amount ?? fallback.unit_amount,
            currency: price.currency,
            recurring: { interval: planOf(price.recurring?.interval) ?? fallback.recurring.interval },
          } satisfies Price;
        }),
      );
      this.#held = { prices, at: this.#now().getTime() };
      return prices;
    } catch (error) {
      this.#logger.warn({ err: error }, 'Stripe prices not read; serving the last known or configured ones');
      return this.#held?.prices ?? this.#defaults;
    }
  }
}

/** A Stripe subscription as billing keeps it (the period end sits on its item since API 2025-03-31). */
export function snapshotOf(subscription: Stripe.Subscription): StripeSnapshot {
  const item = subscription.items.data[0];
  return {
    customerId: typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
    subscriptionId: subscription.id,
    stripeStatus: subscription.status,
    priceId: item?.price.id ?? null,
    plan: planOf(item?.price.recurring?.interval),
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000).toISOString() : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

const planOf = (interval: string | undefined): PlanInterval | null =>
  interval === 'month' || interval === 'year' ? interval : null;

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
