import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { activityPageQuerySchema } from '@shiplog/schemas';
import { apiTokenAccepted, parseInput, requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import type { ActivityEnv } from '../../env.ts';
import { activityPage, allActivities, projectActivities, shippedByProject } from './index.ts';

export function activityApi(context: ServiceContext<ActivityEnv>) {
  const { pool } = context;

  function routes(router: Router) {
    router.get('/activities', apiTokenAccepted, async (req, res) => {
      const { page, limit } = parseInput(activityPageQuerySchema, req.query);
      // Paged as every list is (the admin's users too): the page in the body, the total in X-Total-Count.
      const { activities, total } = await activityPage(pool, requireUserId(req), page, limit);
      res.setHeader('X-Total-Count', String(total));
      res.json(activities);
    });

    // The whole timeline for the user's export (gateway export.ts), oldest first; not on the /api surface.
    router.get('/activities/export', async (req, res) => {
      res.json(await allActivities(pool, requireUserId(req)));
    });

    // For a public profile page: what each project shipped last.
    router.get('/public/users/:userId/shipped', async (req, res) => {
      const { userId } = req.params;
      res.json(isId(userId) ? await shippedByProject(pool, userId) : []);
    });

    router.get('/projects/:id/activities', apiTokenAccepted, async (req, res) => {
      const userId = requireUserId(req);
      const projectId = req.params.id;
      // Another user's project, a deleted one and a missing one answer the same 404.
      const rows = isId(projectId) ? await projectActivities(pool, userId, projectId) : null;
      if (!rows) throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
      res.json(rows);
    });
  }

  return { routes };
}
