import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { ActivityEnv } from '../../env.ts';
import { activityPage, allActivities, projectActivities, shippedByProject } from './index.ts';
import { timelineRoutes } from './routes.ts';

export function activityApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  return serveRoutes(timelineRoutes, {
    'GET /activities': async (req, res, parsed) => {
      const { page, limit } = parsed.query;
      // Paged as every list is (the admin's users too): the page in the body, the total in X-Total-Count.
      const { activities, total } = await activityPage(pool, requireUserId(req), page, limit);
      res.setHeader('X-Total-Count', String(total));
      res.json(activities);
    },

    // The whole timeline for the user's export (gateway export.ts), oldest first; not on the /api surface.
    'GET /activities/export': async (req, res) => {
      res.json(await allActivities(pool, requireUserId(req)));
    },

    // For a public profile page: what each project shipped last.
    'GET /public/users/:userId/shipped': async (req, res) => {
      const { userId } = req.params;
      res.json(isId(userId) ? await shippedByProject(pool, userId) : []);
    },

    'GET /projects/:id/activities': async (req, res) => {
      const userId = requireUserId(req);
      const projectId = req.params.id;
      // Another user's project, a deleted one and a missing one answer the same 404.
      const rows = isId(projectId) ? await projectActivities(pool, userId, projectId) : null;
      if (!rows) throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
      res.json(rows);
    },
  });
}
