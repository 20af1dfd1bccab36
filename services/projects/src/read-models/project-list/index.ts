import { isEventType, parseEventData, publishedEventTypesOf } from '@shiplog/events';
import type { Project as ProjectView } from '@shiplog/schemas';
import type { Batch, Handler, ProjectionDefinition } from '@shiplog/service-kit';
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
const apply: Handler = async (event, tx, batch) => {
  if (!isEventType(event.type)) return;
  const domainEvent = {
    type: event.type,
    data: parseEventData(event.type, event.data, event.metadata.schemaVersion),
  } as ProjectEvent;
  const projectId = (event.data as { projectId: string }).projectId;
  const projects = await projectsOf(batch, tx);
  const after = evolveProject(projects.get(projectId) ?? initialProject(), domainEvent);
  projects.set(projectId, after);
  const { defer, literal } = batch;
  if (after.lifecycle === 'active') {
    defer(
      `INSERT INTO projects.project_list (id, user_id, created_at, doc)
       VALUES (${literal(after.id)}, ${literal(after.userId)}, ${literal(after.createdAt)}, ${literal(toView(after))})
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
    );
  } else if (after.lifecycle === 'deleted') {
    defer(`DELETE FROM projects.project_list WHERE id = ${literal(projectId)}`);
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
  handlers: Object.fromEntries(publishedEventTypesOf('projects').map((type) => [type, apply])),
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
