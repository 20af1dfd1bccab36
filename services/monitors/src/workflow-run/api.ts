import { type ReachedProject, teamPlans } from '@shiplog/contracts';
import { callerOf, handleCommand, reportPosition, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { MonitorsEnv } from '../env.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import { workflowRunsDecider } from './decide.ts';
import { workflowRunRoutes } from './routes.ts';
import { workflowRunsStream } from './workflow-run.ts';

/**
 * A failed GitHub Actions run on a project's default branch, as integrations reports it from GitHub's
 * `workflow_run` delivery: appended once per run, and the alert outbox tells the project's channels.
 */
export function workflowRunApi(context: ServiceContext<MonitorsEnv>) {
  const { pool, store } = context;
  return serveRoutes<typeof workflowRunRoutes, ReachedProject>(
    workflowRunRoutes,
    {
      'POST /projects/:projectId/workflow-failures': async (req, res, parsed) => {
        const project = await parsed.project(String(req.params.projectId));
        const caller = callerOf(req);
        const { events, position } = await handleCommand(
          store,
          workflowRunsStream(project.id),
          workflowRunsDecider,
          { type: 'ReportFailedRun', project, run: parsed.body },
          // GitHub's, not the connection's owner's: no user acted (the timeline says "by GitHub"). Two
          // deliveries of one run at once: the second decides again and finds it alerted.
          { userId: null, correlationId: caller.correlationId, retries: 3, now: context.now() },
        );
        if (position) reportPosition(res, 'monitors', position);
        res.json({ alerted: events.length > 0 });
      },
    },
    {
      reach: (projectId, userId) => knownProjects.reach(pool, projectId, userId),
      writable: teamPlans({ ...context, members: knownProjects.members }).writable,
    },
  );
}
