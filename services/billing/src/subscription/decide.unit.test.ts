import { describe, expect, it } from 'vitest';
import { decideSubscription, TRIAL_DAYS } from './decide.ts';
import { evolveSubscription, initialSubscription } from './subscription.ts';

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
