import { publishedEventTypesOf } from '@shiplog/events';
import type { Reminder } from '@shiplog/schemas';
import { onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import { nextRunAt } from '../../reminder/due.ts';
import { evolveReminder, fromView, initialReminder, type ReminderEvent, toView } from '../../reminder/reminder.ts';

/** The reminder list: each event applied with the aggregate's own `evolve` to the stored document. */
export const reminderListProjection: ProjectionDefinition = {
  name: 'reminder-list',
  sources: ['reminders'],
  tables: ['reminder_list', 'schedule'],
  handlers: onEach(publishedEventTypesOf('reminders'), async (event, tx) => {
    const { reminderId } = event.data;
    const { rows } = await tx.query<{ doc: Reminder }>(
      'SELECT doc FROM reminders.reminder_list WHERE id = $1 FOR UPDATE',
      [reminderId],
    );
    const before = rows[0] ? fromView(rows[0].doc) : initialReminder();
    const after = evolveReminder(before, event satisfies ReminderEvent);
    if (after.lifecycle === 'active') {
      await tx.query(
        `INSERT INTO reminders.reminder_list (id, user_id, project_id, due_date, doc) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET due_date = EXCLUDED.due_date, doc = EXCLUDED.doc`,
        [after.id, after.userId, after.projectId, after.dueDate, JSON.stringify(toView(after))],
      );
    } else if (after.lifecycle === 'deleted') {
      await tx.query('DELETE FROM reminders.reminder_list WHERE id = $1', [reminderId]);
    }
    // The scheduler's index: when to look at this reminder next.
    const next = after.lifecycle === 'active' ? nextRunAt(after) : null;
    if (next && after.lifecycle === 'active') {
      await tx.query(
        `INSERT INTO reminders.schedule (reminder_id, user_id, next_at) VALUES ($1, $2, $3)
         ON CONFLICT (reminder_id) DO UPDATE SET next_at = EXCLUDED.next_at`,
        [after.id, after.userId, next],
      );
    } else {
      await tx.query('DELETE FROM reminders.schedule WHERE reminder_id = $1', [reminderId]);
    }
  }),
};

/** Reminders with their project's current name (resolved here: the web never fetches projects for it). */
const SELECT_REMINDERS = `SELECT r.doc || jsonb_build_object('projectName', coalesce(p.name, r.doc->>'projectName')) AS doc
  FROM reminders.reminder_list r LEFT JOIN reminders.projects p ON p.project_id = r.project_id`;

export async function listReminders(pool: pg.Pool, userId: string, projectId?: string): Promise<Reminder[]> {
  const { rows } = await pool.query<{ doc: Reminder }>(
    `${SELECT_REMINDERS} WHERE r.user_id = $1 AND ($2::uuid IS NULL OR r.project_id = $2) ORDER BY r.due_date, r.id`,
    [userId, projectId ?? null],
  );
  return rows.map((r) => r.doc);
}

export async function findReminder(pool: pg.Pool, userId: string, reminderId: string): Promise<Reminder | null> {
  const { rows } = await pool.query<{ doc: Reminder }>(`${SELECT_REMINDERS} WHERE r.id = $1 AND r.user_id = $2`, [
    reminderId,
    userId,
  ]);
  return rows[0]?.doc ?? null;
}
