import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { notificationTimeOptions } from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  deterministicId,
  handleCommand,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { RemindersEnv } from '../env.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import { findReminder, listReminders } from '../read-models/reminder-list/index.ts';
import { type ReminderCommand, reminderDecider } from './decide.ts';
import { reminderStream, toView } from './reminder.ts';
import { reminderRoutes } from './routes.ts';

export function remindersApi(context: ServiceContext<RemindersEnv>) {
  const { store, pool, now } = context;

  function idOf(req: Request, param: 'id' | 'projectId'): string {
    const id = req.params[param];
    if (!isId(id))
      throw new NotFoundError(
        param === 'id' ? 'Reminder not found' : 'Project not found',
        param === 'id' ? 'REMINDER_NOT_FOUND' : 'PROJECT_NOT_FOUND',
      );
    return id;
  }

  async function run(
    req: Request,
    res: Response,
    reminderId: string,
    command: ReminderCommand,
    idempotencyKey?: string,
  ) {
    const caller = callerOf(req);
    const result = await handleCommand(store, reminderStream(reminderId), reminderDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      idempotencyKey,
      now: now(),
    });
    if (result.position) reportPosition(res, 'reminders', result.position);
    if (result.state.lifecycle !== 'active') throw new NotFoundError('Reminder not found', 'REMINDER_NOT_FOUND');
    return toView(result.state);
  }

  return serveRoutes(reminderRoutes, {
    'GET /reminders': async (req, res) => {
      res.json(await listReminders(pool, requireUserId(req)));
    },

    'GET /reminders/options/notification-times': (_req, res) => {
      res.json(notificationTimeOptions);
    },

    'GET /reminders/project/:projectId': async (req, res) => {
      const userId = requireUserId(req);
      const project = await knownProjects.find(pool, idOf(req, 'projectId'));
      if (!project || project.userId !== userId) throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
      res.json(await listReminders(pool, userId, project.id));
    },

    'GET /reminders/:id': async (req, res) => {
      const reminder = await findReminder(pool, requireUserId(req), idOf(req, 'id'));
      if (!reminder) throw new NotFoundError('Reminder not found', 'REMINDER_NOT_FOUND');
      res.json(reminder);
    },

    'POST /reminders': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const input = parsed.body;
      // The project may have been created a moment ago: wait for our view of projects to include it.
      await catchUp(req);
      const project = isId(input.projectId) ? await knownProjects.find(pool, input.projectId) : null;
      const { id: reminderId, idempotencyKey } = createdId(req, userId, 'reminder');
      res
        .status(201)
        .json(
          await run(req, res, reminderId, { type: 'AddReminder', reminderId, userId, project, input }, idempotencyKey),
        );
    },

    // Import from a Shiplog export (the gateway's `POST /api/import`, gateway/src/actions/export.ts): the
    // file's reminders, each for one of the user's imported projects (its id here); answers their ids here
    // and how many it added (the others were imported before). Internal: not on the /api surface.
    'POST /imports/reminders': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { reminders } = parsed.body;
      // The projects were imported a moment ago: wait for our view of projects to include them.
      await catchUp(req);
      const ids: Record<string, string> = {};
      let added = 0;
      for (const input of reminders) {
        const project = isId(input.projectId) ? await knownProjects.find(pool, input.projectId) : null;
        const reminderId = deterministicId(`import-reminder:${userId}:${input.id}`);
        const result = await handleCommand(
          store,
          reminderStream(reminderId),
          reminderDecider,
          { type: 'ImportReminder', reminderId, userId, project, input },
          { userId, correlationId: callerOf(req).correlationId, retries: 1, now: now() },
        );
        if (result.position) reportPosition(res, 'reminders', result.position);
        if (result.events.length > 0) added++;
        ids[input.id] = reminderId;
      }
      res.json({ ids, added });
    },

    'PATCH /reminders/:id': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const input = parsed.body;
      res.json(await run(req, res, idOf(req, 'id'), { type: 'UpdateReminder', userId, input }));
    },

    'POST /reminders/:id/complete': async (req, res) => {
      res.json(await run(req, res, idOf(req, 'id'), { type: 'CompleteReminder', userId: requireUserId(req) }));
    },

    'POST /reminders/:id/reactivate': async (req, res) => {
      res.json(await run(req, res, idOf(req, 'id'), { type: 'ReactivateReminder', userId: requireUserId(req) }));
    },

    'DELETE /reminders/:id': async (req, res) => {
      const userId = requireUserId(req);
      const caller = callerOf(req);
      const result = await handleCommand(
        store,
        reminderStream(idOf(req, 'id')),
        reminderDecider,
        { type: 'DeleteReminder', userId, reason: 'user' },
        { userId: caller.userId, correlationId: caller.correlationId, now: now() },
      );
      if (result.position) reportPosition(res, 'reminders', result.position);
      res.status(204).end();
    },
  });
}
