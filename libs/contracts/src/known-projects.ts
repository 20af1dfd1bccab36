import type { Batch } from '@shiplog/messaging';
import type { WorkspaceRole } from '@shiplog/schemas';
import type { EventHandlers } from '@shiplog/service-kit';
import type pg from 'pg';
import { projectRoleSql, workspaceMembersIn } from './workspace-members.ts';

/**
 * A project as a service that does not own projects knows it: who made it, the team workspace it
 * belongs to (null: its maker's personal space) and what it is called.
 */
export interface OwnedProject {
  id: string;
  userId: string;
  workspaceId: string | null;
  name: string;
}

/** A project with the caller's role on it (see `RouteDeclaration.project`). */
export interface ReachedProject extends OwnedProject {
  role: WorkspaceRole;
}

/**
 * What a service knows of other services' facts, in its own schema: each project's maker, workspace
 * and name, and who belongs to each workspace with what role (so what it keeps is added only to a
 * project the caller may change, and carries its name), and each user's address and whether its owner
 * proved it (email goes only to a proven one). Tables `<schema>.projects` (project_id, user_id,
 * workspace_id, name, deleted), `<schema>.workspace_members` (`workspaceMembersIn`) and
 * `<schema>.users` (user_id, username, email, email_verified), made by the service's migrations. One consumer of the service keeps it with
 * `handlers`, in the bus's one order with the service's own events, and handles `ProjectDeleted`
 * itself (its cascade), calling `deleted`.
 */
export function knownProjectsIn(schema: string) {
  const users = `${schema}.users`;
  const projects = `${schema}.projects`;
  const members = workspaceMembersIn(schema);
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

    project(
      defer: Batch['defer'],
      project: { projectId: string; userId: string; workspaceId?: string | null; name: string },
    ) {
      defer(
        `INSERT INTO ${projects} (project_id, user_id, workspace_id, name) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id) DO NOTHING`,
        [project.projectId, project.userId, project.workspaceId ?? null, project.name],
      );
    },

    /** Moved to another space: a personal one's maker is the mover. */
    moved(defer: Batch['defer'], project: { projectId: string; userId: string; workspaceId?: string | null }) {
      defer(`UPDATE ${projects} SET user_id = $2, workspace_id = $3 WHERE project_id = $1`, [
        project.projectId,
        project.userId,
        project.workspaceId ?? null,
      ]);
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
    async find(pool: Pick<pg.Pool, 'query'>, projectId: string): Promise<OwnedProject | null> {
      const { rows } = await pool.query<{ id: string; userId: string; workspaceId: string | null; name: string }>(
        `SELECT project_id AS id, user_id AS "userId", workspace_id AS "workspaceId", name
         FROM ${projects} WHERE project_id = $1 AND NOT deleted`,
        [projectId],
      );
      return rows[0] ?? null;
    },

    /**
     * The project with the caller's role on it, or null when it is unknown, deleted, or none of theirs
     * (not its maker's personal project, and not in a workspace they belong to).
     */
    async reach(pool: pg.Pool, projectId: string, userId: string): Promise<ReachedProject | null> {
      const { rows } = await pool.query<ReachedProject & { role: WorkspaceRole | null }>(
        `SELECT p.project_id AS id, p.user_id AS "userId", p.workspace_id AS "workspaceId", p.name,
                ${projectRoleSql('p', 'm', '$2')} AS role
         FROM ${projects} p LEFT JOIN ${members.table} m ON m.workspace_id = p.workspace_id AND m.user_id = $2
         WHERE p.project_id = $1 AND NOT p.deleted`,
        [projectId, userId],
      );
      const row = rows[0];
      return row?.role ? row : null;
    },
  };
  /**
   * The handlers that keep it, for the one consumer that reads identity's and projects' events.
   * Their writes only fill in who and what, so they are deferred to the batch's commit (see Batch).
   */
  const handlers = {
    ...members.handlers,
    UserRegistered: async ({ data }, _tx, { defer }) => known.user(defer, data),
    AccountInfoUpdated: async ({ data }, _tx, { defer }) => known.addressChanged(defer, data),
    EmailVerified: async ({ data }, _tx, { defer }) => known.addressProven(defer, data),
    ProjectCreated: async ({ data }, _tx, { defer }) => known.project(defer, data),
    ProjectImported: async ({ data }, _tx, { defer }) => known.project(defer, data),
    ProjectMovedIn: async ({ data }, _tx, { defer }) => known.moved(defer, data),
    ProjectUpdated: async ({ data }, _tx, { defer }) => {
      if (data.changes.name !== undefined) known.renamed(defer, { projectId: data.projectId, name: data.changes.name });
    },
  } satisfies EventHandlers;
  /**
   * The rows of a table with a `project_id` that belong to a team workspace's project: the team's, which
   * their maker's erasure spares (`deleteUserRows`' `unless`; decisions 056 and 057).
   */
  const ofTeamProject = `project_id IN (SELECT project_id FROM ${projects} WHERE workspace_id IS NOT NULL)`;
  return { ...known, members, handlers, ofTeamProject };
}

export type KnownProjects = ReturnType<typeof knownProjectsIn>;
