import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { parseInput, requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import { z } from 'zod';
import type { ActivityEnv } from '../../env.ts';

const ACTIVITY_COLUMNS = `id, user_id AS "userId", project_id AS "projectId", event_type AS "eventType", action, details, metadata,
  version, status, to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp`;

/** `page` from 1, `limit` 1–100; without them, the first page of 10 (spec/core.md §9). */
const pageSchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(10),
});

export function activityApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  function routes(router: Router) {
    router.get('/activities', async (req, res) => {
      const userId = requireUserId(req);
      const { page, limit } = parseInput(pageSchema, req.query);
      const { rows } = await pool.query(
        `SELECT ${ACTIVITY_COLUMNS} FROM activity.activities WHERE user_id = $1
         ORDER BY timestamp DESC, id DESC LIMIT $2 OFFSET $3`,
        [userId, limit, (page - 1) * limit],
      );
      res.json(rows);
    });

    // The whole timeline for the user's export (gateway export.ts), oldest first; not on the /api surface.
    router.get('/activities/export', async (req, res) => {
      const { rows } = await pool.query(
        `SELECT ${ACTIVITY_COLUMNS} FROM activity.activities WHERE user_id = $1 ORDER BY timestamp, id`,
        [requireUserId(req)],
      );
      res.json(rows);
    });

    // For a public profile page: each project's latest successful deployment and latest release, from
    // the timeline (environment, version and time only: never the notes).
    router.get('/public/users/:userId/shipped', async (req, res) => {
      const { userId } = req.params;
      if (!isId(userId)) {
        res.json([]);
        return;
      }
      const { rows } = await pool.query(
        `SELECT DISTINCT ON (project_id, event_type) project_id AS "projectId",
                CASE event_type WHEN 'deployment' THEN 'deployment' ELSE 'release' END AS kind,
                version, metadata->>'environment' AS environment,
                to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
         FROM activity.activities
         WHERE user_id = $1 AND project_id IS NOT NULL
           AND (event_type = 'version_release' OR (event_type = 'deployment' AND status = 'success'))
         ORDER BY project_id, event_type, timestamp DESC, id DESC`,
        [userId],
      );
      res.json(rows);
    });

    router.get('/projects/:id/activities', async (req, res) => {
      const userId = requireUserId(req);
      const projectId = req.params.id;
      // Another user's project, a deleted one and a missing one answer the same 404.
      const owned =
        isId(projectId) &&
        (
          await pool.query('SELECT 1 FROM activity.project_stats WHERE project_id = $1 AND user_id = $2', [
            projectId,
            userId,
          ])
        ).rowCount === 1;
      if (!owned) throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
      const { rows } = await pool.query(
        `SELECT ${ACTIVITY_COLUMNS} FROM activity.activities WHERE project_id = $1 AND user_id = $2 ORDER BY timestamp DESC, id DESC`,
        [projectId, userId],
      );
      res.json(rows);
    });

    // The dashboard's stat cards: counts now, and how many of each were created in the last 7 days.
    router.get('/dashboard/counters', async (req, res) => {
      const userId = requireUserId(req);
      const { rows } = await pool.query(
        `SELECT count(*)::int AS "totalProjects",
                count(*) FILTER (WHERE status = 'development')::int AS "activeProjects",
                count(*) FILTER (WHERE status = 'deployed')::int AS "completedProjects",
                count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS "totalChange",
                count(*) FILTER (WHERE status = 'development' AND created_at > now() - interval '7 days')::int AS "activeChange",
                count(*) FILTER (WHERE status = 'deployed' AND created_at > now() - interval '7 days')::int AS "completedChange"
         FROM activity.project_stats WHERE user_id = $1`,
        [userId],
      );
      res.json(rows[0]);
    });
  }

  return { routes };
}
