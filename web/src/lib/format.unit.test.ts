import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatCost, formatDate, initials, projectNameOf } from './format';

describe('formatCost', () => {
  it('shows cents as dollars with two decimals', () => {
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(1999)).toBe('$19.99');
    expect(formatCost(5)).toBe('$0.05');
    expect(formatCost(123456789)).toBe('$1234567.89');
  });

  it('shows N/A when there is no cost', () => {
    expect(formatCost(null)).toBe('N/A');
    expect(formatCost(undefined)).toBe('N/A');
  });
});

describe('formatDate', () => {
  it('writes every pattern the app uses as date-fns does, at every hour and on every weekday and month', () => {
    const patterns = [
      'MMM d, yyyy',
      'MMM d, yyyy h:mm a',
      'yyyy-MM-dd',
      'HH:mm',
      'h:mm a',
      'MMM d, h:mm a',
      'EEEE',
      'p',
    ];
    // Every hour of one day (midnight and noon included), and a day in each month of a leap year.
    const dates = [
      ...Array.from({ length: 24 }, (_, hour) => new Date(2026, 10, 24, hour, hour * 2 + 1)),
      ...Array.from({ length: 12 }, (_, month) => new Date(2028, month, month + 1, 9, 5)),
      new Date(2028, 1, 29, 23, 59),
      new Date(1999, 11, 31, 0, 0),
    ];
    for (const date of dates)
      for (const pattern of patterns) expect(formatDate(date, pattern)).toBe(format(date, pattern));
  });

  it('takes an ISO string, and shows month, day and year by default', () => {
    // Midday UTC: the same calendar day in every time zone the tests may run in.
    expect(formatDate('2026-03-07T12:00:00.000Z')).toBe('Mar 7, 2026');
  });
});

describe('projectNameOf', () => {
  it('is the part of an activity’s details after ": "', () => {
    expect(projectNameOf('Created project: Shiplog')).toBe('Shiplog');
    expect(projectNameOf('Completed reminder "Renew": Side Quest')).toBe('Side Quest');
  });

  it('is undefined for details that name no project', () => {
    expect(projectNameOf('Password changed')).toBeUndefined();
  });
});

describe('initials', () => {
  it('is the username’s first two letters in upper case', () => {
    expect(initials('ada')).toBe('AD');
    expect(initials('  bo ')).toBe('BO');
    expect(initials('x')).toBe('X');
  });

  it('is U without a name', () => {
    expect(initials(null)).toBe('U');
    expect(initials(undefined)).toBe('U');
    expect(initials('   ')).toBe('U');
  });
});
