import { NotFoundError } from '@shiplog/errors';
import type { CreateReminderInput, ImportedReminder, UpdateReminderInput } from '@shiplog/schemas';
import { type Decider, inSpace } from '@shiplog/service-kit';
import { dueEvents } from './due.ts';
import { type ActiveReminder, evolveReminder, initialReminder, type Reminder, type ReminderEvent } from './reminder.ts';

/**
 * The project a new reminder attaches to, as the service knows it (`knownProjects`): null when it does
 * not know it or the caller may not add to it (the route decided that: `parsed.project`).
 */
export interface ReminderProject {
  id: string;
  name: string;
}

/**
 * What the reminder is asked to do, and `space`: the team workspace its project is in now (null for a
 * personal one), as whoever asks knows it. Every event decided names it, so a team's reminder is
 * sealed with the team's key and outlives its author's erasure (decision 056).
 */
export type ReminderCommand = ReminderAction & { space: string | null };

type ReminderAction =
  | {
      type: 'AddReminder';
      reminderId: string;
      userId: string;
      project: ReminderProject | null;
      input: CreateReminderInput;
    }
  /** From an export file, for one of its imported projects; the id is derived from the file's. */
  | {
      type: 'ImportReminder';
      reminderId: string;
      userId: string;
      project: ReminderProject | null;
      input: ImportedReminder;
    }
  | { type: 'UpdateReminder'; input: UpdateReminderInput }
  | { type: 'CompleteReminder' }
  | { type: 'ReactivateReminder' }
  | { type: 'DeleteReminder'; reason: 'user' | 'project_deleted' }
  /**
   * Its project moved to another space (the command's `space`): the reminder stated again whole, under
   * that space's key (decision 058). Nothing for one that is gone.
   */
  | { type: 'MoveWithProject' }
  /** The scheduler's tick: what is due at the decision's `now`. */
  | { type: 'ProcessDue'; channel: 'email' | 'log' };

const reminderNotFound = () => new NotFoundError('Reminder not found', 'REMINDER_NOT_FOUND');

/**
 * A deleted reminder and a missing one answer the same 404. Who may change it is not decided here: the
 * route decided it from the caller's role on the reminder's project (`parsed.project`), and whether an
 * assignee may be given it from theirs.
 */
function liveReminder(state: Reminder): ActiveReminder {
  if (state.lifecycle !== 'active') throw reminderNotFound();
  return state;
}

const projectNotFound = () => new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');

export function decideReminder(command: ReminderCommand, state: Reminder, now: Date): ReminderEvent[] {
  return inSpace(decideAction(command, state, now), command.space);
}

function decideAction(command: ReminderAction, state: Reminder, now: Date): ReminderEvent[] {
  const at = now.toISOString();
  if (command.type === 'AddReminder') {
    // The same add again (its Idempotency-Key names the same reminder): it is made already.
    if (state.lifecycle !== 'none') return [];
    // A reminder attaches only to a project the service knows (and the caller may add to: the route's).
    if (!command.project) throw projectNotFound();
    const { input, project } = command;
    return [
      {
        type: 'ReminderAdded',
        data: {
          reminderId: command.reminderId,
          userId: command.userId,
          projectId: project.id,
          projectName: project.name,
          title: input.title,
          description: input.description,
          dueDate: input.dueDate.toISOString(),
          reminderTimes: input.reminderTimes,
          frequency: input.frequency,
          isCompleted: input.isCompleted,
          ...(input.assigneeId && input.assigneeId !== command.userId ? { assigneeId: input.assigneeId } : {}),
          at,
        },
      },
    ];
  }
  if (command.type === 'ImportReminder') {
    // Imported before (the same file again): nothing to do, whatever became of it since.
    if (state.lifecycle !== 'none') return [];
    if (!command.project) throw projectNotFound();
    const { input, project } = command;
    const iso = (date: string | Date) => new Date(date).toISOString();
    return [
      {
        type: 'ReminderImported',
        data: {
          reminderId: command.reminderId,
          userId: command.userId,
          projectId: project.id,
          projectName: project.name,
          importedFrom: input.id,
          title: input.title,
          description: input.description,
          dueDate: iso(input.dueDate),
          reminderTimes: input.reminderTimes,
          frequency: input.frequency,
          isCompleted: input.isCompleted,
          emailsSent: Object.fromEntries(Object.entries(input.emailsSent).map(([key, sent]) => [key, iso(sent)])),
          lastSentAt: input.lastSentAt === null ? null : iso(input.lastSentAt),
          createdAt: iso(input.createdAt),
          updatedAt: iso(input.updatedAt),
          at,
        },
      },
    ];
  }
  if (command.type === 'ProcessDue') return state.lifecycle === 'active' ? dueEvents(state, now, command.channel) : [];
  if (command.type === 'MoveWithProject') {
    if (state.lifecycle !== 'active') return [];
    const { lifecycle: _lifecycle, id: reminderId, ...reminder } = state;
    return [{ type: 'ReminderMoved', data: { reminderId, ...reminder, at } }];
  }
  const reminder = liveReminder(state);
  const base = {
    reminderId: reminder.id,
    userId: reminder.userId,
    projectId: reminder.projectId,
    projectName: reminder.projectName,
    title: reminder.title,
  };
  switch (command.type) {
    case 'UpdateReminder': {
      const { input } = command;
      const changes: Extract<ReminderEvent, { type: 'ReminderUpdated' }>['data']['changes'] = {};
      if (input.title !== undefined && input.title !== reminder.title) changes.title = input.title;
      if (input.description !== undefined && input.description !== reminder.description)
        changes.description = input.description;
      if (input.dueDate !== undefined && input.dueDate.toISOString() !== reminder.dueDate)
        changes.dueDate = input.dueDate.toISOString();
      if (input.reminderTimes !== undefined && input.reminderTimes.join() !== reminder.reminderTimes.join())
        changes.reminderTimes = input.reminderTimes;
      if (input.frequency !== undefined && input.frequency !== reminder.frequency) changes.frequency = input.frequency;
      if (input.assigneeId !== undefined && input.assigneeId !== reminder.assigneeId)
        changes.assigneeId = input.assigneeId;
      const events: ReminderEvent[] = [];
      if (Object.keys(changes).length > 0)
        events.push({
          type: 'ReminderUpdated',
          data: { ...base, title: changes.title ?? reminder.title, changes, at },
        });
      // The edit form's isCompleted box completes or reactivates.
      if (input.isCompleted === true && !reminder.isCompleted)
        events.push({ type: 'ReminderCompleted', data: { ...base, title: changes.title ?? reminder.title, at } });
      if (input.isCompleted === false && reminder.isCompleted)
        events.push({ type: 'ReminderReactivated', data: { ...base, title: changes.title ?? reminder.title, at } });
      return events;
    }
    case 'CompleteReminder':
      return reminder.isCompleted ? [] : [{ type: 'ReminderCompleted', data: { ...base, at } }];
    case 'ReactivateReminder':
      return reminder.isCompleted ? [{ type: 'ReminderReactivated', data: { ...base, at } }] : [];
    case 'DeleteReminder':
      return [
        {
          type: 'ReminderDeleted',
          data: {
            reminderId: reminder.id,
            userId: reminder.userId,
            projectId: reminder.projectId,
            title: reminder.title,
            reason: command.reason,
            at,
          },
        },
      ];
  }
}

export const reminderDecider: Decider<Reminder, ReminderCommand, ReminderEvent> = {
  initialState: initialReminder,
  evolve: evolveReminder,
  decide: decideReminder,
};
