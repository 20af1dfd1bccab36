import { formatDistance } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatTimeAgo } from './time-ago';

describe('formatTimeAgo', () => {
  it('says how long ago or until, in the words date-fns uses, from seconds to years, either way', () => {
    const now = new Date(2026, 10, 24, 12, 30, 15);
    const seconds = [0, 1, 29, 30, 59, 60, 89, 90, 119, 120, 149, 150];
    for (let minutes = 3; minutes < 60 * 24 * 365 * 6; minutes = Math.ceil(minutes * 1.07))
      seconds.push(minutes * 60, minutes * 60 + 31);
    for (const s of seconds) {
      for (const sign of [-1, 1]) {
        const date = new Date(now.getTime() + sign * s * 1000);
        expect(formatTimeAgo(date, now)).toBe(formatDistance(date, now, { addSuffix: true }));
      }
    }
  });

  it('takes an ISO string and reads the clock by default', () => {
    expect(formatTimeAgo(new Date(Date.now() - 5 * 60_000).toISOString())).toBe('5 minutes ago');
  });
});
