import type { Batch } from '@shiplog/messaging';
import type { WorkspaceRole } from '@shiplog/schemas';
import type { EventHandlers, ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';

/**
 * Who belongs to which team workspace, with what role, as a service keeps it from identity's
 * published `Workspace*` events: table `<schema>.workspace_members` (workspace_id, user_id, role),
 * made by the service's migrations. What a service decides from it (may this caller read or change
 * this project?) holds at the caller's next request once the consumer that keeps it has read the
 * change; a caller's own change is waited for (read-your-writes).
 */
export function workspaceMembersIn(schema: string) {
  const table = `${schema}.workspace_members`;
  const upsert = (defer: Batch['defer'], workspaceId: string, userId: string, role: WorkspaceRole) =>
    defer(
      `INSERT INTO ${table} (workspace_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [workspaceId, userId, role],
    );
  const handlers = {
    WorkspaceCreated: async ({ data }, _tx, { defer }) => upsert(defer, data.workspaceId, data.ownerId, 'owner'),
    WorkspaceMemberJoined: async ({ data }, _tx, { defer }) =>
      upsert(defer, data.workspaceId, data.memberId, data.role),
    WorkspaceMemberRoleChanged: async ({ data }, _tx, { defer }) =>
      defer(`UPDATE ${table} SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, [
        data.workspaceId,
        data.memberId,
        data.role,
      ]),
    WorkspaceMemberRemoved: async ({ data }, _tx, { defer }) =>
      defer(`DELETE FROM ${table} WHERE workspace_id = $1 AND user_id = $2`, [data.workspaceId, data.memberId]),
    WorkspaceDeleted: async ({ data }, _tx, { defer }) =>
      defer(`DELETE FROM ${table} WHERE workspace_id = $1`, [data.workspaceId]),
  } satisfies EventHandlers;

  /** The table as a projection of its own, for a service that keeps no known projects (`knownProjectsIn`). */
  const projection: ProjectionDefinition = {
    name: 'workspace-members',
    sources: ['identity'],
    tables: ['workspace_members'],
    handlers,
  };
  return {
    table,
    handlers,
    projection,
    /** The workspace's owners. */
    async ownersOf(pool: pg.Pool, workspaceId: string): Promise<string[]> {
      const { rows } = await pool.query<{ user_id: string }>(
        `SELECT user_id FROM ${table} WHERE workspace_id = $1 AND role = 'owner' ORDER BY user_id`,
        [workspaceId],
      );
      return rows.map((row) => row.user_id);
    },

    /** The user's role in the workspace, or null when they are not one of its members. */
    async roleIn(pool: pg.Pool, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
      const { rows } = await pool.query<{ role: WorkspaceRole }>(
        `SELECT role FROM ${table} WHERE workspace_id = $1 AND user_id = $2`,
        [workspaceId, userId],
      );
      return rows[0]?.role ?? null;
    },
  };
}

export type WorkspaceMembers = ReturnType<typeof workspaceMembersIn>;

/**
 * The SQL of a caller's role on a project row: its owner's on a personal project (`owner`), a member's
 * on a workspace's (their role there), or null. `project` is the row's alias, `members` the
 * membership table's, `user` the caller's id parameter (`$2`).
 */
export const projectRoleSql = (project: string, members: string, user: string) =>
  `CASE WHEN ${project}.workspace_id IS NULL THEN (CASE WHEN ${project}.user_id = ${user} THEN 'owner' END)
        ELSE ${members}.role END`;
