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
