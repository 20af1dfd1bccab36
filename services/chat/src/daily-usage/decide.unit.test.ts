import { describe, expect, it } from 'vitest';
import type { DailyUsageEvent } from './daily-usage.ts';
import { usageView } from './daily-usage.ts';
import { DailyLimitExceededError, type DailyUsageCommand, dailyUsageDecider } from './decide.ts';

const userId = '0190a1b2-0000-7000-8000-000000000001';
const date = '2026-11-23';
const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();

const counted: DailyUsageEvent = { type: 'ChatMessageCounted', data: { userId, date, at } };
const boosted: DailyUsageEvent = {
  type: 'DailyBoostGranted',
  data: { userId, date, extraMessages: 9, via: 'request', at },
};

function given(events: DailyUsageEvent[]) {
  const state = events.reduce(dailyUsageDecider.evolve, dailyUsageDecider.initialState());
  return {
    when: (command: DailyUsageCommand) => dailyUsageDecider.decide(command, state, now),
    state,
  };
}

describe('daily usage', () => {
  it('counts a free user’s messages up to 3, then refuses with DAILY_LIMIT_EXCEEDED', () => {
    expect(given([counted, counted]).when({ type: 'CountMessage', userId, date, unlimited: false })).toEqual([counted]);
    expect(() =>
      given([counted, counted, counted]).when({ type: 'CountMessage', userId, date, unlimited: false }),
    ).toThrow(DailyLimitExceededError);
  });

  it('lets the boost add 9, once a day', () => {
    const twelve = [boosted, ...Array.from({ length: 11 }, () => counted)];
    expect(given(twelve).when({ type: 'CountMessage', userId, date, unlimited: false })).toEqual([counted]);
    expect(() => given([...twelve, counted]).when({ type: 'CountMessage', userId, date, unlimited: false })).toThrow(
      DailyLimitExceededError,
    );
    expect(given([]).when({ type: 'GrantDailyBoost', userId, date, via: 'request' })).toEqual([boosted]);
    expect(given([boosted]).when({ type: 'GrantDailyBoost', userId, date, via: 'tool' })).toEqual([]);
  });

  it('never caps a pro user', () => {
    const many = Array.from({ length: 50 }, () => counted);
    expect(given(many).when({ type: 'CountMessage', userId, date, unlimited: true })).toEqual([counted]);
  });

  it('gives a message back when the model failed, never below zero', () => {
    const refunded = given([counted]).when({ type: 'RefundMessage', userId, date });
    expect(refunded).toEqual([{ type: 'ChatMessageRefunded', data: { userId, date, reason: 'provider_failed', at } }]);
    expect(given([counted, ...refunded]).state.messagesUsed).toBe(0);
    expect(given([]).when({ type: 'RefundMessage', userId, date })).toEqual([]);
  });

  it('reads as the client sees it', () => {
    expect(usageView(given([counted]).state, false)).toEqual({
      messagesRemaining: 2,
      boostAvailable: true,
      boostUsed: false,
      totalLimit: 3,
    });
    expect(usageView(given([counted, boosted]).state, false)).toEqual({
      messagesRemaining: 11,
      boostAvailable: false,
      boostUsed: true,
      totalLimit: 12,
    });
    expect(usageView(given([counted]).state, true)).toEqual({
      messagesRemaining: null,
      boostAvailable: false,
      boostUsed: false,
      totalLimit: null,
    });
  });
});
