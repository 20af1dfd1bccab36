import { type PublishedEventType, publishedEventTypesOf } from '@shiplog/events';
import type { Project as ProjectView } from '@shiplog/schemas';
import { type Batch, type EventHandler, onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import {
  evolveProject,
  fromView,
  initialProject,
  type Project,
  type ProjectEvent,
  toView,
} from '../../project/project.ts';

/**
 * The project list read model. Each event is applied with the aggregate's own `evolve` to the stored
 * document, so the list can never disagree with the command side about what an event means. A batch
 * reads the documents it changes in one query, evolves them in memory in event order, and defers the
 * writes to its commit (see Batch).
 */
const apply: EventHandler<PublishedEventType<'projects'>> = async (event, tx, batch) => {
  const { projectId } = event.data;
  const projects = await projectsOf(batch, tx);
  const after = evolveProject(projects.get(projectId) ?? initialProject(), event satisfies ProjectEvent);
  projects.set(projectId, after);
  if (after.lifecycle === 'active') {
    batch.defer(
      `INSERT INTO projects.project_list (id, user_id, created_at, doc) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [after.id, after.userId, after.createdAt, JSON.stringify(toView(after))],
    );
  } else if (after.lifecycle === 'deleted') {
    batch.defer('DELETE FROM projects.project_list WHERE id = $1', [projectId]);
  }
};

const loaded = Symbol('project-list documents');

/**
 * The batch's projects as stored, read once (locked) and then kept as the batch evolves them. A
 * project whose first event here is its creation has no document yet: it is not looked up.
 */
async function projectsOf(batch: Batch, tx: pg.PoolClient): Promise<Map<string, Project>> {
  let projects = batch.shared.get(loaded) as Map<string, Project> | undefined;
  if (projects) return projects;
  projects = new Map();
  const first = new Map<string, string>();
  for (const event of batch.events) {
    // Every projects event names its project (see the catalog).
    const id = (event.data as { projectId: string }).projectId;
    if (!first.has(id)) first.set(id, event.type);
  }
  const stored = [...first].filter(([, type]) => type !== 'ProjectCreated').map(([id]) => id);
  if (stored.length > 0) {
    const { rows } = await tx.query<{ id: string; doc: ProjectView }>(
      'SELECT id, doc FROM projects.project_list WHERE id = ANY($1::uuid[]) FOR UPDATE',
      [stored],
    );
    for (const row of rows) projects.set(row.id, fromView(row.doc));
  }
  batch.shared.set(loaded, projects);
  return projects;
}

export const projectListProjection: ProjectionDefinition = {
  name: 'project-list',
  sources: ['projects'],
  tables: ['project_list'],
  handlers: onEach(publishedEventTypesOf('projects'), apply),
};

/** A user's projects, newest first, as the JSON text of the API's array: no per-row work in Node. */
export async function listProjectsJson(pool: pg.Pool, userId: string): Promise<string> {
  const { rows } = await pool.query<{ list: string }>(
    `SELECT coalesce(json_agg(doc ORDER BY created_at DESC, id DESC), '[]')::text AS list
     FROM projects.project_list WHERE user_id = $1`,
    [userId],
  );
  return rows[0]!.list;
}

export async function findProject(pool: pg.Pool, userId: string, projectId: string): Promise<ProjectView | null> {
  const { rows } = await pool.query<{ doc: ProjectView }>(
    'SELECT doc FROM projects.project_list WHERE id = $1 AND user_id = $2',
    [projectId, userId],
  );
  return rows[0]?.doc ?? null;
}
