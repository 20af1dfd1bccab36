import { announcePresence } from '@shiplog/messaging';
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
  const { pool, bus } = context;
  return serveRoutes(
    presenceRoutes,
    {
      'POST /projects/:id/presence': async (req, res, parsed) => {
        const { id, workspaceId } = await parsed.project(String(req.params.id));
        const userId = requireUserId(req);
        const username = callerOf(req).username ?? '';
        const { others, arrived } = await presence.seen(pool, id, { userId, username }, context.now());
        // The others' pages hear of an arrival at once, through their gateways' live streams.
        if (arrived && workspaceId) announcePresence(bus, { projectId: id, workspaceId, userId });
        res.json(others);
      },
      'DELETE /projects/:id/presence': async (req, res, parsed) => {
        const { id, workspaceId } = await parsed.project(String(req.params.id));
        const userId = requireUserId(req);
        if ((await presence.left(pool, id, userId)) && workspaceId)
          announcePresence(bus, { projectId: id, workspaceId, userId });
        res.status(204).end();
      },
    },
    { reach: (projectId, userId) => reachProject(pool, projectId, userId) },
  );
}
