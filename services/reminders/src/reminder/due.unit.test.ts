import { describe, expect, it } from 'vitest';
import { dueEvents, nextOccurrence, nextRunAt } from './due.ts';
import { type ActiveReminder, evolveReminder } from './reminder.ts';

const due = '2026-12-01T12:00:00.000Z';
const reminder: ActiveReminder = {
  lifecycle: 'active',
  id: '0193a1b2-0000-7000-8000-00000000000c',
  userId: '0193a1b2-0000-7000-8000-00000000000a',
  assigneeId: '0193a1b2-0000-7000-8000-00000000000a',
  projectId: '0193a1b2-0000-7000-8000-00000000000d',
  projectName: 'Launchpad',
  title: 'Renew domain',
  description: null,
  dueDate: due,
  reminderTimes: ['at_time', '1_hour_before'],
  frequency: 'once',
  isCompleted: false,
  emailsSent: {},
  lastSentAt: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};
const at = (iso: string) => new Date(iso);

describe('due reminders', () => {
  it('sends each reminder time once, when its moment comes', () => {
    expect(dueEvents(reminder, at('2026-12-01T10:59:00Z'), 'email')).toEqual([]);
    expect(nextRunAt(reminder)?.toISOString()).toBe('2026-12-01T11:00:00.000Z');
    const first = dueEvents(reminder, at('2026-12-01T11:00:00Z'), 'email');
    expect(first.map((e) => (e.data as { reminderTime: string }).reminderTime)).toEqual(['1_hour_before']);
    const afterFirst = first.reduce(evolveReminder, reminder) as ActiveReminder;
    expect(dueEvents(afterFirst, at('2026-12-01T11:30:00Z'), 'email')).toEqual([]);
    expect(nextRunAt(afterFirst)?.toISOString()).toBe(due);
    const second = dueEvents(afterFirst, at('2026-12-01T12:00:05Z'), 'email');
    expect(second.map((e) => e.type)).toEqual(['ReminderNotificationSent']);
    expect(nextRunAt(second.reduce(evolveReminder, afterFirst) as ActiveReminder)).toBeNull();
  });

  it('rolls a recurring reminder forward, then sends for the next occurrence', () => {
    const daily = { ...reminder, frequency: 'daily' as const, reminderTimes: ['1_hour_before' as const] };
    const events = dueEvents(daily, at('2026-12-01T12:01:00Z'), 'log');
    expect(events.map((e) => e.type)).toEqual(['ReminderNotificationSent', 'ReminderRescheduled']);
    const rolled = events.reduce(evolveReminder, daily) as ActiveReminder;
    expect(rolled.dueDate).toBe('2026-12-02T12:00:00.000Z');
    expect(nextRunAt(rolled)?.toISOString()).toBe('2026-12-02T11:00:00.000Z');
    expect(
      dueEvents(rolled, at('2026-12-02T11:00:00Z'), 'log').map((e) => (e.data as { occurrence?: string }).occurrence),
    ).toEqual(['2026-12-02T12:00:00.000Z']);
  });

  it('skips completed reminders and steps weeks and months', () => {
    expect(dueEvents({ ...reminder, isCompleted: true }, at('2026-12-02T00:00:00Z'), 'email')).toEqual([]);
    expect(nextOccurrence(at(due), 'weekly').toISOString()).toBe('2026-12-08T12:00:00.000Z');
    expect(nextOccurrence(at(due), 'monthly').toISOString()).toBe('2027-01-01T12:00:00.000Z');
  });
});
