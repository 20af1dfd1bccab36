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
  it('reads as month, day and year', () => {
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
