import { projectRoleSql } from '@shiplog/contracts';
import { publishedEventTypesOf } from '@shiplog/events';
import {
  PERSONAL_SPACE,
  type Project as ProjectView,
  type PublicProjectFields,
  type WorkspaceRole,
} from '@shiplog/schemas';
import { batchDocuments, type EventHandler, onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import { deployHooks } from '../../deploy-hook/deploy-hooks.ts';
import {
  evolveProject,
  fromView,
  initialProject,
  type Project,
  type ProjectEvent,
  toView,
} from '../../project/project.ts';
import { workspaceMembers as members } from '../workspace-members/index.ts';

/**
 * The project list read model. Each event is applied with the aggregate's own `evolve` to the stored
 * document, so the list can never disagree with the command side about what an event means. A batch
 * reads the documents it changes in one query, evolves them in memory in event order, and defers the
 * writes to its commit (see Batch).
 */
/** The projects events about one project: all of them but the imported history, which is the timeline's. */
const projectEventTypes = publishedEventTypesOf('projects').filter(
  (type): type is ProjectEvent['type'] => type !== 'HistoryImported',
);

const apply: EventHandler<ProjectEvent['type']> = async (event, tx, batch) => {
  const { projectId } = event.data;
  const projects = await projectsOf(batch, tx);
  const after = evolveProject(projects.get(projectId) ?? initialProject(), event satisfies ProjectEvent);
  projects.set(projectId, after);
  if (after.lifecycle === 'active') {
    batch.defer(
      `INSERT INTO projects.project_list (id, user_id, workspace_id, created_at, doc) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, user_id = EXCLUDED.user_id, workspace_id = EXCLUDED.workspace_id`,
      [after.id, after.userId, after.workspaceId, after.createdAt, JSON.stringify(toView(after))],
    );
  } else if (after.lifecycle === 'deleted') {
    batch.defer('DELETE FROM projects.project_list WHERE id = $1', [projectId]);
    // Its deploy webhook stops working with it.
    deployHooks.forget(batch, projectId);
  }
};

/** The batch's projects as stored, read once (locked) and then kept as the batch evolves them. */
const projectsOf = batchDocuments<Project>({
  // Every projects event names its project (see the catalog).
  idOf: (event) => (event.data as { projectId: string }).projectId,
  creates: ['ProjectCreated', 'ProjectImported'],
  async load(tx, ids) {
    const { rows } = await tx.query<{ id: string; workspace_id: string | null; doc: ProjectView }>(
      'SELECT id, workspace_id, doc FROM projects.project_list WHERE id = ANY($1::uuid[]) FOR UPDATE',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, fromView(row.doc, row.workspace_id)]));
  },
});

export const projectListProjection: ProjectionDefinition = {
  name: 'project-list',
  sources: ['projects'],
  tables: ['project_list'],
  handlers: onEach(projectEventTypes, apply),
};

/**
 * The projects a user reaches, newest first, as the JSON text of the API's array (no per-row work in
 * Node, and none in jsonb: each document's stored text, `doc_prefix`, with the caller's fields
 * appended): their personal ones, and those of every workspace they belong to; or one space's only
 * (`space`: a token's, see service-kit's `tokenSpace`).
 */
export async function listProjectsJson(pool: pg.Pool, userId: string, space: string | null = null): Promise<string> {
  // Named, so each connection plans it once: planning the union cost more than running it.
  const { rows } = await pool.query<{ list: string }>({
    name: 'projects-list',
    text: `SELECT '[' || coalesce(string_agg(doc_prefix || ', "workspaceId": ' || coalesce(to_json(workspace_id)::text, 'null')
                                         || ', "role": ' || to_json(role)::text || '}', ', ' ORDER BY created_at DESC, id DESC), '')
            || ']' AS list
     FROM (SELECT doc_prefix, created_at, id, workspace_id, 'owner' AS role FROM projects.project_list
           WHERE user_id = $1 AND workspace_id IS NULL AND ($2::text IS NULL OR $2 = '${PERSONAL_SPACE}')
           UNION ALL
           SELECT p.doc_prefix, p.created_at, p.id, p.workspace_id, m.role FROM ${members.table} m
           JOIN projects.project_list p ON p.workspace_id = m.workspace_id
           WHERE m.user_id = $1 AND ($2::text IS NULL OR m.workspace_id::text = $2)) reached`,
    values: [userId, space],
  });
  return rows[0]!.list;
}

/** A project as the list keeps it, with the caller's role on it (`RouteDeclaration.project`). */
export interface ListedProject {
  id: string;
  userId: string;
  workspaceId: string | null;
  role: WorkspaceRole;
  doc: ProjectView;
}

/** The project with the caller's role on it, or null when it is missing, deleted, or none of theirs. */
export async function reachProject(pool: pg.Pool, projectId: string, userId: string): Promise<ListedProject | null> {
  const { rows } = await pool.query<ListedProject & { role: WorkspaceRole | null }>({
    // Every route on a project asks it: planned once per connection.
    name: 'projects-reach',
    text: `SELECT p.id, p.user_id AS "userId", p.workspace_id AS "workspaceId", p.doc, ${projectRoleSql('p', 'm', '$2')} AS role
     FROM projects.project_list p LEFT JOIN ${members.table} m ON m.workspace_id = p.workspace_id AND m.user_id = $2
     WHERE p.id = $1`,
    values: [projectId, userId],
  });
  const row = rows[0];
  return row?.role ? row : null;
}

/** Which of `projectIds` (ids, checked as such) are the user's personal projects. */
export async function ownedProjectIds(pool: pg.Pool, userId: string, projectIds: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id FROM projects.project_list WHERE id = ANY($1::uuid[]) AND user_id = $2 AND workspace_id IS NULL',
    [projectIds, userId],
  );
  return rows.map((row) => row.id);
}

const PUBLIC_FIELDS = `id, doc->>'name' AS name, doc->>'description' AS description, doc->>'status' AS status,
  doc->'checklist' AS checklist, doc->>'createdAt' AS "createdAt"`;

/** A user's public projects, newest first: what their public page may show of each (no cost, no Replit id). */
export async function listPublicProjects(pool: pg.Pool, userId: string): Promise<PublicProjectFields[]> {
  const { rows } = await pool.query<PublicProjectFields>(
    `SELECT ${PUBLIC_FIELDS}
     FROM projects.project_list WHERE user_id = $1 AND workspace_id IS NULL AND (doc->>'isPublic')::boolean
     ORDER BY created_at DESC, id DESC`,
    [userId],
  );
  return rows;
}

/** A team workspace's public projects, newest first, as a public page may show them (its status page). */
export async function listPublicTeamProjects(pool: pg.Pool, workspaceId: string): Promise<PublicProjectFields[]> {
  const { rows } = await pool.query<PublicProjectFields>(
    `SELECT ${PUBLIC_FIELDS}
     FROM projects.project_list WHERE workspace_id = $1 AND (doc->>'isPublic')::boolean
     ORDER BY created_at DESC, id DESC`,
    [workspaceId],
  );
  return rows;
}

/** The projects of a workspace, as the list holds them. */
export async function projectsOfWorkspace(db: pg.Pool | pg.PoolClient, workspaceId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM projects.project_list WHERE workspace_id = $1', [
    workspaceId,
  ]);
  return rows.map((row) => row.id);
}
