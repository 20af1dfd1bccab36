import type { EventOf } from '@shiplog/events';
import type { Reminder as ReminderView } from '@shiplog/schemas';

export type ReminderEvent =
  | EventOf<'ReminderAdded'>
  | EventOf<'ReminderImported'>
  | EventOf<'ReminderUpdated'>
  | EventOf<'ReminderCompleted'>
  | EventOf<'ReminderReactivated'>
  | EventOf<'ReminderNotificationSent'>
  | EventOf<'ReminderRescheduled'>
  | EventOf<'ReminderMoved'>
  | EventOf<'ReminderDeleted'>;

/** A live reminder: the API's view of it, plus its lifecycle. */
export type ActiveReminder = ReminderView & { lifecycle: 'active' };

/** A reminder, folded from its `reminder-<id>` stream. */
export type Reminder =
  | { lifecycle: 'none' }
  | ActiveReminder
  | { lifecycle: 'deleted'; id: string; userId: string; projectId: string };

export const initialReminder = (): Reminder => ({ lifecycle: 'none' });

export function evolveReminder(state: Reminder, event: ReminderEvent): Reminder {
  if (event.type === 'ReminderAdded') {
    const d = event.data;
    return {
      lifecycle: 'active',
      id: d.reminderId,
      userId: d.userId,
      assigneeId: d.assigneeId ?? d.userId,
      projectId: d.projectId,
      projectName: d.projectName,
      title: d.title,
      description: d.description,
      dueDate: d.dueDate,
      reminderTimes: d.reminderTimes,
      frequency: d.frequency,
      isCompleted: d.isCompleted,
      emailsSent: {},
      lastSentAt: null,
      createdAt: d.at,
      updatedAt: d.at,
    };
  }
  if (event.type === 'ReminderImported') {
    const { importedFrom: _from, reminderId, at: _at, ...reminder } = event.data;
    // An export holds the account's own projects' reminders: its own again.
    return { lifecycle: 'active', id: reminderId, assigneeId: reminder.userId, ...reminder };
  }
  if (event.type === 'ReminderMoved') {
    // Whole, as it stood when its project moved: its earlier events may no longer be readable.
    const { reminderId, workspaceId: _space, at: _at, ...reminder } = event.data;
    return { lifecycle: 'active', id: reminderId, ...reminder };
  }
  if (state.lifecycle !== 'active') return state;
  switch (event.type) {
    case 'ReminderUpdated':
      return { ...state, ...event.data.changes, updatedAt: event.data.at };
    case 'ReminderCompleted':
      return { ...state, isCompleted: true, updatedAt: event.data.at };
    case 'ReminderReactivated':
      return { ...state, isCompleted: false, updatedAt: event.data.at };
    case 'ReminderNotificationSent':
      return {
        ...state,
        emailsSent: { ...state.emailsSent, [sendKey(event.data.reminderTime, event.data.occurrence)]: event.data.at },
        lastSentAt: event.data.at,
      };
    case 'ReminderRescheduled':
      return { ...state, dueDate: event.data.to, updatedAt: event.data.at };
    case 'ReminderDeleted':
      return { lifecycle: 'deleted', id: state.id, userId: state.userId, projectId: state.projectId };
  }
}

export function toView(reminder: ActiveReminder): ReminderView {
  const { lifecycle: _lifecycle, ...view } = reminder;
  return view;
}

export function fromView(view: ReminderView): ActiveReminder {
  return { lifecycle: 'active', ...view };
}

export const reminderStream = (reminderId: string) => `reminder-${reminderId}`;

/** One send: a reminder time of one occurrence (a recurring reminder's due date moves on). */
export const sendKey = (reminderTime: string, occurrence: string) => `${reminderTime}@${occurrence}`;
