import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { metricValue, scrapeMetrics } from '@shiplog/testing/prometheus';
import { type StripeStandIn, startStripeStandIn } from '@shiplog/testing/stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_PASSWORD = 'admin-secret-1';
const DAY_MS = 86_400_000;

async function signUp(backend: Backend, prefix = 'payer') {
  const client = new Client(backend.url);
  const response = await client.post('/api/register', { username: uniqueUsername(prefix), password: 'secret-pass-1' });
  expect(response.status).toBe(201);
  return { client, id: response.body.id as string };
}

async function signInAdmin(backend: Backend) {
  const admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
  return admin;
}

describe('billing without Stripe configured', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('serves the configured prices, and answers 503 for checkout, portal and webhooks', async () => {
    const { client } = await signUp(backend);
    const prices = await client.get('/api/stripe/prices');
    expect(prices.status).toBe(200);
    expect(prices.body).toEqual([
      { id: 'price_shiplog_monthly', unit_amount: 700, currency: 'usd', recurring: { interval: 'month' } },
      { id: 'price_shiplog_yearly', unit_amount: 4999, currency: 'usd', recurring: { interval: 'year' } },
    ]);
    const checkout = await client.post('/api/stripe/create-checkout-session', {
      priceId: 'price_shiplog_monthly',
      mode: 'subscription',
    });
    expect(checkout.status).toBe(503);
    expect(checkout.body).toEqual({
      message: 'Payments are not available on this server. Its administrator can set them up.',
      code: 'PAYMENTS_NOT_CONFIGURED',
    });
    expect((await client.post('/api/stripe/create-customer-portal')).status).toBe(503);
    const webhook = await new Client(backend.url).post('/api/stripe/webhook', { id: 'evt_1' });
    expect(webhook.status).toBe(503);
    expect((await new Client(backend.url).get('/api/stripe/prices')).status).toBe(401);
  });
});

