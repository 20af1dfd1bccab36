import { z } from 'zod';
import { event, id, isoDate } from './shared.ts';
import { reminderFrequencies, reminderTimes } from './values.ts';

const reminderTime = z.enum(reminderTimes);
const reminderFrequency = z.enum(reminderFrequencies);
/**
 * The team workspace the reminder's project was in when the event was decided; absent for a personal
 * project. It names the event's key (`dataSubjectOf`): a team's reminder outlives its author's erasure.
 */
const workspaceId = id.optional();

/** A reminder as it stands, sends made included: what an import or a move states in one event. */
const wholeReminder = {
  reminderId: id,
  userId: id,
  workspaceId,
  projectId: id,
  projectName: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  dueDate: isoDate,
  reminderTimes: z.array(reminderTime).min(1),
  frequency: reminderFrequency,
  isCompleted: z.boolean(),
  emailsSent: z.record(z.string(), isoDate),
  lastSentAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  at: isoDate,
};

// reminders — `reminder-<id>` streams. Each names its project (and its name, for the timeline).
export const reminderEvents = {
  ReminderAdded: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      dueDate: isoDate,
      reminderTimes: z.array(reminderTime).min(1),
      frequency: reminderFrequency,
      isCompleted: z.boolean(),
      /** Who it reaches (its emails, push and calendar feed); absent: its author, as before assignees. */
      assigneeId: id.optional(),
      at: isoDate,
    }),
  }),
  ReminderUpdated: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      changes: z
        .object({
          title: z.string(),
          description: z.string().nullable(),
          dueDate: isoDate,
          reminderTimes: z.array(reminderTime).min(1),
          frequency: reminderFrequency,
          /** Given to another member of the project's workspace. */
          assigneeId: id,
        })
        .partial(),
      at: isoDate,
    }),
  }),
  ReminderCompleted: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      at: isoDate,
    }),
  }),
  ReminderReactivated: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      projectName: z.string(),
      title: z.string(),
      at: isoDate,
    }),
  }),
  /** Recorded before the email goes out: a send is never repeated, by a restart or a second scheduler. */
  ReminderNotificationSent: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      reminderTime,
      occurrence: isoDate,
      channel: z.enum(['email', 'log']),
      at: isoDate,
    }),
  }),
  /** A recurring reminder's occurrence passed: it moves to the next one. */
  ReminderRescheduled: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      from: isoDate,
      to: isoDate,
      at: isoDate,
    }),
  }),
  /**
   * A reminder brought in from a Shiplog export, as it stood (sends already made included, so none is
   * repeated), for an imported project. Its history arrives with the projects' (HistoryImported).
   */
  ReminderImported: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({ ...wholeReminder, importedFrom: z.string() }),
  }),
  /**
   * The reminder's project moved to another space (decision 058): the reminder as it stands, stated
   * again under the new space's key, so its stream reads whole without the key of its earlier events
   * (a team's reminder outlives its author's erasure even when it was written before the move).
   */
  ReminderMoved: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({ ...wholeReminder, assigneeId: id }),
  }),
  ReminderDeleted: event({
    owner: 'reminders',
    version: 1,
    publish: true,
    schema: z.object({
      reminderId: id,
      userId: id,
      workspaceId,
      projectId: id,
      title: z.string(),
      reason: z.enum(['user', 'project_deleted']),
      at: isoDate,
    }),
  }),
} as const satisfies Record<string, { owner: 'reminders' }>;
