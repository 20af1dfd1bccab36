import { describe, expect, it } from 'vitest';
import { adminCommentSchema } from './account.ts';
import { createReminderSchema } from './reminders.ts';

describe('reminder and admin comment dates', () => {
  const reminder = (dueDate: unknown) =>
    createReminderSchema.safeParse({
      title: 'Renew domain',
      dueDate,
      projectId: '0193a1b2-0000-7000-8000-00000000000d',
    });

  it('takes dates people mean, and refuses years a timestamp column cannot hold', () => {
    expect(reminder('2030-01-01T09:00:00.000Z').success).toBe(true);
    expect(reminder('9999-12-31T23:59:59.000Z').success).toBe(true);
    for (const far of ['-010000-01-01T00:00:00.000Z', '+100000-01-01T00:00:00.000Z', -8.64e15]) {
      const result = reminder(far);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Due date must be between the years 1 and 9999');
    }
    expect(reminder('').error?.issues[0]?.message).toBe('Due date is required');
    expect(adminCommentSchema.safeParse({ message: 'Hi', expiresAt: '-010000-01-01T00:00:00.000Z' }).success).toBe(
      false,
    );
    expect(adminCommentSchema.safeParse({ message: 'Hi', expiresAt: null }).success).toBe(true);
  });
});
