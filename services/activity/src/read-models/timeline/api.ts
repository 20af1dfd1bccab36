import { isId } from '@shiplog/events';
import { callerOf, requireUserId, type ServiceContext, serveRoutes, tokenSpace } from '@shiplog/service-kit';
import type { ActivityEnv } from '../../env.ts';
import {
  activityPage,
  allActivities,
  projectActivities,
  reachProject,
  releasesByProject,
  shippedByProject,
} from './index.ts';
import { timelineRoutes } from './routes.ts';

export function activityApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  return serveRoutes(
    timelineRoutes,
    {
      'GET /activities': async (req, res, parsed) => {
        const { page, limit } = parsed.query;
        // Paged as every list is (the admin's users too): the page in the body, the total in X-Total-Count.
        const { activities, total } = await activityPage(
          pool,
          requireUserId(req),
          page,
          limit,
          tokenSpace(callerOf(req)),
        );
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

      // For a public project's changelog.
      'GET /public/users/:userId/releases': async (req, res) => {
        const { userId } = req.params;
        res.json(isId(userId) ? await releasesByProject(pool, userId) : []);
      },

      'GET /projects/:id/activities': async (req, res, parsed) => {
        const { id } = await parsed.project(req.params.id ?? '');
        res.json(await projectActivities(pool, id));
      },
    },
    { reach: (projectId, userId) => reachProject(pool, projectId, userId) },
  );
}
