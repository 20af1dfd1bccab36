import { describe, expect, it } from 'vitest';
import { activeByDueDate, dueBadge, groupByState, relativeDueLabel, reminderState } from './reminders';

const now = new Date('2026-11-21T10:00:00');
const at = (iso: string) => new Date(iso).toISOString();

describe('reminder labels', () => {
  it('states: completed, overdue, today, upcoming', () => {
    expect(reminderState({ dueDate: at('2026-11-20T10:00:00'), isCompleted: true }, now)).toBe('completed');
    expect(reminderState({ dueDate: at('2026-11-21T09:00:00'), isCompleted: false }, now)).toBe('overdue');
    expect(reminderState({ dueDate: at('2026-11-21T18:00:00'), isCompleted: false }, now)).toBe('today');
    expect(reminderState({ dueDate: at('2026-11-24T18:00:00'), isCompleted: false }, now)).toBe('upcoming');
  });

  it('relative due label in whole days, rounded up', () => {
    expect(relativeDueLabel(at('2026-11-20T10:00:00'), now)).toBe('Overdue');
    expect(relativeDueLabel(at('2026-11-21T10:00:00'), now)).toBe('Today');
    expect(relativeDueLabel(at('2026-11-21T20:00:00'), now)).toBe('Tomorrow');
    expect(relativeDueLabel(at('2026-11-23T09:00:00'), now)).toBe('In 2 days');
    expect(relativeDueLabel(at('2026-11-27T09:00:00'), now)).toBe('In 6 days');
    expect(relativeDueLabel(at('2026-11-29T09:00:00'), now)).toBe(
      new Date(at('2026-11-29T09:00:00')).toLocaleDateString(),
    );
  });

  it('due badge: overdue, today, tomorrow, this week, later, all by the clock it is given', () => {
    expect(dueBadge(at('2026-11-21T09:00:00'), now).text).toBe('Overdue · Nov 21, 9:00 AM');
    expect(dueBadge(at('2026-11-21T18:30:00'), now).text).toBe('Today, 6:30 PM');
    expect(dueBadge(at('2026-11-22T08:00:00'), now).text).toBe('Tomorrow, 8:00 AM');
    expect(dueBadge(at('2026-11-25T12:00:00'), now).text).toBe('Wednesday, 12:00 PM');
    expect(dueBadge(at('2026-12-05T12:00:00'), now).text).toBe('Dec 5, 12:00 PM');
    expect(dueBadge(at('2026-11-21T18:30:00'), now).className).toContain('amber');
    expect(dueBadge(at('2026-11-22T08:00:00'), now).className).toContain('blue');
  });

  it('keeps active reminders by due date, those assigned to one member when asked', () => {
    const list = [
      { id: 'b', dueDate: at('2026-11-25T00:00:00'), isCompleted: false, assigneeId: 'ada' },
      { id: 'c', dueDate: at('2026-11-22T00:00:00'), isCompleted: true, assigneeId: 'ada' },
      { id: 'a', dueDate: at('2026-11-23T00:00:00'), isCompleted: false, assigneeId: 'bo' },
    ];
    expect(activeByDueDate(list).map((r) => r.id)).toEqual(['a', 'b']);
    expect(activeByDueDate(list, 'ada').map((r) => r.id)).toEqual(['b']);
  });
});

describe('groupByState', () => {
  it('puts each reminder in one group: overdue, today and upcoming by due date, completed latest first', () => {
    const now = new Date(2026, 10, 24, 12, 0);
    const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0).toISOString();
    const r = (title: string, dueDate: string, isCompleted = false) => ({ title, dueDate, isCompleted });
    const groups = groupByState(
      [
        r('next week', at(30, 9)),
        r('this evening', at(24, 18)),
        r('yesterday', at(23, 9)),
        r('this morning', at(24, 9)),
        r('tomorrow', at(25, 9)),
        r('done long ago', at(1, 9), true),
        r('done tomorrow', at(25, 9), true),
      ],
      now,
    );
    const titles = (list: { title: string }[]) => list.map((x) => x.title);
    expect(titles(groups.overdue)).toEqual(['yesterday', 'this morning']);
    expect(titles(groups.today)).toEqual(['this evening']);
    expect(titles(groups.upcoming)).toEqual(['tomorrow', 'next week']);
    expect(titles(groups.completed)).toEqual(['done tomorrow', 'done long ago']);
  });
});
