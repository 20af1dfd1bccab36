import { createHash } from 'node:crypto';
import { NotFoundError } from '@shiplog/errors';
import {
  callerOf,
  catchUp,
  deterministicId,
  handleCommand,
  notCaughtUp,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import { z } from 'zod';
import type { ProjectsEnv } from '../env.ts';
import { projectDecider } from '../project/decide.ts';
import { projectStream } from '../project/project.ts';
import { ownedProjectIds } from '../read-models/project-list/index.ts';
import { historyDecider } from './decide.ts';
import { historyStream } from './history-import.ts';
import { historyImportRoutes } from './routes.ts';

/**
 * Import from a Shiplog export (the gateway's export.ts reads the file and calls these).
 * Every id is derived from the file's id and the user's, so importing the same file again, or
 * resuming one that stopped half-way, brings nothing in twice. Internal: not on the /api surface.
 */
export function importApi(context: ServiceContext<ProjectsEnv>) {
  const { store, pool, now } = context;

  return serveRoutes(historyImportRoutes, {
    // The file's projects as they stood, with their dates; answers the id each one has here, and how
    // many it added (the others were imported before).
    'POST /imports/projects': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { projects } = parsed.body;
      const caller = callerOf(req);
      const ids: Record<string, string> = {};
      let added = 0;
      for (const input of projects) {
        const projectId = deterministicId(`import-project:${userId}:${input.id}`);
        const result = await handleCommand(
          store,
          projectStream(projectId),
          projectDecider,
          { type: 'ImportProject', projectId, userId, input },
          { userId, correlationId: caller.correlationId, retries: 1, now: now() },
        );
        if (result.position) reportPosition(res, 'projects', result.position);
        if (result.events.length > 0) added++;
        ids[input.id] = projectId;
      }
      res.json({ ids, added });
    },

    // A part of the file's timeline, its projects already imported (their ids here, or null).
    'POST /imports/history': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { entries } = parsed.body;
      const projectIds = [...new Set(entries.flatMap((e) => (e.projectId ? [e.projectId] : [])))];
      // The projects were imported a moment ago: the list must hold them before it is asked.
      const caughtUp = await catchUp(req);
      const found = await ownedProjectIds(
        pool,
        userId,
        projectIds.filter((id) => z.uuid().safeParse(id).success),
      );
      if (found.length !== projectIds.length)
        throw caughtUp ? new NotFoundError('Project not found', 'PROJECT_NOT_FOUND') : notCaughtUp();
      const importId = deterministicId(
        `import-history:${userId}:${createHash('sha256')
          .update(entries.map((e) => e.id).join('\n'))
          .digest('hex')}`,
      );
      const result = await handleCommand(
        store,
        historyStream(importId),
        historyDecider,
        {
          type: 'ImportHistory',
          userId,
          importId,
          entries: entries.map((e) => ({
            id: deterministicId(`import-activity:${userId}:${e.id}`),
            projectId: e.projectId,
            eventType: e.eventType,
            action: e.action,
            details: e.details,
            metadata: e.metadata,
            version: e.version,
            status: e.status,
            at: new Date(e.timestamp).toISOString(),
            actor: e.actor ? { token: e.actor.token } : null,
          })),
        },
        { userId, correlationId: callerOf(req).correlationId, now: now() },
      );
      if (result.position) reportPosition(res, 'projects', result.position);
      res.json({ imported: result.events.length > 0 ? entries.length : 0 });
    },
  });
}
