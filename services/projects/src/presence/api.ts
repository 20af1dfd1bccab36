import { callerOf, requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { ProjectsEnv } from '../env.ts';
import { reachProject } from '../read-models/project-list/index.ts';
import { presence } from './presence.ts';
import { presenceRoutes } from './routes.ts';

/**
 * Who has a project's page open: every member who may read the project (a viewer too) says so while
 * the page is shown, and sees the others. Nothing else of a member leaves: their id and username.
 */
export function presenceApi(context: ServiceContext<ProjectsEnv>) {
  const { pool } = context;
  return serveRoutes(
    presenceRoutes,
    {
      'POST /projects/:id/presence': async (req, res, parsed) => {
        const { id } = await parsed.project(String(req.params.id));
        const userId = requireUserId(req);
        const username = callerOf(req).username ?? '';
        res.json(await presence.seen(pool, id, { userId, username }, context.now()));
      },
      'DELETE /projects/:id/presence': async (req, res, parsed) => {
        const { id } = await parsed.project(String(req.params.id));
        await presence.left(pool, id, requireUserId(req));
        res.status(204).end();
      },
    },
    { reach: (projectId, userId) => reachProject(pool, projectId, userId) },
  );
}