describe('billing with Stripe', () => {
  let backend: Backend;
  let stripe: StripeStandIn;
  let admin: Client;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    backend = await startBackend({ adminPassword: ADMIN_PASSWORD, env: { ...stripe.env, APP_URL: 'http://app.test' } });
    stripe.deliverTo(`${backend.url}/api/stripe/webhook`);
    admin = await signInAdmin(backend);
  });
  afterAll(async () => {
    await backend?.stop();
    await stripe?.stop();
  });

  async function checkout(client: Client, priceId = 'price_shiplog_monthly') {
    const response = await client.post('/api/stripe/create-checkout-session', { priceId, mode: 'subscription' });
    expect(response.status).toBe(200);
    const sessionId = new URL(response.body.url).pathname.split('/').pop()!;
    return { url: response.body.url as string, sessionId };
  }

  it('reads the prices from Stripe', async () => {
    const { client } = await signUp(backend);
    expect((await client.get('/api/stripe/prices')).body).toEqual([
      { id: 'price_shiplog_monthly', unit_amount: 700, currency: 'usd', recurring: { interval: 'month' } },
      { id: 'price_shiplog_yearly', unit_amount: 4999, currency: 'usd', recurring: { interval: 'year' } },
    ]);
    // Each of Stripe's answers is counted in billing's metrics.
    const metrics = await scrapeMetrics(backend.service('billing').url);
    expect(
      metricValue(metrics, 'shiplog_outbound_requests_total', { target: 'stripe', outcome: 'ok' }),
    ).toBeGreaterThan(0);
  });

  it('refuses a missing or unknown price, and a mode other than subscription', async () => {
    const { client } = await signUp(backend);
    const missing = await client.post('/api/stripe/create-checkout-session', { mode: 'subscription' });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ priceId: ['Choose a plan'] });
    const unknown = await client.post('/api/stripe/create-checkout-session', { priceId: 'price_free_lunch' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors).toEqual({ priceId: ['Unknown plan'] });
    const mode = await client.post('/api/stripe/create-checkout-session', {
      priceId: 'price_shiplog_monthly',
      mode: 'payment',
    });
    expect(mode.status).toBe(400);
    expect(Object.keys(mode.body.fieldErrors)).toEqual(['mode']);
    expect((await new Client(backend.url).post('/api/stripe/create-checkout-session', {})).status).toBe(401);
  });

  it('checks out once, creates the customer once, and the webhooks make the account active at once', async () => {
    const { client, id } = await signUp(backend);
    const portalFirst = await client.post('/api/stripe/create-customer-portal');
    expect(portalFirst.status).toBe(409);
    expect(portalFirst.body.code).toBe('NO_BILLING_ACCOUNT');

    const customersBefore = stripe.customers.size;
    const first = await checkout(client);
    expect(first.url.startsWith(`${stripe.url}/pay/`)).toBe(true);
    const second = await checkout(client, 'price_shiplog_yearly');
    expect(stripe.customers.size).toBe(customersBefore + 1);
    const session = stripe.checkoutSessions.get(second.sessionId)!;
    expect(session).toMatchObject({
      client_reference_id: id,
      metadata: { userId: id },
      success_url: 'http://app.test/?success=true',
      cancel_url: 'http://app.test/?cancelled=true',
    });
    expect(session.customer).toBe(stripe.checkoutSessions.get(first.sessionId)!.customer);

    await stripe.completeCheckout(second.sessionId);
    const status = (await client.get('/api/subscription/status')).body;
    expect(status).toMatchObject({
      status: 'active',
      daysRemaining: null,
      plan: 'year',
      cancelAtPeriodEnd: false,
      hasBillingAccount: true,
    });
    expect(new Date(status.nextPaymentDate).getTime()).toBeGreaterThan(Date.now() + 300 * DAY_MS);
    expect(Date.now() - new Date(status.lastPaymentDate).getTime()).toBeLessThan(60_000);
    expect((await client.get('/api/user')).body.subscriptionStatus).toBe('active');

    const portal = await client.post('/api/stripe/create-customer-portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url.startsWith(`${stripe.url}/portal/`)).toBe(true);
    // Subscribed: a second checkout goes to the portal instead.
    const again = await client.post('/api/stripe/create-checkout-session', { priceId: 'price_shiplog_monthly' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_SUBSCRIBED');
  });

  it('refuses a missing, forged or wrongly signed webhook with 400, and changes nothing', async () => {
    const { client } = await signUp(backend);
    const { sessionId } = await checkout(client);
    const session = stripe.checkoutSessions.get(sessionId)!;
    const event = stripe.event('checkout.session.completed', { ...session, status: 'complete' });
    const payload = JSON.stringify(event);
    const post = (headers: Record<string, string>, body = payload) =>
      fetch(`${backend.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const unsigned = await post({});
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toEqual({
      message: 'Missing Stripe signature',
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'stripe-signature': ['Missing Stripe signature'] },
    });
    expect((await post({ 'stripe-signature': 't=1,v1=abc' })).status).toBe(400);
    expect((await post({ 'stripe-signature': stripe.sign(payload, 'whsec_not_ours') })).status).toBe(400);
    // The signature covers the bytes: the same JSON re-serialised is no longer what was signed.
    expect((await post({ 'stripe-signature': stripe.sign(payload) }, JSON.stringify(event, null, 1))).status).toBe(400);
    expect(await stripe.deliver(event, 'garbage')).toBe(400);
    expect((await client.get('/api/subscription/status')).body.status).toBe('trialing');
  });

  it('answers a retried or replayed event 200 and changes nothing', async () => {
    const { client, id } = await signUp(backend);
    const { sessionId } = await checkout(client);
    const { events } = await stripe.completeCheckout(sessionId);
    expect((await client.get('/api/subscription/status')).body.status).toBe('active');
    // The admin steps in; then Stripe retries every delivery.
    expect(
      (await admin.request('PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'canceled' })).status,
    ).toBe(200);
    for (const event of events) expect(await stripe.deliver(event)).toBe(200);
    expect((await client.get('/api/subscription/status')).body.status).toBe('canceled');
    const stored = await backend.pool.query(
      "SELECT count(*)::int AS n FROM billing.events WHERE stream_id = $1 AND type = 'InvoicePaymentRecorded'",
      [`subscription-${id}`],
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('keeps Stripe’s latest state whatever order the deliveries come in', async () => {
    const { client } = await signUp(backend);
    const { sessionId } = await checkout(client);
    const { subscriptionId, events } = await stripe.completeCheckout(sessionId);
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    // Stripe cancels; the `deleted` event arrives, then the old `created` and an older `updated` late.
    const subscription = stripe.updateSubscription(subscriptionId, { status: 'canceled' });
    const stale = stripe.event('customer.subscription.updated', { ...subscription, status: 'active' });
    expect(await stripe.deliver(stripe.event('customer.subscription.deleted', subscription))).toBe(200);
    expect(await stripe.deliver(stale)).toBe(200);
    expect(await stripe.deliver({ ...created, id: `${created.id}_late` })).toBe(200);
    expect((await client.get('/api/subscription/status')).body.status).toBe('canceled');
  });

  it('keeps access after cancelling at period end until that end, then no longer', async () => {
    const { client } = await signUp(backend);
    const project = (await client.post('/api/projects', { name: 'Paid work' })).body;
    const { sessionId } = await checkout(client);
    const { subscriptionId } = await stripe.completeCheckout(sessionId);
    const inAWeek = Math.floor((Date.now() + 7 * DAY_MS) / 1000);
    const cancelled = stripe.updateSubscription(subscriptionId, {
      cancel_at_period_end: true,
      current_period_end: inAWeek,
    });
    expect(await stripe.deliver(stripe.event('customer.subscription.updated', cancelled))).toBe(200);
    expect((await client.get('/api/subscription/status')).body).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      nextPaymentDate: new Date(inAWeek * 1000).toISOString(),
    });
    const update = { projectId: project.id, notes: 'Still paid for' };
    expect((await client.post('/api/activities', update)).status).toBe(201);

    // The period ends (Stripe's clock moved on; its `deleted` has not come yet).
    const ended = stripe.updateSubscription(subscriptionId, { current_period_end: Math.floor(Date.now() / 1000) - 1 });
    expect(await stripe.deliver(stripe.event('customer.subscription.updated', ended))).toBe(200);
    expect((await client.get('/api/subscription/status')).body.status).toBe('canceled');
    expect((await client.get('/api/user')).body.subscriptionStatus).toBe('canceled');
    expect((await client.post('/api/activities', update)).status).toBe(403);
  });

  it('records a failed payment as past due', async () => {
    const { client } = await signUp(backend);
    const { sessionId } = await checkout(client);
    const { subscriptionId, events } = await stripe.completeCheckout(sessionId);
    const invoice = events.find((e) => e.type === 'invoice.paid')!.data.object as unknown as Record<string, unknown>;
    stripe.updateSubscription(subscriptionId, { status: 'past_due' });
    const failed = stripe.event('invoice.payment_failed', { ...invoice, id: 'in_failed_1', status: 'open' } as never);
    expect(await stripe.deliver(failed)).toBe(200);
    expect((await client.get('/api/subscription/status')).body.status).toBe('past_due');
  });

  it('answers 502 with the error body when Stripe refuses a request (a customer it no longer knows)', async () => {
    const { client } = await signUp(backend);
    await checkout(client);
    stripe.customers.clear();
    const response = await client.post('/api/stripe/create-customer-portal');
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({
      code: 'PAYMENTS_REFUSED',
      message: expect.stringContaining('No such customer'),
    });
  });

  it('answers 503 with the error body while Stripe is down, and still serves the prices', async () => {
    const { client } = await signUp(backend);
    stripe.failing = true;
    try {
      const response = await client.post('/api/stripe/create-checkout-session', { priceId: 'price_shiplog_monthly' });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('PAYMENTS_UNAVAILABLE');
      expect((await client.get('/api/stripe/prices')).status).toBe(200);
    } finally {
      stripe.failing = false;
    }
  });

  describe('a deleted account stops paying', () => {
    const linkOf = async (userId: string) =>
      (
        await backend.pool.query<{ customer_id: string; subscription_ids: string[] }>(
          'SELECT customer_id, subscription_ids FROM billing.stripe_accounts WHERE user_id = $1',
          [userId],
        )
      ).rows[0];
    const closed = (customerId: string, subscriptionId: string) =>
      stripe.customers.get(customerId)?.deleted === true &&
      stripe.subscriptions.get(subscriptionId)?.status === 'canceled';

    async function subscribe() {
      const user = await signUp(backend, 'leaver');
      const { sessionId } = await checkout(user.client);
      const { subscriptionId } = await stripe.completeCheckout(sessionId);
      expect((await user.client.get('/api/subscription/status')).body.status).toBe('active');
      const customerId = stripe.subscriptions.get(subscriptionId)!.customer as string;
      return { ...user, customerId, subscriptionId };
    }

    it('cancels every subscription at once and deletes the customer at Stripe, then forgets the link', async () => {
      const ada = await subscribe();
      const bob = await subscribe();
      expect(await linkOf(ada.id)).toEqual({ customer_id: ada.customerId, subscription_ids: [ada.subscriptionId] });

      expect((await ada.client.request('DELETE', '/api/user')).status).toBe(200);
      await waitUntil(async () => (await linkOf(ada.id)) === undefined, 10_000, 'the Stripe link to go');
      expect(stripe.requests).toContain(`DELETE /v1/subscriptions/${ada.subscriptionId}`);
      expect(stripe.requests).toContain(`DELETE /v1/customers/${ada.customerId}`);
      expect(closed(ada.customerId, ada.subscriptionId)).toBe(true);
      // Cancelled now, not at the period's end: nothing more is charged.
      expect(stripe.subscriptions.get(ada.subscriptionId)).toMatchObject({ status: 'canceled' });

      // Another customer is untouched.
      expect(stripe.subscriptions.get(bob.subscriptionId)?.status).toBe('active');
      expect(stripe.customers.get(bob.customerId)?.deleted).toBeUndefined();
      expect((await bob.client.get('/api/subscription/status')).body.status).toBe('active');
      expect(await linkOf(bob.id)).toBeDefined();
    });

    it('waits while Stripe is down and closes the account once it answers, parking nothing', async () => {
      const ada = await subscribe();
      stripe.failing = true;
      const seen = stripe.requests.length;
      try {
        expect((await ada.client.request('DELETE', '/api/user')).status).toBe(200);
        // Retried: several attempts reach the outage.
        await waitUntil(async () => stripe.requests.length >= seen + 4, 10_000, 'retries during the outage');
        expect(await linkOf(ada.id)).toBeDefined();
      } finally {
        stripe.failing = false;
      }
      await waitUntil(async () => (await linkOf(ada.id)) === undefined, 20_000, 'the Stripe link to go');
      expect(closed(ada.customerId, ada.subscriptionId)).toBe(true);
      const parked = await backend.pool.query('SELECT 1 FROM billing.parked_events WHERE user_id = $1', [ada.id]);
      expect(parked.rowCount).toBe(0);
    });

    it('cancels a subscription whose webhooks had not arrived yet, and answers their late delivery 200', async () => {
      const ada = await signUp(backend, 'late');
      const { sessionId } = await checkout(ada.client);
      // Paid at Stripe; the deliveries are held back, so billing has not recorded the subscription.
      const { subscriptionId, events } = await stripe.completeCheckout(sessionId, { deliver: false });
      const customerId = stripe.subscriptions.get(subscriptionId)!.customer as string;
      expect(await linkOf(ada.id)).toEqual({ customer_id: customerId, subscription_ids: [] });

      expect((await ada.client.request('DELETE', '/api/user')).status).toBe(200);
      await waitUntil(async () => (await linkOf(ada.id)) === undefined, 10_000, 'the Stripe link to go');
      expect(closed(customerId, subscriptionId)).toBe(true);

      // Stripe delivers late: each is acknowledged, and nothing of the user is kept again.
      for (const event of events) expect(await stripe.deliver(event)).toBe(200);
      expect(await linkOf(ada.id)).toBeUndefined();
    });
  });
});

describe('trial extension', () => {
  let backend: Backend;
  let admin: Client;
  beforeAll(async () => {
    backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
    admin = await signInAdmin(backend);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  const extend = (client: Client, userId: string, body: unknown) =>
    client.post(`/api/admin/users/${userId}/extend-trial`, body);

  it('refuses anything but a whole number of days of at least 1', async () => {
    const { id } = await signUp(backend, 'trial');
    for (const days of [0, -3, 1.5, 'abc', null, '', true]) {
      const response = await extend(admin, id, { days });
      expect(response.status, String(days)).toBe(400);
      expect(response.body.fieldErrors).toEqual({ days: ['Please enter a valid number of days'] });
    }
    expect((await extend(admin, id, {})).body.fieldErrors).toEqual({ days: ['Please enter a valid number of days'] });
  });

  it('is for administrators only, and 404 for an unknown user', async () => {
    const { client, id } = await signUp(backend, 'trial');
    expect((await extend(client, id, { days: 5 })).status).toBe(403);
    expect((await extend(new Client(backend.url), id, { days: 5 })).status).toBe(401);
    expect((await extend(admin, '0193a1b2-0000-7000-8000-00000000dead', { days: 5 })).status).toBe(404);
    expect((await extend(admin, 'not-an-id', { days: 5 })).status).toBe(404);
  });

  it('adds days to the trial end, and puts an ended one back on trial from today', async () => {
    const { client, id } = await signUp(backend, 'trial');
    const before = (await client.get('/api/subscription/status')).body;
    const extended = await extend(admin, id, { days: 7 });
    expect(extended.status).toBe(200);
    expect(new Date(extended.body.trialEndDate).getTime() - new Date(before.trialEndDate).getTime()).toBe(7 * DAY_MS);
    expect((await client.get('/api/subscription/status')).body.daysRemaining).toBe(37);

    await admin.request('PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'canceled' });
    const again = await extend(admin, id, { days: '3' });
    expect(again.body.status).toBe('trialing');
    expect((await client.get('/api/user')).body.subscriptionStatus).toBe('trialing');
  });
});
