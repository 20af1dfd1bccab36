import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * The project's stand-in for Stripe: a small HTTP server that speaks the part of Stripe's REST API
 * (form-encoded requests, JSON objects and errors, idempotency keys) that billing calls through the
 * real `stripe` SDK pointed at it (`STRIPE_API_URL`), plus the two hosted pages a browser visits:
 * Checkout (`/pay/<session>`: Pay completes it, as a card payment would) and the customer portal
 * (`/portal/<session>`: cancel at period end). Webhook events are signed as Stripe signs them.
 */
export interface StripeStandIn {
  url: string;
  /** `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET` and `STRIPE_API_URL` for billing. */
  env: Record<string, string>;
  /** Where events are delivered (the gateway's `/api/stripe/webhook`). */
  deliverTo(url: string): void;
  /** Every API request received, as `METHOD /v1/path`. */
  requests: string[];
  customers: Map<string, StripeObject>;
  checkoutSessions: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  /** While true, every API request answers 500 (an outage). */
  failing: boolean;
  /**
   * Pays a checkout session: creates its subscription and delivers what Stripe would (unless
   * `deliver: false`: the caller delivers the events it is given, e.g. retrying as Stripe does).
   */
  completeCheckout(
    sessionId: string,
    options?: { deliver?: boolean },
  ): Promise<{ subscriptionId: string; events: Stripe.Event[] }>;
  /** Changes a subscription as the portal or Stripe's billing would; no event is sent. */
  updateSubscription(id: string, changes: Partial<SubscriptionFields>): StripeObject;
  /** An event as Stripe would send it, holding a copy of `object`. */
  event(type: string, object: StripeObject): Stripe.Event;
  /** Posts an event to the webhook with a valid signature (or the one given); the response's status. */
  deliver(event: Stripe.Event, signature?: string): Promise<number>;
  /** A `Stripe-Signature` header for a payload. */
  sign(payload: string, secret?: string): string;
  stop(): Promise<void>;
}

type StripeObject = Record<string, unknown> & { id: string };
interface SubscriptionFields {
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: number;
  price: string;
}

