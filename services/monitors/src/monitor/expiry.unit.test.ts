import { describe, expect, it } from 'vitest';
import { daysLeft, expiryWarning, isNewWarning } from './expiry.ts';

const now = new Date('2026-11-26T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);

describe('a certificate’s end', () => {
  it('is warned of at 14, 7 and 1 days, and not before or after it ends', () => {
    expect(expiryWarning(inDays(30), now)).toBeNull();
    expect(expiryWarning(inDays(14.01), now)).toBeNull();
    expect(expiryWarning(inDays(14), now)).toBe(14);
    expect(expiryWarning(inDays(8), now)).toBe(14);
    expect(expiryWarning(inDays(7), now)).toBe(7);
    expect(expiryWarning(inDays(1.5), now)).toBe(7);
    expect(expiryWarning(inDays(0.5), now)).toBe(1);
    expect(expiryWarning(inDays(-1), now)).toBeNull();
    expect(daysLeft(inDays(6.2), now)).toBe(7);
    expect(daysLeft(inDays(0.1), now)).toBe(1);
  });

  it('is warned of once at each, and again for a renewed certificate', () => {
    const end = inDays(10).toISOString();
    expect(isNewWarning(14, end, null)).toBe(true);
    expect(isNewWarning(14, end, { expiresAt: end, days: 14 })).toBe(false);
    expect(isNewWarning(7, end, { expiresAt: end, days: 14 })).toBe(true);
    expect(isNewWarning(14, end, { expiresAt: end, days: 7 })).toBe(false);
    expect(isNewWarning(14, inDays(12).toISOString(), { expiresAt: end, days: 7 })).toBe(true);
  });
});
