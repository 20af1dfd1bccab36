import { teamPlans } from '@shiplog/contracts';
import { NotFoundError } from '@shiplog/errors';
import { roleAtLeast } from '@shiplog/schemas';
import {
  callerOf,
  handleCommand,
  type LinkInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
  secretLinkHandlers,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request } from 'express';
import type { ProjectsEnv } from '../env.ts';
import { projectDecider } from '../project/decide.ts';
import { projectStream } from '../project/project.ts';
import { type ListedProject, reachProject } from '../read-models/project-list/index.ts';
import { workspaceMembers } from '../read-models/workspace-members/index.ts';
import { readDelivery } from './deliveries.ts';
import { deployHooks } from './deploy-hooks.ts';
import { deployHookRoutes } from './routes.ts';

const hookNotFound = () => new NotFoundError('No such deploy webhook', 'DEPLOY_HOOK_NOT_FOUND');

/**
 * A project's deploy webhook: a secret URL that platforms which can only POST (Vercel, Netlify, any
 * CI) call when they deploy, recording the deployment on the project. Made like the private calendar
 * feed: its owner replaces it (the old one stops working) or turns it off; the secret in the path is
 * the credential. Only its SHA-256 is kept, by which a delivery finds its project: the URL is shown
 * once, when made (decision 031).
 */
export function deployHookApi(context: ServiceContext<ProjectsEnv>) {
  const { pool, store, config, vault, now } = context;
  const hookUrl = (token: string) => `${config.APP_URL.replace(/\/$/, '')}/api/hooks/deploy/${token}`;

  /**
   * The project the hook is for, reached with the route's declared role; the hook is the caller's
   * (deliveries act as them).
   */
  async function ownProject(req: Request, input: LinkInput): Promise<{ project_id: string; user_id: string }> {
    const userId = requireUserId(req);
    const { id } = await input.project!(String(req.params.id ?? ''));
    return { project_id: id, user_id: userId };
  }

  /** A team project's plan is its workspace owners' (read-only while none has one). */
  const plans = teamPlans({ ...context, members: workspaceMembers });
  const link = secretLinkHandlers(deployHooks, {
    db: pool,
    ownerOf: ownProject,
    urlOf: hookUrl,
    // Made or turned off: the project's event, with who did it and from where (a team's audit log).
    record: async (req, res, hook, change) => {
      const caller = callerOf(req);
      const { position } = await handleCommand(
        store,
        projectStream(hook.project_id),
        projectDecider,
        change.made
          ? { type: 'MakeDeployHook', userId: hook.user_id, replaced: change.replaced }
          : { type: 'TurnOffDeployHook', userId: hook.user_id },
        { userId: caller.userId, address: caller.address, correlationId: caller.correlationId, now: now() },
      );
      if (position) reportPosition(res, 'projects', position);
    },
  });
  return serveRoutes<typeof deployHookRoutes, ListedProject>(
    deployHookRoutes,
    {
      'GET /projects/:id/deploy-hook': link.state,
      'POST /projects/:id/deploy-hook': link.replace,
      'DELETE /projects/:id/deploy-hook': link.remove,

      'POST /hooks/deploy/:secret': async (req, res) => {
        const found = await deployHooks.find(pool, req.params.secret ?? '');
        // Gone with its owner's account, even before this service has erased the account's rows.
        if (!found || (await vault.isForgotten(found.user_id))) throw hookNotFound();
        // It acts as whoever made it, while they may still change the project: a member removed from
        // its workspace, or made a viewer, leaves a URL that records nothing.
        const maker = await reachProject(pool, found.project_id, found.user_id);
        if (!maker || !roleAtLeast(maker.role, 'member')) throw hookNotFound();
        await plans.writable(maker, callerOf(req));
        const hook = { projectId: found.project_id, userId: found.user_id };
        const delivery = readDelivery(req.body);
        if (delivery.kind === 'ignored') {
          res.status(202).json({ recorded: false, reason: delivery.reason });
          return;
        }
        const { events } = await handleCommand(
          store,
          projectStream(hook.projectId),
          projectDecider,
          {
            type: 'RecordDeployment',
            userId: hook.userId,
            input: delivery.input,
            status: delivery.status,
            source: delivery.source,
          },
          // Recorded for the project's maker (the event's `userId`), acted by the platform: no user acted
          // (`metadata.userId` null), and the entry's metadata names the platform. A platform retrying at
          // the same moment decides again and finds it.
          { userId: null, correlationId: callerOf(req).correlationId, retries: 1, now: now() },
        ).catch((error: unknown) => {
          // The project was deleted since: its webhook went with it.
          if (error instanceof NotFoundError) throw hookNotFound();
          throw error;
        });
        const recorded = events.find((e) => e.type === 'DeploymentRecorded');
        if (!recorded) {
          res.status(200).json({ recorded: false, reason: 'This deployment is already recorded' });
          return;
        }
        res.status(201).json({ recorded: true, type: 'deployment', ...recorded.data });
      },
    },
    {
      reach: (projectId, userId) => reachProject(pool, projectId, userId),
      writable: plans.writable,
    },
  );
}
