import { NotFoundError } from '@shiplog/errors';
import {
  type Batch,
  type ConsumerDefinition,
  handleCommand,
  type ReceivedEvent,
  type ServiceContext,
} from '@shiplog/service-kit';
import type pg from 'pg';
import type { RemindersEnv } from '../../env.ts';
import type { OwnedProject } from '../../reminder/decide.ts';
import { reminderDecider } from '../../reminder/decide.ts';
import { reminderStream } from '../../reminder/reminder.ts';

/**
 * Projects as this service knows them, and the cascade: a deleted project's reminders go. One consumer
 * reads both the projects' and the reminders' events, in the bus's one order, so a reminder added
 * just as its project is deleted is seen after the deletion and deleted too: no race between two
 * consumers. It appends (ReminderDeleted), so it is a reaction, not a rebuildable projection.
 */
export function projectsReaction(context: ServiceContext<RemindersEnv>): ConsumerDefinition {
  const deleteReminder = (event: ReceivedEvent, tx: pg.PoolClient, reminderId: string, userId: string) =>
    handleCommand(
      context.store,
      reminderStream(reminderId),
      reminderDecider,
      { type: 'DeleteReminder', userId, reason: 'project_deleted' },
      {
        userId,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        now: new Date(event.occurredAt),
        transaction: tx,
        idempotencyKey: `cascade:${event.id}:${reminderId}`,
      },
    ).catch((error: unknown) => {
      // Already gone (the user deleted it first): nothing to cascade.
      if (error instanceof NotFoundError) return;
      throw error;
    });

  return {
    name: 'projects',
    sources: ['identity', 'projects', 'reminders'],
    handlers: {
      // Writes that only fill in who and what is deferred to the batch's commit (see Batch); the two
      // handlers that read or change reminders.projects immediately flush them first.
      UserRegistered: async ({ data }, _tx, { defer }) => {
        defer(
          `INSERT INTO reminders.users (user_id, username, email) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`,
          [data.userId, data.username, data.email],
        );
      },
      // A changed address is unproven until its owner opens the link mailed to it.
      AccountInfoUpdated: async ({ data }, _tx, { defer }) => {
        defer(
          `UPDATE reminders.users SET email = $1, email_verified = email_verified AND coalesce(lower(email) = lower($1), false)
           WHERE user_id = $2`,
          [data.email, data.userId],
        );
      },
      EmailVerified: async ({ data }, _tx, { defer }) => {
        defer('UPDATE reminders.users SET email_verified = true WHERE user_id = $1 AND lower(email) = lower($2)', [
          data.userId,
          data.email,
        ]);
      },
      ProjectCreated: async ({ data }, _tx, { defer }) => knowProject(defer, data),
      ProjectImported: async ({ data }, _tx, { defer }) => knowProject(defer, data),
      ProjectUpdated: async ({ data }, _tx, { defer }) => {
        if (data.changes.name !== undefined)
          defer('UPDATE reminders.projects SET name = $1 WHERE project_id = $2', [data.changes.name, data.projectId]);
      },
      ProjectDeleted: async (event, tx, batch) => {
        const { projectId, userId } = event.data;
        await batch.flush();
        await tx.query('UPDATE reminders.projects SET deleted = true WHERE project_id = $1', [projectId]);
        const { rows } = await tx.query<{ reminder_id: string }>(
          'DELETE FROM reminders.project_reminders WHERE project_id = $1 RETURNING reminder_id',
          [projectId],
        );
        for (const row of rows) await deleteReminder(event, tx, row.reminder_id, userId);
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
    const { reminderId, projectId, userId } = event.data;
    await batch.flush();
    const { rows } = await tx.query<{ deleted: boolean }>(
      'SELECT deleted FROM reminders.projects WHERE project_id = $1',
      [projectId],
    );
    if (rows[0]?.deleted) {
      await deleteReminder(event, tx, reminderId, userId);
      return;
    }
    await tx.query(
      'INSERT INTO reminders.project_reminders (reminder_id, project_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [reminderId, projectId, userId],
    );
  }
}

function knowProject(defer: Batch['defer'], project: { projectId: string; userId: string; name: string }) {
  defer(
    `INSERT INTO reminders.projects (project_id, user_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id) DO NOTHING`,
    [project.projectId, project.userId, project.name],
  );
}

export async function findOwnedProject(pool: pg.Pool, projectId: string): Promise<OwnedProject | null> {
  const { rows } = await pool.query<{ project_id: string; user_id: string; name: string }>(
    'SELECT project_id, user_id, name FROM reminders.projects WHERE project_id = $1 AND NOT deleted',
    [projectId],
  );
  const row = rows[0];
  return row ? { id: row.project_id, userId: row.user_id, name: row.name } : null;
}
