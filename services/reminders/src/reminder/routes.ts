import {
  createReminderSchema,
  importedReminderSchema,
  reminderTimes,
  reminderView,
  updateReminderSchema,
} from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/**
 * Dated reminders on projects (answered in `api.ts`). A route about a project or one of its reminders
 * says the least role on that project it needs (`project`): a viewer reads them, a member adds, changes,
 * completes and deletes them. The lists need none: they hold the reminders of every project the user
 * can reach.
 */
export const reminderRoutes = declareRoutes({
  'GET /reminders': {
    tag: 'Reminders',
    summary: 'The user’s reminders',
    access: 'user',
    answer: z.array(reminderView),
  },
  'GET /reminders/options/notification-times': {
    tag: 'Reminders',
    summary: 'The reminder times one may choose, with their labels',
    access: 'user',
    answer: z.array(z.object({ value: z.enum(reminderTimes), label: z.string() })),
  },
  'GET /reminders/project/:projectId': {
    tag: 'Reminders',
    summary: 'One project’s reminders',
    access: 'user',
    project: 'viewer',
    answer: z.array(reminderView),
  },
  'GET /reminders/:id': {
    tag: 'Reminders',
    summary: 'One reminder',
    access: 'user',
    project: 'viewer',
    answer: reminderView,
  },
  'POST /reminders': {
    tag: 'Reminders',
    summary: 'Create a reminder',
    access: 'user',
    project: 'member',
    idempotent: true,
    body: createReminderSchema,
    status: 201,
    answer: reminderView,
  },
  // Import from a Shiplog export (the gateway's `POST /api/import`, gateway/src/actions/export.ts): the
  // gateway splits a file's reminders to stay under the 1 MB body limit.
  'POST /imports/reminders': {
    summary:
      'The file’s reminders, each for one of the user’s imported projects: their ids here, and how many it added',
    access: 'user',
    project: 'member',
    internal: true,
    body: z.object({ reminders: z.array(importedReminderSchema).max(500) }),
    answer: z.object({ ids: z.record(z.string(), z.string()), added: z.number() }),
  },
  'PATCH /reminders/:id': {
    tag: 'Reminders',
    summary: 'Change a reminder',
    access: 'user',
    project: 'member',
    body: updateReminderSchema,
    answer: reminderView,
  },
  'POST /reminders/:id/complete': {
    tag: 'Reminders',
    summary: 'Mark a reminder done',
    access: 'user',
    project: 'member',
    answer: reminderView,
  },
  'POST /reminders/:id/reactivate': {
    tag: 'Reminders',
    summary: 'Make a done reminder active again',
    access: 'user',
    project: 'member',
    answer: reminderView,
  },
  'DELETE /reminders/:id': {
    tag: 'Reminders',
    summary: 'Delete a reminder',
    access: 'user',
    project: 'member',
    status: 204,
  },
});
