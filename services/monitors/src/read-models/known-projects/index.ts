import { knownProjectsIn } from '@shiplog/contracts';
import type pg from 'pg';

/**
 * What this service knows of other services' facts (`knownProjectsIn`): each project's maker,
 * workspace and name, and who belongs to each workspace with what role, so a route acts only on a
 * project the caller's role allows (`reach`, given to `serveRoutes`) and a monitor carries its
 * project's name, and each user's address and whether it is proven, since alerts are emailed only to
 * a proven one. Kept by the projects reaction (reactions/project-cascade), in the bus's one order with
 * the monitors' own events.
 */
export const knownProjects = knownProjectsIn('monitors');

/** The user's address, if they proved it (alerts are emailed only to one: decision 030). */
export async function provenAddress(db: Pick<pg.Pool, 'query'>, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ email: string | null }>(
    'SELECT CASE WHEN email_verified THEN email END AS email FROM monitors.users WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.email ?? null;
}

/**
 * The members a team workspace's alert is emailed to: each with a proven address (decision 030) who
 * did not turn the workspace's alert emails off (alert-channel/alert-mail.ts).
 */
export async function alertRecipients(db: Pick<pg.Pool, 'query'>, workspaceId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT m.user_id FROM monitors.workspace_members m
     JOIN monitors.users u ON u.user_id = m.user_id AND u.email_verified AND u.email IS NOT NULL
     WHERE m.workspace_id = $1
       AND NOT EXISTS (SELECT 1 FROM monitors.workspace_alert_mail_off o WHERE o.workspace_id = $1 AND o.user_id = m.user_id)
     ORDER BY m.user_id`,
    [workspaceId],
  );
  return rows.map((row) => row.user_id);
}
