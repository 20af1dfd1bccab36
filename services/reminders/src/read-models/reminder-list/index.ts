import { projectRoleSql } from '@shiplog/contracts';
import { publishedEventTypesOf } from '@shiplog/events';
import type { Reminder } from '@shiplog/schemas';
import { batchDocuments, onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import { nextRunAt } from '../../reminder/due.ts';
import {
  evolveReminder,
  fromView,
  initialReminder,
  type ReminderEvent,
  type Reminder as ReminderState,
  toView,
} from '../../reminder/reminder.ts';
import { knownProjects } from '../known-projects/index.ts';

const teamReminders = `SELECT id FROM reminders.reminder_list
  WHERE stated_in_workspace IS NOT NULL AND ${knownProjects.ofTeamProject}`;

/**
 * The reminders that are a team's: stated whole in a team workspace (decisions 056 and 058), on a
 * project in one now. What their author's erasure spares (`deleteUserRows`' `unless`), by a table's
 * `id` or its `reminder_id`.
 */
export const teamReminder = { id: `id IN (${teamReminders})`, reminderId: `reminder_id IN (${teamReminders})` };

/**
 * The reminder list and the send schedule: each event applied with the aggregate's own `evolve` to the
 * stored document. A batch reads the documents it changes in one query, evolves them in memory in event
 * order, and defers the writes to its commit (see Batch).
 */
export const reminderListProjection: ProjectionDefinition = {
  name: 'reminder-list',
  sources: ['reminders'],
  tables: ['reminder_list', 'schedule'],
  handlers: onEach(publishedEventTypesOf('reminders'), async (event, tx, batch) => {
    const { reminderId } = event.data;
    const reminders = await remindersOf(batch, tx);
    const after = evolveReminder(reminders.get(reminderId) ?? initialReminder(), event satisfies ReminderEvent);
    reminders.set(reminderId, after);
    if (after.lifecycle === 'active') {
      // The workspace named by the event that states it whole (its add, import or move), kept until the
      // next such: whether its stream outlives its author's key (decisions 056 and 058).
      const stated =
        event.type === 'ReminderAdded' || event.type === 'ReminderImported' || event.type === 'ReminderMoved';
      batch.defer(
        `INSERT INTO reminders.reminder_list (id, user_id, project_id, due_date, doc, stated_in_workspace)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET due_date = EXCLUDED.due_date, doc = EXCLUDED.doc,
           stated_in_workspace = CASE WHEN $7 THEN EXCLUDED.stated_in_workspace ELSE reminder_list.stated_in_workspace END`,
        [
          after.id,
          after.userId,
          after.projectId,
          after.dueDate,
          JSON.stringify(toView(after)),
          stated ? (event.data.workspaceId ?? null) : null,
          stated,
        ],
      );
    } else if (after.lifecycle === 'deleted') {
      batch.defer('DELETE FROM reminders.reminder_list WHERE id = $1', [reminderId]);
    }
    const next = after.lifecycle === 'active' ? nextRunAt(after) : null;
    if (next && after.lifecycle === 'active') {
      // Kept for whom it reaches: its assignee.
      batch.defer(
        `INSERT INTO reminders.schedule (reminder_id, user_id, next_at) VALUES ($1, $2, $3)
         ON CONFLICT (reminder_id) DO UPDATE SET user_id = EXCLUDED.user_id, next_at = EXCLUDED.next_at`,
        [after.id, after.assigneeId, next],
      );
    } else {
      batch.defer('DELETE FROM reminders.schedule WHERE reminder_id = $1', [reminderId]);
    }
  }),
};

/** The batch's reminders as stored, read once (locked) and then kept as the batch evolves them. */
const remindersOf = batchDocuments<ReminderState>({
  // Every reminders event names its reminder (see the catalog).
  idOf: (event) => (event.data as { reminderId: string }).reminderId,
  creates: ['ReminderAdded', 'ReminderImported'],
  async load(tx, ids) {
    const { rows } = await tx.query<{ id: string; doc: Reminder }>(
      'SELECT id, doc FROM reminders.reminder_list WHERE id = ANY($1::uuid[]) FOR UPDATE',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, fromView(row.doc)]));
  },
});

