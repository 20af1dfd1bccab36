import { teamPlans } from '@shiplog/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { PERSONAL_SPACE, roleAtLeast, type WorkspaceRole } from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  handleCommand,
  notCaughtUp,
  ROLE_REFUSED_MESSAGE,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
  signedInUserId,
  tokenReaches,
  tokenSpace,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { ProjectsEnv } from '../env.ts';
import {
  listProjectsJson,
  listPublicProjects,
  listPublicTeamProjects,
  reachProject,
} from '../read-models/project-list/index.ts';
import { workspaceMembers } from '../read-models/workspace-members/index.ts';
import { type ProjectCommand, projectDecider } from './decide.ts';
import { type ProjectEvent, projectStream, toView } from './project.ts';
import { projectRoutes } from './routes.ts';

export function projectsApi(context: ServiceContext<ProjectsEnv>) {
  const { store, pool } = context;

  /** The path's project id (`parsed.project` answers 404 for a malformed one). */
  const projectIdOf = (req: Request): string => String(req.params.id ?? '');

  async function run(req: Request, res: Response, projectId: string, command: ProjectCommand, idempotencyKey?: string) {
    const caller = callerOf(req);
    const result = await handleCommand(store, projectStream(projectId), projectDecider, command, {
      userId: caller.userId,
      // The timeline says which token acted for its user (a CI job's, the CLI's).
      ...(caller.apiToken ? { token: caller.apiToken.name } : {}),
      address: caller.address,
      correlationId: caller.correlationId,
      // A create names its project with a new id: there is no history to read.
      newStream: command.type === 'CreateProject',
      // A move is decided from where the project is: the same move racing itself (a double click)
      // decides again and finds it there already, rather than answering a conflict.
      retries: command.type === 'MoveProject' ? 3 : 0,
      idempotencyKey,
      now: context.now(),
    });
    if (result.position) reportPosition(res, 'projects', result.position);
    return result;
  }

  /**
   * A record's `Idempotency-Key` (createdId), per project: the same record sent again decides again
   * and appends the same event ids, which the store answers as the first append.
   */
  function recordKey(req: Request, userId: string, kind: string, projectId: string) {
    return createdId(req, userId, `${kind}:${projectId}`);
  }

  /** The record a record-call answers: the event's id (the timeline row's id too) and its data. */
  function recorded(events: ProjectEvent[], type: ProjectEvent['type']) {
    const event = events.find((e) => e.type === type);
    if (!event) throw new Error(`${type} was not produced`);
    return event.data;
  }

  const reach = (projectId: string, userId: string) => reachProject(pool, projectId, userId);
  /** A team project's plan is its workspace owners' (read-only while none has one); a personal one's, its caller's. */
  const plans = teamPlans({ ...context, members: workspaceMembers });

  /**
   * The caller's role in a workspace a project is made in (`least`: member) or moved to (admin): anyone
   * else learns nothing (404), and a lesser role is refused (403). A workspace joined a moment ago is
   * known here (the caller's own writes are waited for), and one whose owners have no plan takes nothing.
   */
  async function roleIn(req: Request, workspaceId: string, least: WorkspaceRole): Promise<WorkspaceRole> {
    const caughtUp = await catchUp(req);
    const role = await workspaceMembers.roleIn(pool, workspaceId, requireUserId(req));
    if (!role) throw caughtUp ? new NotFoundError('Workspace not found', 'WORKSPACE_NOT_FOUND') : notCaughtUp();
    if (!roleAtLeast(role, least)) throw new ForbiddenError(ROLE_REFUSED_MESSAGE);
    await plans.writable({ workspaceId }, callerOf(req));
    return role;
  }

  return serveRoutes(
    projectRoutes,
    {
      // The list every page loads: answered without Express (service-kit's `LeanRead`).
      'GET /projects': { lean: (caller) => listProjectsJson(pool, signedInUserId(caller), tokenSpace(caller)) },

      'GET /public/users/:userId/projects': async (req, res) => {
        const { userId } = req.params;
        res.json(isId(userId) ? await listPublicProjects(pool, userId) : []);
      },

      'GET /public/workspaces/:workspaceId/projects': async (req, res) => {
        const { workspaceId } = req.params;
        res.json(isId(workspaceId) ? await listPublicTeamProjects(pool, workspaceId) : []);
      },

      'GET /projects/:id': async (req, res, parsed) => {
        const { doc, workspaceId, role } = await parsed.project(projectIdOf(req));
        res.json({ ...doc, workspaceId, role });
      },

      'POST /projects': async (req, res, parsed) => {
        const userId = requireUserId(req);
        // A token limited to one workspace makes its projects there; to its space only, as it reads.
        const space = tokenSpace(callerOf(req));
        const input =
          space !== null && space !== PERSONAL_SPACE && !parsed.body.workspaceId
            ? { ...parsed.body, workspaceId: space }
            : parsed.body;
        if (!tokenReaches(callerOf(req), input.workspaceId ?? null))
          throw new NotFoundError('Workspace not found', 'WORKSPACE_NOT_FOUND');
        const role = input.workspaceId ? await roleIn(req, input.workspaceId, 'member') : 'owner';
        const { id: projectId, idempotencyKey } = createdId(req, userId, 'project');
        const { state } = await run(
          req,
          res,
          projectId,
          { type: 'CreateProject', projectId, userId, input },
          idempotencyKey,
        );
        if (state.lifecycle !== 'active') throw new Error('project was not created');
        res.status(201).json({ ...toView(state), role });
      },

      'PUT /projects/:id': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId, role } = await parsed.project(projectIdOf(req));
        const input = parsed.body;
        if (input.id !== undefined && input.id !== projectId) {
          throw new ValidationError({ id: ['The id in the body does not match the project being updated'] });
        }
        const { state } = await run(req, res, projectId, { type: 'UpdateProject', userId, input });
        if (state.lifecycle !== 'active') throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
        res.json({ ...toView(state), role });
      },

      'DELETE /projects/:id': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId } = await parsed.project(projectIdOf(req));
        await run(req, res, projectId, { type: 'DeleteProject', userId });
        res.status(204).end();
      },

      'POST /projects/:id/move': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId } = await parsed.project(projectIdOf(req));
        const to = parsed.body.workspaceId;
        // The other side: a workspace the caller is an owner or admin of, whose plan allows changes.
        const roleThere = to ? await roleIn(req, to, 'admin') : 'owner';
        const { state } = await run(req, res, projectId, { type: 'MoveProject', userId, to });
        if (state.lifecycle !== 'active') throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
        res.json({ ...toView(state), role: roleThere });
      },

      'POST /projects/:id/backup': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId } = await parsed.project(projectIdOf(req));
        const input = parsed.body;
        const { idempotencyKey } = recordKey(req, userId, 'backup', projectId);
        const { events } = await run(req, res, projectId, { type: 'RecordBackup', userId, input }, idempotencyKey);
        res.status(201).json({ type: 'backup', ...recorded(events, 'BackupRecorded') });
      },

      'POST /projects/:id/deployment': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId } = await parsed.project(projectIdOf(req));
        const { status, ...input } = parsed.body;
        const { idempotencyKey } = recordKey(req, userId, 'deployment', projectId);
        const { events } = await run(
          req,
          res,
          projectId,
          { type: 'RecordDeployment', userId, input, status, source: null },
          idempotencyKey,
        );
        res.status(201).json({ type: 'deployment', ...recorded(events, 'DeploymentRecorded') });
      },

      'POST /projects/:id/version': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { id: projectId } = await parsed.project(projectIdOf(req));
        const input = parsed.body;
        const { idempotencyKey } = recordKey(req, userId, 'version', projectId);
        const { events } = await run(req, res, projectId, { type: 'ReleaseVersion', userId, input }, idempotencyKey);
        res.status(201).json({ type: 'version_release', ...recorded(events, 'VersionReleased') });
      },

      // The Quick Update, for subscribed users only (a team project: its owners), by billing's word at this moment.
      'POST /activities': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const input = parsed.body;
        // Whose project it is before the plan: a stranger gets 404 whatever their plan.
        const reached = await parsed.project(input.projectId);
        const projectId = reached.id;
        const { idempotencyKey } = recordKey(req, userId, 'quick-update', projectId);
        const subscribed = await plans.subscribed(reached, callerOf(req));
        const { events } = await run(
          req,
          res,
          projectId,
          {
            type: 'LogQuickUpdate',
            userId,
            notes: input.notes,
            redeployed: input.redeployed,
            backedUp: input.backedUp,
            subscribed,
          },
          idempotencyKey,
        );
        res.status(201).json({ type: 'quick_update', ...recorded(events, 'QuickUpdateLogged') });
      },
    },
    { reach, writable: plans.writable },
  );
}
