import { onEach, type ProjectionDefinition, type ReceivedEvent } from '@shiplog/service-kit';
import type pg from 'pg';
import { reachedProjects } from '../timeline/index.ts';

const costEvents = ['ProjectCreated', 'ProjectImported', 'ProjectUpdated', 'ProjectDeleted'] as const;

const INSERT_COST = `INSERT INTO activity.cost_history (event_id, project_id, user_id, name, effective_from, cost_cents)
  VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`;

/**
 * Each project's cost estimate over time, for the dashboard's monthly cost chart: the estimate a
 * project was created (or imported) with, from its creation date, then each change from the time it
 * was made. Idempotent (a row's id is its event's id); a rename renames every row of the project, a
 * deletion removes them.
 */
export const costHistoryProjection: ProjectionDefinition = {
  name: 'cost-history',
  sources: ['projects'],
  tables: ['cost_history'],
  handlers: onEach(costEvents, async (event: ReceivedEvent<(typeof costEvents)[number]>, _tx, { defer }) => {
    if (event.type === 'ProjectDeleted') {
      defer('DELETE FROM activity.cost_history WHERE project_id = $1', [event.data.projectId]);
    } else if (event.type === 'ProjectCreated' || event.type === 'ProjectImported') {
      const d = event.data;
      defer(INSERT_COST, [event.id, d.projectId, d.userId, d.name, d.createdAt, d.costEstimate]);
    } else {
      const { projectId, userId, name, changes, at } = event.data;
      if (changes.name !== undefined)
        defer('UPDATE activity.cost_history SET name = $1 WHERE project_id = $2', [name, projectId]);
      if (changes.costEstimate !== undefined)
        defer(INSERT_COST, [event.id, projectId, userId, name, at, changes.costEstimate]);
    }
  }),
};

type Queryable = Pick<pg.Pool, 'query'>;

export interface MonthlyCosts {
  /** The last 12 months, oldest first, as `YYYY-MM` in the asked time zone. */
  months: string[];
  /** Each project with an estimate in any of them: its estimate in cents at each month's end (this month: now). */
  projects: { projectId: string; name: string; costs: number[] }[];
}

/**
 * The monthly cost over the last 12 months of every project the user reaches (`reachedProjects`: their
 * personal ones and their workspaces'), months counted in `timeZone` (an IANA name PostgreSQL knows): a
 * month's figure is the estimate in force at its end, 0 before the project existed or while it had none.
 */
export async function monthlyCosts(db: Queryable, userId: string, timeZone: string): Promise<MonthlyCosts> {
  const { rows } = await db.query<{ month: string; projectId: string | null; name: string | null; cost: number }>(
    `WITH months AS (
       SELECT m AS month, (m + interval '1 month') AT TIME ZONE $2 AS ends
       FROM generate_series(date_trunc('month', now() AT TIME ZONE $2) - interval '11 months',
                            date_trunc('month', now() AT TIME ZONE $2), interval '1 month') AS m
     ), projects AS (
       SELECT DISTINCT ON (h.project_id) h.project_id, h.name
       FROM ${reachedProjects('$1')} reached JOIN activity.cost_history h ON h.project_id = reached.project_id
       ORDER BY h.project_id, h.effective_from DESC
     )
     SELECT to_char(months.month, 'YYYY-MM') AS month, p.project_id AS "projectId", p.name,
            coalesce((SELECT h.cost_cents FROM activity.cost_history h
                      WHERE h.project_id = p.project_id AND h.effective_from < months.ends
                      ORDER BY h.effective_from DESC, h.event_id DESC LIMIT 1), 0) AS cost
     FROM months LEFT JOIN projects p ON true
     ORDER BY p.name, p.project_id, months.month`,
    [userId, timeZone],
  );
  const months = [...new Set(rows.map((row) => row.month))].sort();
  const byProject = new Map<string, MonthlyCosts['projects'][number]>();
  for (const row of rows) {
    if (!row.projectId) continue;
    const project = byProject.get(row.projectId) ?? { projectId: row.projectId, name: row.name!, costs: [] };
    project.costs.push(row.cost);
    byProject.set(row.projectId, project);
  }
  return { months, projects: [...byProject.values()].filter((p) => p.costs.some((cost) => cost > 0)) };
}