/**
 * The reminders on every project the user can reach, soonest first (one project's with `projectId`):
 * their own personal projects and the projects of the team workspaces they belong to, whoever added
 * each reminder. Each carries its project's current name and its assignee's (resolved here: the web
 * never fetches projects or members for them). Who may reach a project is `projectRoleSql`'s (as `knownProjects.reach` decides it for one);
 * the first condition only narrows the projects to look at to the user's own and their workspaces' (by
 * index) before it.
 */
export async function listReminders(pool: pg.Pool, userId: string, projectId?: string): Promise<Reminder[]> {
  const { rows } = await pool.query<{ doc: Reminder }>(
    `SELECT r.doc || jsonb_build_object('projectName', p.name, 'assigneeName', a.username) AS doc
     FROM reminders.projects p
     LEFT JOIN reminders.workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $1
     JOIN reminders.reminder_list r ON r.project_id = p.project_id
     LEFT JOIN reminders.users a ON a.user_id = (r.doc->>'assigneeId')::uuid
     WHERE (p.user_id = $1 OR p.workspace_id = ANY (ARRAY(SELECT workspace_id FROM reminders.workspace_members WHERE user_id = $1)))
       AND ${projectRoleSql('p', 'm', '$1')} IS NOT NULL
       AND NOT p.deleted AND ($2::uuid IS NULL OR p.project_id = $2)
     ORDER BY r.due_date, r.id`,
    [userId, projectId ?? null],
  );
  return rows.map((r) => r.doc);
}

/**
 * One reminder, whoever may see it, with its project's current name: the route decides from its
 * project whether the caller may (`parsed.project`).
 */
export async function findReminder(pool: pg.Pool, reminderId: string): Promise<Reminder | null> {
  const { rows } = await pool.query<{ doc: Reminder }>(
    `SELECT r.doc || jsonb_build_object('projectName', coalesce(p.name, r.doc->>'projectName'), 'assigneeName', a.username) AS doc
     FROM reminders.reminder_list r LEFT JOIN reminders.projects p ON p.project_id = r.project_id
     LEFT JOIN reminders.users a ON a.user_id = (r.doc->>'assigneeId')::uuid
     WHERE r.id = $1`,
    [reminderId],
  );
  return rows[0]?.doc ?? null;
}

export interface DueReminder {
  reminder_id: string;
  /** Whom it reaches now: its assignee while they may still change its project; null: nobody. */
  user_id: string | null;
  email: string | null;
  next_at: Date;
  /** The team workspace its project is in, or null: what its sends are sealed with (decision 056). */
  workspace_id: string | null;
}

/**
 * The reminders whose next moment has come by `now` (the schedule), soonest first, at most `limit`,
 * each with whom it reaches: its assignee, with their address if they proved it, while they may still
 * change its project (a member removed from its workspace, or made a viewer, is sent nothing more:
 * the sends go on, to nobody, until it is given to someone else). For the scheduler's tick
 * (timers/send-due-reminders).
 */
export async function dueReminders(pool: pg.Pool, now: Date, limit: number): Promise<DueReminder[]> {
  const { rows } = await pool.query<DueReminder>(
    `SELECT s.reminder_id, CASE WHEN reaches THEN s.user_id END AS user_id,
            CASE WHEN reaches AND u.email_verified THEN u.email END AS email, s.next_at,
            p.workspace_id
     FROM reminders.schedule s
     JOIN reminders.reminder_list r ON r.id = s.reminder_id
     LEFT JOIN reminders.projects p ON p.project_id = r.project_id
     LEFT JOIN reminders.workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = s.user_id
     LEFT JOIN reminders.users u ON u.user_id = s.user_id
     CROSS JOIN LATERAL (SELECT coalesce(${projectRoleSql('p', 'm', 's.user_id')} IN ('owner', 'admin', 'member'), false) AS reaches) assignee
     WHERE s.next_at <= $1 ORDER BY s.next_at LIMIT $2`,
    [now, limit],
  );
  return rows;
}
