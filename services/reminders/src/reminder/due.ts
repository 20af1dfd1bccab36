import { type ReminderFrequency, reminderTimeOffsets } from '@shiplog/schemas';
import { type ActiveReminder, type ReminderEvent, sendKey } from './reminder.ts';

/** The next occurrence of a recurring reminder after `due` (a month on the 31st lands on the 1st–3rd). */
export function nextOccurrence(due: Date, frequency: Exclude<ReminderFrequency, 'once'>): Date {
  const next = new Date(due);
  if (frequency === 'daily') next.setUTCDate(next.getUTCDate() + 1);
  else if (frequency === 'weekly') next.setUTCDate(next.getUTCDate() + 7);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * What is due at `now`, pure: one notification per reminder time whose moment has come and that was not
 * sent for this occurrence (earliest first), then, for a recurring reminder whose due time has passed,
 * the move to the first occurrence after `now`.
 */
export function dueEvents(reminder: ActiveReminder, now: Date, channel: 'email' | 'log'): ReminderEvent[] {
  if (reminder.isCompleted) return [];
  const at = now.toISOString();
  const base = { reminderId: reminder.id, userId: reminder.userId, projectId: reminder.projectId };
  const due = new Date(reminder.dueDate);
  const events: ReminderEvent[] = [];
  const times = [...reminder.reminderTimes].sort((a, b) => reminderTimeOffsets[b].ms - reminderTimeOffsets[a].ms);
  for (const reminderTime of times) {
    const sendAt = due.getTime() - reminderTimeOffsets[reminderTime].ms;
    if (sendAt <= now.getTime() && !reminder.emailsSent[sendKey(reminderTime, reminder.dueDate)]) {
      events.push({
        type: 'ReminderNotificationSent',
        data: { ...base, reminderTime, occurrence: reminder.dueDate, channel, at },
      });
    }
  }
  if (reminder.frequency !== 'once' && due.getTime() <= now.getTime()) {
    let next = nextOccurrence(due, reminder.frequency);
    while (next.getTime() <= now.getTime()) next = nextOccurrence(next, reminder.frequency);
    events.push({ type: 'ReminderRescheduled', data: { ...base, from: reminder.dueDate, to: next.toISOString(), at } });
  }
  return events;
}

/** When the scheduler should next look at this reminder, or null when nothing is left to do. */
export function nextRunAt(reminder: ActiveReminder): Date | null {
  if (reminder.isCompleted) return null;
  const due = new Date(reminder.dueDate).getTime();
  const moments = reminder.reminderTimes
    .filter((t) => !reminder.emailsSent[sendKey(t, reminder.dueDate)])
    .map((t) => due - reminderTimeOffsets[t].ms);
  if (reminder.frequency !== 'once') moments.push(due);
  return moments.length > 0 ? new Date(Math.min(...moments)) : null;
}
