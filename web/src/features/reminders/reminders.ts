import type { Reminder } from '@shiplog/schemas';
import { differenceInCalendarDays } from 'date-fns';
import { formatDate } from '../../lib/format';

// Every label here reads one clock, the `now` it is passed: date-fns' isToday and isTomorrow read the
// real one, so a label built on them was right only on the day its test was written.

/** spec/core.md §2: upcoming, due today (amber), overdue (red: past due, not completed), completed (green). */
export type ReminderState = 'upcoming' | 'today' | 'overdue' | 'completed';

export function reminderState(reminder: Pick<Reminder, 'dueDate' | 'isCompleted'>, now = new Date()): ReminderState {
  if (reminder.isCompleted) return 'completed';
  const due = new Date(reminder.dueDate);
  if (due.getTime() < now.getTime()) return 'overdue';
  return differenceInCalendarDays(due, now) === 0 ? 'today' : 'upcoming';
}

/** The bell's label: whole days from now, rounded up (spec/core.md §4). */
export function relativeDueLabel(dueDate: string, now = new Date()): string {
  const days = Math.ceil((new Date(dueDate).getTime() - now.getTime()) / 86_400_000);
  if (days < 0) return 'Overdue';
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  if (days < 7) return `In ${days} days`;
  return new Date(dueDate).toLocaleDateString();
}

/** The dashboard's due badge: red overdue, amber today, blue tomorrow, green otherwise. */
export function dueBadge(dueDate: string, now = new Date()): { text: string; className: string } {
  const due = new Date(dueDate);
  const time = formatDate(due, 'h:mm a');
  if (due.getTime() < now.getTime())
    return {
      text: `Overdue · ${formatDate(due, 'MMM d, h:mm a')}`,
      className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
    };
  const days = differenceInCalendarDays(due, now);
  if (days === 0)
    return { text: `Today, ${time}`, className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300' };
  if (days === 1)
    return { text: `Tomorrow, ${time}`, className: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300' };
  const text = days < 7 ? `${formatDate(due, 'EEEE')}, ${time}` : formatDate(due, 'MMM d, h:mm a');
  return { text, className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300' };
}

/**
 * Active reminders by due date (the bell and the dashboard list only those), and only those assigned to
 * `assignee` when given: a member's bell holds their own, not the rest of their team's.
 */
export function activeByDueDate<R extends Pick<Reminder, 'dueDate' | 'isCompleted' | 'assigneeId'>>(
  reminders: R[],
  assignee?: string,
): R[] {
  return reminders
    .filter((r) => !r.isCompleted && (assignee === undefined || r.assigneeId === assignee))
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
}

/**
 * The reminders page's groups, in the order shown: overdue, due today, upcoming (each by due date),
 * then completed (latest due first).
 */
export function groupByState<R extends Pick<Reminder, 'dueDate' | 'isCompleted'>>(
  reminders: R[],
  now = new Date(),
): Record<ReminderState, R[]> {
  const groups: Record<ReminderState, R[]> = { overdue: [], today: [], upcoming: [], completed: [] };
  for (const reminder of [...reminders].sort((a, b) => a.dueDate.localeCompare(b.dueDate)))
    groups[reminderState(reminder, now)].push(reminder);
  groups.completed.reverse();
  return groups;
}
