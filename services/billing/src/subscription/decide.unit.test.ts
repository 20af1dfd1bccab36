import { describe, expect, it } from 'vitest';
import { decideSubscription, statusFromStripe, TRIAL_DAYS } from './decide.ts';
import {
  effectiveStatus,
  evolveSubscription,
  initialSubscription,
  type StripeSnapshot,
  type Subscription,
  subscriptionView,
} from './subscription.ts';

const userId = '0193a1b2-0000-7000-8000-000000000002';
const now = new Date('2026-11-21T10:00:00.000Z');

describe('subscription decide', () => {
  it('starts a 30-day trial for a new account', () => {
    const events = decideSubscription({ type: 'StartTrial', userId, days: TRIAL_DAYS }, initialSubscription(), now);
    expect(events).toEqual([
      {
        type: 'TrialStarted',
        data: { userId, trialStartDate: '2026-11-21T10:00:00.000Z', trialEndDate: '2026-12-21T10:00:00.000Z' },
      },
    ]);
    expect(events.reduce(evolveSubscription, initialSubscription())).toMatchObject({ status: 'trialing' });
  });

  it('starts it only once', () => {
    const started = decideSubscription(
      { type: 'StartTrial', userId, days: TRIAL_DAYS },
      initialSubscription(),
      now,
    ).reduce(evolveSubscription, initialSubscription());
    expect(decideSubscription({ type: 'StartTrial', userId, days: TRIAL_DAYS }, started, now)).toEqual([]);
  });
});

describe('subscription decide: Stripe and the admin', () => {
  const trialing = decideSubscription(
    { type: 'StartTrial', userId, days: TRIAL_DAYS },
    initialSubscription(),
    now,
  ).reduce(evolveSubscription, initialSubscription());
  const snapshot = (
    subscriptionId: string,
    stripeStatus: string,
    extra: Partial<StripeSnapshot> = {},
  ): StripeSnapshot => ({
    customerId: 'cus_1',
    subscriptionId,
    stripeStatus,
    priceId: 'price_shiplog_monthly',
    plan: 'month',
    currentPeriodEnd: '2026-12-21T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    ...extra,
  });
  const apply = (state: Subscription, stripeEventId: string, subscription: StripeSnapshot) =>
    decideSubscription({ type: 'ApplyStripeEvent', stripeEventId, subscription, invoice: null }, state, now).reduce(
      evolveSubscription,
      state,
    );

  it('applies an event once: a replay after an admin change does nothing', () => {
    const active = apply(trialing, 'evt_1', snapshot('sub_1', 'active'));
    expect(active.status).toBe('active');
    const canceled = decideSubscription(
      { type: 'ChangeStatus', status: 'canceled', changedBy: userId, reason: 'admin' },
      active,
      now,
    ).reduce(evolveSubscription, active);
    expect(
      decideSubscription(
        { type: 'ApplyStripeEvent', stripeEventId: 'evt_1', subscription: snapshot('sub_1', 'active'), invoice: null },
        canceled,
        now,
      ),
    ).toEqual([]);
  });

  it('does not let a late end of an older subscription override the current one', () => {
    const renewed = apply(
      apply(trialing, 'evt_1', snapshot('sub_old', 'canceled')),
      'evt_2',
      snapshot('sub_new', 'active'),
    );
    const late = apply(renewed, 'evt_3', snapshot('sub_old', 'canceled'));
    expect(late.status).toBe('active');
  });

  it('keeps access after cancelling at period end until the end, by the clock it is given', () => {
    const cancelling = apply(trialing, 'evt_1', snapshot('sub_1', 'active', { cancelAtPeriodEnd: true }));
    if (cancelling.status === 'none') throw new Error('no subscription');
    expect(effectiveStatus(cancelling, new Date('2026-12-21T09:59:59.000Z'))).toBe('active');
    expect(effectiveStatus(cancelling, new Date('2026-12-21T10:00:00.000Z'))).toBe('canceled');
    expect(subscriptionView(cancelling, new Date('2026-12-22T00:00:00.000Z'))).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: false,
      nextPaymentDate: null,
    });
  });

  it('extends a trial from its end, or from now when it had ended, and puts the account back on trial', () => {
    const extended = decideSubscription({ type: 'ExtendTrial', days: 5, extendedBy: userId }, trialing, now);
    expect(extended).toEqual([
      {
        type: 'TrialExtended',
        data: { userId, days: 5, trialEndDate: '2026-12-26T10:00:00.000Z', extendedBy: userId, at: now.toISOString() },
      },
    ]);
    const later = new Date('2027-02-01T00:00:00.000Z');
    const canceled = decideSubscription(
      { type: 'ChangeStatus', status: 'canceled', changedBy: userId, reason: 'admin' },
      trialing,
      later,
    ).reduce(evolveSubscription, trialing);
    const events = decideSubscription({ type: 'ExtendTrial', days: 2, extendedBy: userId }, canceled, later);
    expect(events.map((e) => e.type)).toEqual(['TrialExtended', 'SubscriptionStatusChanged']);
    expect(events[0]!.data).toMatchObject({ trialEndDate: '2027-02-03T00:00:00.000Z' });
  });

  it('maps Stripe statuses onto the spec’s list', () => {
    expect(statusFromStripe('active')).toBe('active');
    expect(statusFromStripe('incomplete_expired')).toBe('canceled');
    expect(statusFromStripe('paused')).toBe('unpaid');
    expect(statusFromStripe('something_new')).toBe('incomplete');
  });
});
