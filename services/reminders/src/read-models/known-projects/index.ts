import type { Batch } from '@shiplog/service-kit';
import type pg from 'pg';
import type { OwnedProject } from '../../reminder/decide.ts';

/**
 * What this service knows of other services' facts: each project's owner and name (so a reminder is
 * only added to one's own project, and carries its name), and each user's address and whether its
 * owner proved it (reminder emails go only to a proven one). Kept by the projects reaction
 * (reactions/project-cascade), which reads these events in the bus's one order with the reminders'
 * own, so a reminder added just as its project is deleted is seen after the deletion.
 */
export const knownProjects = {
  user(defer: Batch['defer'], user: { userId: string; username: string; email: string | null }) {
    defer(
      `INSERT INTO reminders.users (user_id, username, email) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`,
      [user.userId, user.username, user.email],
    );
  },

  /** A changed address is unproven until its owner opens the link mailed to it. */
  addressChanged(defer: Batch['defer'], change: { userId: string; email: string | null }) {
    defer(
      `UPDATE reminders.users SET email = $1, email_verified = email_verified AND coalesce(lower(email) = lower($1), false)
       WHERE user_id = $2`,
      [change.email, change.userId],
    );
  },

  addressProven(defer: Batch['defer'], proof: { userId: string; email: string }) {
    defer('UPDATE reminders.users SET email_verified = true WHERE user_id = $1 AND lower(email) = lower($2)', [
      proof.userId,
      proof.email,
    ]);
  },

  project(defer: Batch['defer'], project: { projectId: string; userId: string; name: string }) {
    defer(
      `INSERT INTO reminders.projects (project_id, user_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id) DO NOTHING`,
      [project.projectId, project.userId, project.name],
    );
  },

  renamed(defer: Batch['defer'], project: { projectId: string; name: string }) {
    defer('UPDATE reminders.projects SET name = $1 WHERE project_id = $2', [project.name, project.projectId]);
  },

  async deleted(tx: pg.PoolClient, projectId: string): Promise<void> {
    await tx.query('UPDATE reminders.projects SET deleted = true WHERE project_id = $1', [projectId]);
  },

  async isDeleted(tx: pg.PoolClient, projectId: string): Promise<boolean> {
    const { rows } = await tx.query<{ deleted: boolean }>(
      'SELECT deleted FROM reminders.projects WHERE project_id = $1',
      [projectId],
    );
    return rows[0]?.deleted === true;
  },
};

/** The caller's project as this service knows it, or null when it is unknown or deleted. */
export async function findOwnedProject(pool: pg.Pool, projectId: string): Promise<OwnedProject | null> {
  const { rows } = await pool.query<{ project_id: string; user_id: string; name: string }>(
    'SELECT project_id, user_id, name FROM reminders.projects WHERE project_id = $1 AND NOT deleted',
    [projectId],
  );
  const row = rows[0];
  return row ? { id: row.project_id, userId: row.user_id, name: row.name } : null;
}
