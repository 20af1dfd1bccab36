import type { Batch } from '@shiplog/messaging';
import type { EventHandlers } from '@shiplog/service-kit';
import type pg from 'pg';

/** A project as a service that does not own projects knows it: whose it is and what it is called. */
export interface OwnedProject {
  id: string;
  userId: string;
  name: string;
}

/**
 * What a service knows of other services' facts, in its own schema: each project's owner and name (so
 * what it keeps is added only to one's own project, and carries its name), and each user's address
 * and whether its owner proved it (email goes only to a proven one). Tables `<schema>.projects`
 * (project_id, user_id, name, deleted) and `<schema>.users` (user_id, username, email,
 * email_verified), made by the service's migrations. One consumer of the service keeps it with
 * `handlers`, in the bus's one order with the service's own events, and handles `ProjectDeleted`
 * itself (its cascade), calling `deleted`.
 */
export function knownProjectsIn(schema: string) {
  const users = `${schema}.users`;
  const projects = `${schema}.projects`;
  const known = {
    user(defer: Batch['defer'], user: { userId: string; username: string; email: string | null }) {
      defer(`INSERT INTO ${users} (user_id, username, email) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`, [
        user.userId,
        user.username,
        user.email,
      ]);
    },

    /** A changed address is unproven until its owner opens the link mailed to it. */
    addressChanged(defer: Batch['defer'], change: { userId: string; email: string | null }) {
      defer(
        `UPDATE ${users} SET email = $1, email_verified = email_verified AND coalesce(lower(email) = lower($1), false)
         WHERE user_id = $2`,
        [change.email, change.userId],
      );
    },

    addressProven(defer: Batch['defer'], proof: { userId: string; email: string }) {
      defer(`UPDATE ${users} SET email_verified = true WHERE user_id = $1 AND lower(email) = lower($2)`, [
        proof.userId,
        proof.email,
      ]);
    },

    project(defer: Batch['defer'], project: { projectId: string; userId: string; name: string }) {
      defer(
        `INSERT INTO ${projects} (project_id, user_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id) DO NOTHING`,
        [project.projectId, project.userId, project.name],
      );
    },

    renamed(defer: Batch['defer'], project: { projectId: string; name: string }) {
      defer(`UPDATE ${projects} SET name = $1 WHERE project_id = $2`, [project.name, project.projectId]);
    },

    async deleted(tx: pg.PoolClient, projectId: string): Promise<void> {
      await tx.query(`UPDATE ${projects} SET deleted = true WHERE project_id = $1`, [projectId]);
    },

    async isDeleted(tx: pg.PoolClient, projectId: string): Promise<boolean> {
      const { rows } = await tx.query<{ deleted: boolean }>(`SELECT deleted FROM ${projects} WHERE project_id = $1`, [
        projectId,
      ]);
      return rows[0]?.deleted === true;
    },

    /** The project as this service knows it, or null when it is unknown or deleted. */
    async find(pool: pg.Pool, projectId: string): Promise<OwnedProject | null> {
      const { rows } = await pool.query<{ project_id: string; user_id: string; name: string }>(
        `SELECT project_id, user_id, name FROM ${projects} WHERE project_id = $1 AND NOT deleted`,
        [projectId],
      );
      const row = rows[0];
      return row ? { id: row.project_id, userId: row.user_id, name: row.name } : null;
    },
  };
  /**
   * The handlers that keep it, for the one consumer that reads identity's and projects' events.
   * Their writes only fill in who and what, so they are deferred to the batch's commit (see Batch).
   */
  const handlers = {
    UserRegistered: async ({ data }, _tx, { defer }) => known.user(defer, data),
    AccountInfoUpdated: async ({ data }, _tx, { defer }) => known.addressChanged(defer, data),
    EmailVerified: async ({ data }, _tx, { defer }) => known.addressProven(defer, data),
    ProjectCreated: async ({ data }, _tx, { defer }) => known.project(defer, data),
    ProjectImported: async ({ data }, _tx, { defer }) => known.project(defer, data),
    ProjectUpdated: async ({ data }, _tx, { defer }) => {
      if (data.changes.name !== undefined) known.renamed(defer, { projectId: data.projectId, name: data.changes.name });
    },
  } satisfies EventHandlers;
  return { ...known, handlers };
}

export type KnownProjects = ReturnType<typeof knownProjectsIn>;