const PRICES: Record<string, { amount: number; interval: 'month' | 'year' }> = {
  price_shiplog_monthly: { amount: 700, interval: 'month' },
  price_shiplog_yearly: { amount: 4999, interval: 'year' },
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const seconds = (date = new Date()) => Math.floor(date.getTime() / 1000);

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const signer = new Stripe(secretKey);
  const customers = new Map<string, StripeObject>();
  const checkoutSessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const portalSessions = new Map<string, StripeObject>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: string[] = [];
  let webhookUrl: string | null = null;
  let base = '';

  const price = (id: string) => {
    const known = PRICES[id];
    if (!known) return null;
    return {
      id,
      object: 'price',
      active: true,
      currency: 'usd',
      unit_amount: known.amount,
      recurring: { interval: known.interval, interval_count: 1 },
      type: 'recurring',
    };
  };

  function subscriptionObject(customer: string, priceId: string, metadata: Record<string, string>): StripeObject {
    const now = new Date();
    const interval = PRICES[priceId]?.interval ?? 'month';
    const end = new Date(now);
    if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
    else end.setUTCFullYear(end.getUTCFullYear() + 1);
    const id = newId('sub');
    return {
      id,
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      created: seconds(now),
      metadata,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            price: price(priceId),
            quantity: 1,
            subscription: id,
            current_period_start: seconds(now),
            current_period_end: seconds(end),
          },
        ],
      },
    };
  }

  const standIn: StripeStandIn = {
    url: '',
    env: {},
    requests,
    customers,
    checkoutSessions,
    subscriptions,
    failing: false,
    deliverTo(url) {
      webhookUrl = url;
    },
    sign(payload, secret = webhookSecret) {
      return signer.webhooks.generateTestHeaderString({ payload, secret });
    },
    event(type, object) {
      return {
        id: newId('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: seconds(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: structuredClone(object) },
      } as unknown as Stripe.Event;
    },
    async deliver(event, signature) {
      if (!webhookUrl) throw new Error('deliverTo(url) first');
      const payload = JSON.stringify(event, null, 2);
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? standIn.sign(payload) },
        body: payload,
      });
      await response.arrayBuffer();
      return response.status;
    },
    updateSubscription(id, changes) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`no subscription ${id}`);
      const item = (subscription.items as { data: Record<string, unknown>[] }).data[0]!;
      if (changes.status !== undefined) subscription.status = changes.status;
      if (changes.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = changes.cancel_at_period_end;
      if (changes.current_period_end !== undefined) item.current_period_end = changes.current_period_end;
      if (changes.price !== undefined) item.price = price(changes.price);
      return subscription;
    },
    async completeCheckout(sessionId, options = {}) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const metadata = (session.subscription_data as { metadata?: Record<string, string> } | undefined)?.metadata ?? {};
      const subscription = subscriptionObject(session.customer as string, session.price as string, metadata);
      subscriptions.set(subscription.id, subscription);
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
      const invoice = {
        id: newId('in'),
        object: 'invoice',
        customer: session.customer,
        status: 'paid',
        amount_due: PRICES[session.price as string]?.amount ?? 0,
        amount_paid: PRICES[session.price as string]?.amount ?? 0,
        currency: 'usd',
        parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata } },
      };
      const { price: _price, subscription_data: _data, ...publicSession } = session;
      const events = [
        standIn.event('checkout.session.completed', publicSession as StripeObject),
        standIn.event('customer.subscription.created', subscription),
        standIn.event('invoice.paid', invoice),
      ];
      if (options.deliver !== false) for (const event of events) if (webhookUrl) await standIn.deliver(event);
      return { subscriptionId: subscription.id, events };
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function api(method: string, path: string, form: URLSearchParams, idempotencyKey: string | undefined) {
    const key = idempotencyKey ? `${method} ${path} ${idempotencyKey}` : null;
    if (key && idempotent.has(key)) return idempotent.get(key)!;
    const answer = route(method, path, form);
    if (key && answer.status < 500) idempotent.set(key, answer);
    return answer;
  }

  const missing = (what: string, id: string) => ({
    status: 404,
    body: {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` },
    },
  });
  const metadataOf = (form: URLSearchParams, prefix: string) =>
    Object.fromEntries(
      [...form].flatMap(([name, value]) => {
        const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(name);
        return match ? [[match[1]!, value]] : [];
      }),
    );

  function cancel(subscription: StripeObject): StripeObject {
    if (subscription.status === 'canceled') return subscription;
    const now = seconds();
    return Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
  }

  function route(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const idIn = (pattern: RegExp) => pattern.exec(path)?.[1];
    const priceId = idIn(/^\/v1\/prices\/([^/]+)$/);
    if (method === 'GET' && priceId)
      return price(priceId) ? { status: 200, body: price(priceId) } : missing('price', priceId);
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: form.get('email'),
        metadata: metadataOf(form, 'metadata'),
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    const customerId = idIn(/^\/v1\/customers\/([^/]+)$/);
    if (method === 'GET' && customerId) {
      const customer = customers.get(customerId);
      return customer ? { status: 200, body: customer } : missing('customer', customerId);
    }
    if (method === 'DELETE' && customerId) {
      // Stripe keeps a deleted customer as a stub that says so; deleting it again is a missing resource.
      const customer = customers.get(customerId);
      if (!customer || customer.deleted) return missing('customer', customerId);
      const stub = { id: customerId, object: 'customer', deleted: true };
      customers.set(customerId, stub);
      for (const subscription of subscriptions.values())
        if (subscription.customer === customerId && subscription.status !== 'canceled') cancel(subscription);
      return { status: 200, body: stub };
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      // The default lists what is not cancelled; `status=all` lists every one.
      const status = form.get('status');
      const data = [...subscriptions.values()].filter(
        (s) =>
          (!form.get('customer') || s.customer === form.get('customer')) &&
          (status === 'all' || (status ? s.status === status : s.status !== 'canceled')),
      );
      return { status: 200, body: { object: 'list', url: '/v1/subscriptions', has_more: false, data } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const chosen = form.get('line_items[0][price]') ?? '';
      if (!price(chosen)) return missing('price', chosen);
      const customer = form.get('customer') ?? '';
      if (!customers.has(customer)) return missing('customer', customer);
      const id = newId('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        mode: form.get('mode'),
        customer,
        client_reference_id: form.get('client_reference_id'),
        metadata: metadataOf(form, 'metadata'),
        subscription_data: { metadata: metadataOf(form, 'subscription_data[metadata]') },
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        url: `${base}/pay/${id}`,
        price: chosen,
      };
      checkoutSessions.set(id, session);
      const { price: _price, subscription_data: _data, ...shown } = session;
      return { status: 200, body: shown };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = form.get('customer') ?? '';
      if (!customers.has(customer)) return missing('customer', customer);
      const id = newId('bps');
      const session = {
        id,
        object: 'billing_portal.session',
        customer,
        return_url: form.get('return_url'),
        url: `${base}/portal/${id}`,
      };
      portalSessions.set(id, session);
      return { status: 200, body: session };
    }
    const subscriptionId = idIn(/^\/v1\/subscriptions\/([^/]+)$/);
    if (method === 'GET' && subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      return subscription ? { status: 200, body: subscription } : missing('subscription', subscriptionId);
    }
    if (method === 'DELETE' && subscriptionId) {
      // Cancelled at once, as `subscriptions.cancel` does (cancelling at period end is an update).
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) return missing('subscription', subscriptionId);
      return { status: 200, body: cancel(subscription) };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    };
  }

  /** The hosted pages a browser is sent to: Checkout and the customer portal. */
  async function page(req: IncomingMessage, res: ServerResponse, path: string) {
    const html = (status: number, title: string, body: string) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
        );
    const checkoutId = /^\/pay\/([^/]+)$/.exec(path)?.[1];
    const portalId = /^\/portal\/([^/]+)$/.exec(path)?.[1];
    if (checkoutId) {
      const session = checkoutSessions.get(checkoutId);
      if (!session) return html(404, 'Checkout not found', '');
      if (req.method === 'POST') {
        await standIn.completeCheckout(session.id);
        return res.writeHead(303, { location: session.success_url as string }).end();
      }
      const plan = PRICES[session.price as string]!;
      return html(
        200,
        'Stand-in Checkout',
        `<p>Shiplog Pro: $${(plan.amount / 100).toFixed(2)} per ${plan.interval}</p>
         <form method="post"><button type="submit">Pay</button></form>
         <a href="${session.cancel_url as string}">Cancel</a>`,
      );
    }
    if (portalId) {
      const session = portalSessions.get(portalId);
      if (!session) return html(404, 'Portal not found', '');
      const subscription = [...subscriptions.values()].find(
        (s) => s.customer === session.customer && s.status === 'active',
      );
      if (req.method === 'POST' && subscription) {
        standIn.updateSubscription(subscription.id, { cancel_at_period_end: true });
        if (webhookUrl) await standIn.deliver(standIn.event('customer.subscription.updated', subscription));
        return res.writeHead(303, { location: session.return_url as string }).end();
      }
      return html(
        200,
        'Stand-in Customer Portal',
        `<p>${subscription ? 'Your plan is active.' : 'No active plan.'}</p>
         <form method="post"><button type="submit">Cancel plan</button></form>
         <a href="${session.return_url as string}">Return to Shiplog</a>`,
      );
    }
    return html(404, 'Not found', '');
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (!url.pathname.startsWith('/v1/')) return await page(req, res, url.pathname);
      requests.push(`${req.method} ${url.pathname}`);
      if (standIn.failing)
        return res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'api_error', message: 'Stand-in outage' } }));
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
      const inQuery = req.method === 'GET' || req.method === 'DELETE';
      const form = new URLSearchParams(inQuery ? url.search : Buffer.concat(chunks).toString('utf8'));
      const key = req.headers['idempotency-key'];
      const { status, body } = await api(
        req.method ?? 'GET',
        url.pathname,
        form,
        typeof key === 'string' ? key : undefined,
      );
      res
        .writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') })
        .end(JSON.stringify(body));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.url = base;
  standIn.env = { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: base };
  return standIn;
}
