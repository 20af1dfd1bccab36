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
      // Writes that only fill in who and what is deferred to the batch's commit (see Batch); the two
      // handlers that read or change reminders.projects immediately flush them first.
      UserRegistered: async (event, _tx, { defer, literal }) => {
        const d = event.data as { userId: string; username: string; email: string | null };
        defer(
          `INSERT INTO reminders.users (user_id, username, email)
           VALUES (${literal(d.userId)}, ${literal(d.username)}, ${literal(d.email)}) ON CONFLICT (user_id) DO NOTHING`,
        );
      },
      AccountInfoUpdated: async (event, _tx, { defer, literal }) => {
        const d = event.data as { userId: string; email: string | null };
        defer(`UPDATE reminders.users SET email = ${literal(d.email)} WHERE user_id = ${literal(d.userId)}`);
      },
      ProjectCreated: async (event, _tx, { defer, literal }) => {
        const d = event.data as { projectId: string; userId: string; name: string };
        defer(
          `INSERT INTO reminders.projects (project_id, user_id, name)
           VALUES (${literal(d.projectId)}, ${literal(d.userId)}, ${literal(d.name)}) ON CONFLICT (project_id) DO NOTHING`,
        );
      },
      ProjectUpdated: async (event, _tx, { defer, literal }) => {
        const d = event.data as { projectId: string; changes: { name?: string } };
        if (d.changes.name !== undefined)
          defer(
            `UPDATE reminders.projects SET name = ${literal(d.changes.name)} WHERE project_id = ${literal(d.projectId)}`,
          );
      },
      ProjectDeleted: async (event, tx, batch) => {
        const d = event.data as { projectId: string; userId: string };
        await batch.flush();
        await tx.query('UPDATE reminders.projects SET deleted = true WHERE project_id = $1', [d.projectId]);
        const { rows } = await tx.query<{ reminder_id: string }>(
          'DELETE FROM reminders.project_reminders WHERE project_id = $1 RETURNING reminder_id',
          [d.projectId],
        );
        for (const row of rows) await deleteReminder(event, tx, row.reminder_id, d.userId);
      },
      ReminderAdded: async (event, tx, batch) => {
        const d = event.data as { reminderId: string; projectId: string; userId: string };
        await batch.flush();
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
