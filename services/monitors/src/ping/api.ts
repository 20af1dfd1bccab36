import { type ReachedProject, teamPlans } from '@shiplog/contracts';
import { NotFoundError } from '@shiplog/errors';
import { roleAtLeast } from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  handleCommand,
  reportPosition,
  requireUserId,
  type ServiceContext,
  secretLinkHandlers,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { MonitorsEnv } from '../env.ts';
import { pingUrlDecider } from '../ping-url/decide.ts';
import { pingUrlStream } from '../ping-url/ping-url.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import { pingRoutes } from './routes.ts';
import { pingLinks, pingRuns } from './runs.ts';

const pingNotFound = () => new NotFoundError('No such ping URL', 'PING_NOT_FOUND');

/**
 * A project's cron ping URL: a cron job calls it when its backup ends (`/fail` when it failed), and
 * `/start` when it begins, so its run time is known and a start that never ends is a failure. A run
 * that ends well counts as the project's backup, as `shiplog backup` does, for a monitor that expects
 * one. Made like the deploy webhook: whoever may change the project replaces it or turns it off, whoever
 * may read it sees whether it is on and its runs; the secret is the credential.
 */
export function pingApi(context: ServiceContext<MonitorsEnv>) {
  const { pool, config, vault, store } = context;
  const pingUrl = (token: string) => `${config.APP_URL.replace(/\/$/, '')}/api/ping/${token}`;

  /**
   * The ping URL's owner: the project the path names, as the caller's role on it allows the route (404
   * when they have none: deleted, missing and someone else's alike), and the caller, who makes it.
   */
  async function ownerOf(
    req: Request,
    parsed: { project: (projectId: string) => Promise<ReachedProject> },
  ): Promise<{ project_id: string; user_id: string }> {
    const userId = requireUserId(req);
    // It may have been created a moment ago: wait for this service's view of projects to include it.
    await catchUp(req);
    const project = await parsed.project(String(req.params.projectId));
    return { project_id: project.id, user_id: userId };
  }

  /** One ping: the run it starts, ends well, or ends in failure. */
  async function ping(req: Request, signal: 'start' | 'ok' | 'failed') {
    const link = await pingLinks.find(pool, String(req.params.secret ?? ''));
    // Gone with its owner's account, even before this service has erased the account's rows.
    if (!link || (await vault.isForgotten(link.user_id))) throw pingNotFound();
    // It acts as whoever made it, while they may still change the project: a member removed from its
    // workspace, or made a viewer, leaves a URL that records nothing.
    const maker = await knownProjects.reach(pool, link.project_id, link.user_id);
    if (!maker || !roleAtLeast(maker.role, 'member')) throw pingNotFound();
    const at = context.now();
    return signal === 'start'
      ? pingRuns.start(pool, link.project_id, link.user_id, at)
      : pingRuns.end(pool, link.project_id, link.user_id, at, signal);
  }

  /** The link's handlers, for the project the route reaches. */
  const link = (parsed: { project: (projectId: string) => Promise<ReachedProject> }) =>
    secretLinkHandlers(pingLinks, {
      db: pool,
      ownerOf: (req) => ownerOf(req, parsed),
      urlOf: pingUrl,
      details: async (owner) => ({ runs: await pingRuns.recent(pool, owner.project_id) }),
      // Made or turned off: the URL's event, with who did it and from where (a team's audit log).
      record: async (req, res, owner, change) => {
        const caller = callerOf(req);
        const project = await parsed.project(owner.project_id);
        const { position } = await handleCommand(
          store,
          pingUrlStream(project.id),
          pingUrlDecider,
          change.made
            ? { type: 'MakePingUrl', project, replaced: change.replaced }
            : { type: 'TurnOffPingUrl', project },
          {
            userId: caller.userId,
            address: caller.address,
            correlationId: caller.correlationId,
            appendOnly: true,
            now: context.now(),
          },
        );
        if (position) reportPosition(res, 'monitors', position);
      },
    });

  // Public (the secret is the credential): cron jobs call with curl or wget, GET or POST alike.
  const received = (signal: 'start' | 'ok' | 'failed') => async (req: Request, res: Response) => {
    res.json(await ping(req, signal));
  };

  return serveRoutes<typeof pingRoutes, ReachedProject>(
    pingRoutes,
    {
      'GET /projects/:projectId/ping': (req, res, parsed) => link(parsed).state(req, res),
      'POST /projects/:projectId/ping': (req, res, parsed) => link(parsed).replace(req, res),
      'DELETE /projects/:projectId/ping': (req, res, parsed) => link(parsed).remove(req, res),

      // A run reported by a service (integrations' scheduled GitHub workflows), as a ping of it would be.
      'POST /projects/:projectId/runs': async (req, res, parsed) => {
        const { id: projectId } = await parsed.project(String(req.params.projectId));
        const userId = requireUserId(req);
        const at = context.now();
        const { outcome, label } = parsed.body;
        res.json(
          outcome === 'start'
            ? await pingRuns.start(pool, projectId, userId, at, label)
            : await pingRuns.end(pool, projectId, userId, at, outcome, label),
        );
      },

      'GET /ping/:secret': received('ok'),
      'POST /ping/:secret': received('ok'),
      'GET /ping/:secret/start': received('start'),
      'POST /ping/:secret/start': received('start'),
      'GET /ping/:secret/fail': received('failed'),
      'POST /ping/:secret/fail': received('failed'),
    },
    {
      reach: (projectId, userId) => knownProjects.reach(pool, projectId, userId),
      writable: teamPlans({ ...context, members: knownProjects.members }).writable,
    },
  );
}
