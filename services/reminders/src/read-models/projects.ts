import type { BusEvent } from '@shiplog/messaging';
import { type ConsumerDefinition, handleCommand, type ServiceContext } from '@shiplog/service-kit';
import type pg from 'pg';
import type { RemindersEnv } from '../env.ts';
import type { OwnedProject } from '../reminder/decide.ts';
import { reminderDecider } from '../reminder/decide.ts';
import { reminderStream } from '../reminder/reminder.ts';

/**
 * Projects as this service knows them, and the cascade: a deleted project's reminders go. One consumer
 * reads both the projects' and the reminders' events, in the bus's one order, so a reminder added
 * just as its project is deleted is seen after the deletion and deleted too: no race between two
 * consumers. It appends (ReminderDeleted), so it is a reaction, not a rebuildable projection.
 */
export function projectsReaction(context: ServiceContext<RemindersEnv>): ConsumerDefinition {
  const deleteReminder = (event: BusEvent, tx: pg.PoolClient, reminderId: string, userId: string) =>
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
      if ((error as { status?: number }).status === 404) return;
      throw error;
    });

  return {
    name: 'projects',
    sources: ['identity', 'projects', 'reminders'],
    handlers: {
      UserRegistered: async (event, tx) => {
        const d = event.data as { userId: string; username: string; email: string | null };
        await tx.query(
          'INSERT INTO reminders.users (user_id, username, email) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING',
          [d.userId, d.username, d.email],
        );
      },
      AccountInfoUpdated: async (event, tx) => {
        const d = event.data as { userId: string; email: string | null };
        await tx.query('UPDATE reminders.users SET email = $2 WHERE user_id = $1', [d.userId, d.email]);
      },
      ProjectCreated: async (event, tx) => {
        const d = event.data as { projectId: string; userId: string; name: string };
        await tx.query(
          'INSERT INTO reminders.projects (project_id, user_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id) DO NOTHING',
          [d.projectId, d.userId, d.name],
        );
      },
      ProjectUpdated: async (event, tx) => {
        const d = event.data as { projectId: string; changes: { name?: string } };
        if (d.changes.name !== undefined)
          await tx.query('UPDATE reminders.projects SET name = $2 WHERE project_id = $1', [
            d.projectId,
            d.changes.name,
          ]);
      },
      ProjectDeleted: async (event, tx) => {
        const d = event.data as { projectId: string; userId: string };
        await tx.query('UPDATE reminders.projects SET deleted = true WHERE project_id = $1', [d.projectId]);
        const { rows } = await tx.query<{ reminder_id: string }>(
          'DELETE FROM reminders.project_reminders WHERE project_id = $1 RETURNING reminder_id',
          [d.projectId],
        );
        for (const row of rows) await deleteReminder(event, tx, row.reminder_id, d.userId);
      },
      ReminderAdded: async (event, tx) => {
        const d = event.data as { reminderId: string; projectId: string; userId: string };
        const { rows } = await tx.query<{ deleted: boolean }>(
          'SELECT deleted FROM reminders.projects WHERE project_id = $1',
          [d.projectId],
        );
        if (rows[0]?.deleted) {
          await deleteReminder(event, tx, d.reminderId, d.userId);
          return;
        }
        await tx.query(
          'INSERT INTO reminders.project_reminders (reminder_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [d.reminderId, d.projectId],
        );
      },
      ReminderDeleted: async (event, tx) => {
        await tx.query('DELETE FROM reminders.project_reminders WHERE reminder_id = $1', [
          (event.data as { reminderId: string }).reminderId,
        ]);
      },
    },
  };
}

export async function findOwnedProject(pool: pg.Pool, projectId: string): Promise<OwnedProject | null> {
  const { rows } = await pool.query<{ project_id: string; user_id: string; name: string }>(
    'SELECT project_id, user_id, name FROM reminders.projects WHERE project_id = $1 AND NOT deleted',
    [projectId],
  );
  const row = rows[0];
  return row ? { id: row.project_id, userId: row.user_id, name: row.name } : null;
}
