import { NotFoundError } from '@shiplog/errors';
import {
  type Batch,
  type ConsumerDefinition,
  causedBy,
  handleCommand,
  moveWithProject,
  type ReceivedEvent,
  type ServiceContext,
} from '@shiplog/service-kit';
import type pg from 'pg';
import type { RemindersEnv } from '../../env.ts';
import { knownProjects } from '../../read-models/known-projects/index.ts';
import { reminderDecider } from '../../reminder/decide.ts';
import { reminderStream } from '../../reminder/reminder.ts';

/**
 * The cascade: a deleted project's reminders go. One consumer reads the users', the projects' and the
 * reminders' events, in the bus's one order, keeping what this service knows of them
 * (read-models/known-projects), so a reminder added just as its project is deleted is seen after the
 * deletion and deleted too: no race between two consumers. A moved project's reminders are stated again
 * under its new key. It appends (ReminderDeleted, ReminderMoved), so it is a reaction, not a rebuildable
 * projection.
 */
export function projectsReaction(context: ServiceContext<RemindersEnv>): ConsumerDefinition {
  const deleteReminder = (
    event: ReceivedEvent,
    tx: pg.PoolClient,
    reminderId: string,
    userId: string,
    space: string | undefined,
  ) =>
    handleCommand(
      context.store,
      reminderStream(reminderId),
      reminderDecider,
      { type: 'DeleteReminder', reason: 'project_deleted', space: space ?? null },
      causedBy(event, tx, `cascade:${event.id}:${reminderId}`, userId),
    ).catch((error: unknown) => {
      // Already gone (the user deleted it first): nothing to cascade.
      if (error instanceof NotFoundError) return;
      throw error;
    });

  return {
    name: 'projects',
    sources: ['identity', 'projects', 'reminders'],
    handlers: {
      // Who and what (deferred to the batch's commit); the two handlers that read or change
      // reminders.projects at once flush those writes first.
      ...knownProjects.handlers,
      ProjectDeleted: async (event, tx, batch) => {
        const { projectId, userId, workspaceId } = event.data;
        await batch.flush();
        await knownProjects.deleted(tx, projectId);
        const { rows } = await tx.query<{ reminder_id: string }>(
          'DELETE FROM reminders.project_reminders WHERE project_id = $1 RETURNING reminder_id',
          [projectId],
        );
        for (const row of rows) await deleteReminder(event, tx, row.reminder_id, userId, workspaceId);
      },
      // Its reminders go with it, each stated again under the project's new key (decision 058).
      ProjectMovedIn: async (event, tx, batch) => {
        await knownProjects.handlers.ProjectMovedIn(event, tx, batch);
        const { rows } = await tx.query<{ reminder_id: string }>(
          'SELECT reminder_id FROM reminders.project_reminders WHERE project_id = $1',
          [event.data.projectId],
        );
        const ids = rows.map((row) => row.reminder_id);
        await moveWithProject(context.store, event, tx, { ids, stream: reminderStream }, reminderDecider);
      },
      ReminderAdded: async (event, tx, batch) => followReminder(event, tx, batch),
      ReminderImported: async (event, tx, batch) => followReminder(event, tx, batch),
      ReminderDeleted: async ({ data }, tx) => {
        await tx.query('DELETE FROM reminders.project_reminders WHERE reminder_id = $1', [data.reminderId]);
      },
    },
  };

  /** A reminder joins its project's list, or goes at once if the project was deleted meanwhile. */
  async function followReminder(
    event: ReceivedEvent<'ReminderAdded' | 'ReminderImported'>,
    tx: pg.PoolClient,
    batch: Batch,
  ) {
    const { reminderId, projectId, userId, workspaceId } = event.data;
    await batch.flush();
    if (await knownProjects.isDeleted(tx, projectId)) {
      await deleteReminder(event, tx, reminderId, userId, workspaceId);
      return;
    }
    await tx.query(
      'INSERT INTO reminders.project_reminders (reminder_id, project_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [reminderId, projectId, userId],
    );
  }
}
