import { isEventType, parseEventData, publishedEventTypesOf } from '@shiplog/events';
import type { Project } from '@shiplog/schemas';
import type { Handler, ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import { evolveProject, fromView, type ProjectEvent, toView } from '../../project/project.ts';

/**
 * The project list read model. Each event is applied with the aggregate's own `evolve` to the stored
 * document, so the list can never disagree with the command side about what an event means.
 */
const apply: Handler = async (event, tx) => {
  if (!isEventType(event.type)) return;
  const domainEvent = {
    type: event.type,
    data: parseEventData(event.type, event.data, event.metadata.schemaVersion),
  } as ProjectEvent;
  const projectId = (event.data as { projectId: string }).projectId;
  const { rows } = await tx.query<{ doc: Project }>('SELECT doc FROM projects.project_list WHERE id = $1 FOR UPDATE', [
    projectId,
  ]);
  const before = rows[0] ? fromView(rows[0].doc) : { lifecycle: 'none' as const };
  const after = evolveProject(before, domainEvent);
  if (after.lifecycle === 'active') {
    await tx.query(
      `INSERT INTO projects.project_list (id, user_id, created_at, doc) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [after.id, after.userId, after.createdAt, JSON.stringify(toView(after))],
    );
  } else if (after.lifecycle === 'deleted') {
    await tx.query('DELETE FROM projects.project_list WHERE id = $1', [projectId]);
  }
};

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

export async function findProject(pool: pg.Pool, userId: string, projectId: string): Promise<Project | null> {
  const { rows } = await pool.query<{ doc: Project }>(
    'SELECT doc FROM projects.project_list WHERE id = $1 AND user_id = $2',
    [projectId, userId],
  );
  return rows[0]?.doc ?? null;
}
