import { type ReachedProject, teamPlans } from '@shiplog/contracts';
import { NotFoundError, ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { ASSIGNEE_MESSAGE, notificationTimeOptions, roleAtLeast } from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  deterministicId,
  handleCommand,
  loadAggregate,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { RemindersEnv } from '../env.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import { findReminder, listReminders } from '../read-models/reminder-list/index.ts';
import { type ReminderCommand, reminderDecider } from './decide.ts';
import { reminderStream, toView } from './reminder.ts';
import { reminderRoutes } from './routes.ts';

const reminderNotFound = () => new NotFoundError('Reminder not found', 'REMINDER_NOT_FOUND');
const isProjectNotFound = (error: unknown) => error instanceof NotFoundError && error.code === 'PROJECT_NOT_FOUND';

/** The project a route names, when the caller has a role on it that the route allows (`parsed.project`). */
type Reach<P> = (projectId: string) => Promise<P>;

/**
 * The reminder's project, reached for a route about the reminder: with no role on it the caller learns
 * nothing, the reminder is not found as a missing one is (a lesser role than the route's is a 403).
 */
async function reminderProject<P>(reach: Reach<P>, projectId: string): Promise<P> {
  try {
    return await reach(projectId);
  } catch (error) {
    throw isProjectNotFound(error) ? reminderNotFound() : error;
  }
}

/**
 * The project a new reminder attaches to, or null when the service does not know it or the caller has
 * no role on it (the decider refuses a new one without it, and answers a repeated create as before).
 */
async function projectToAddTo<P>(reach: Reach<P>, projectId: string): Promise<P | null> {
  try {
    return await reach(projectId);
  } catch (error) {
    if (isProjectNotFound(error)) return null;
    throw error;
  }
}

export function remindersApi(context: ServiceContext<RemindersEnv>) {
  const { store, pool, now } = context;

  function idOf(req: Request): string {
    const id = req.params.id;
    if (!isId(id)) throw reminderNotFound();
    return id;
  }

  /**
   * The reminder a route acts on, when it is live and the caller's role on its project allows the
   * route, with that project: its stream says which project (a reminder never moves), so a reminder
   * made a moment ago is found.
   */
  async function reachedWithProject<P>(req: Request, reach: Reach<P>): Promise<{ reminderId: string; project: P }> {
    const reminderId = idOf(req);
    const { state } = await loadAggregate(store, reminderStream(reminderId), reminderDecider);
    if (state.lifecycle !== 'active') throw reminderNotFound();
    return { reminderId, project: await reminderProject(reach, state.projectId) };
  }

  /**
   * Refuses an assignee who may not change the reminder's project (400): on a team's project, a member
   * of its workspace above viewer; on a personal one, its owner alone. Nobody is mailed someone else's.
   */
  async function checkAssignee(project: ReachedProject | null, assigneeId: string | undefined): Promise<void> {
    if (!project || assigneeId === undefined) return;
    const role = project.workspaceId
      ? await knownProjects.members.roleIn(pool, project.workspaceId, assigneeId)
      : assigneeId === project.userId
        ? 'owner'
        : null;
    if (!role || !roleAtLeast(role, 'member')) throw new ValidationError({ assigneeId: [ASSIGNEE_MESSAGE] });
  }

  async function run(
    req: Request,
    res: Response,
    reminderId: string,
    command: ReminderCommand,
    idempotencyKey?: string,
  ) {
    const caller = callerOf(req);
    const result = await handleCommand(store, reminderStream(reminderId), reminderDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      idempotencyKey,
      now: now(),
    });
    if (result.position) reportPosition(res, 'reminders', result.position);
    if (result.state.lifecycle !== 'active') throw reminderNotFound();
    return toView(result.state);
  }

  return serveRoutes(
    reminderRoutes,
    {
      'GET /reminders': async (req, res) => {
        res.json(await listReminders(pool, requireUserId(req)));
      },

      'GET /reminders/options/notification-times': (_req, res) => {
        res.json(notificationTimeOptions);
      },

      'GET /reminders/project/:projectId': async (req, res, parsed) => {
        const project = await parsed.project(req.params.projectId ?? '');
        res.json(await listReminders(pool, requireUserId(req), project.id));
      },

      'GET /reminders/:id': async (req, res, parsed) => {
        const reminder = await findReminder(pool, idOf(req));
        if (!reminder) throw reminderNotFound();
        await reminderProject(parsed.project, reminder.projectId);
        res.json(reminder);
      },

      'POST /reminders': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const input = parsed.body;
        // The project may have been created a moment ago: wait for our view of projects to include it.
        await catchUp(req);
        const project = await projectToAddTo(parsed.project, input.projectId);
        await checkAssignee(project, input.assigneeId);
        const { id: reminderId, idempotencyKey } = createdId(req, userId, 'reminder');
        res
          .status(201)
          .json(
            await run(
              req,
              res,
              reminderId,
              { type: 'AddReminder', reminderId, userId, project, input, space: project?.workspaceId ?? null },
              idempotencyKey,
            ),
          );
      },

      // Import from a Shiplog export (the gateway's import.ts): the file's reminders, each for one of the
      // user's imported projects (its id here); answers their ids here and how many it added (the others
      // were imported before). Internal: not on the /api surface.
      'POST /imports/reminders': async (req, res, parsed) => {
        const userId = requireUserId(req);
        const { reminders } = parsed.body;
        // The projects were imported a moment ago: wait for our view of projects to include them.
        await catchUp(req);
        const ids: Record<string, string> = {};
        let added = 0;
        for (const input of reminders) {
          const project = await projectToAddTo(parsed.project, input.projectId);
          const reminderId = deterministicId(`import-reminder:${userId}:${input.id}`);
          const result = await handleCommand(
            store,
            reminderStream(reminderId),
            reminderDecider,
            { type: 'ImportReminder', reminderId, userId, project, input, space: project?.workspaceId ?? null },
            { userId, correlationId: callerOf(req).correlationId, retries: 1, now: now() },
          );
          if (result.position) reportPosition(res, 'reminders', result.position);
          if (result.events.length > 0) added++;
          ids[input.id] = reminderId;
        }
        res.json({ ids, added });
      },

      // The caller's role on the reminder's project first: one who may not change it learns nothing of the body.
      'PATCH /reminders/:id': async (req, res, parsed) => {
        const { reminderId, project } = await reachedWithProject(req, parsed.project);
        await checkAssignee(project, parsed.body.assigneeId);
        res.json(
          await run(req, res, reminderId, { type: 'UpdateReminder', input: parsed.body, space: project.workspaceId }),
        );
      },

      'POST /reminders/:id/complete': async (req, res, parsed) => {
        const { reminderId, project } = await reachedWithProject(req, parsed.project);
        res.json(await run(req, res, reminderId, { type: 'CompleteReminder', space: project.workspaceId }));
      },

      'POST /reminders/:id/reactivate': async (req, res, parsed) => {
        const { reminderId, project } = await reachedWithProject(req, parsed.project);
        res.json(await run(req, res, reminderId, { type: 'ReactivateReminder', space: project.workspaceId }));
      },

      'DELETE /reminders/:id': async (req, res, parsed) => {
        const { reminderId, project } = await reachedWithProject(req, parsed.project);
        const caller = callerOf(req);
        const result = await handleCommand(
          store,
          reminderStream(reminderId),
          reminderDecider,
          { type: 'DeleteReminder', reason: 'user', space: project.workspaceId },
          { userId: caller.userId, correlationId: caller.correlationId, now: now() },
        );
        if (result.position) reportPosition(res, 'reminders', result.position);
        res.status(204).end();
      },
    },
    // The caller's role on a project, as this service knows projects and their workspaces' members.
    {
      reach: (projectId: string, userId: string) => knownProjects.reach(pool, projectId, userId),
      writable: teamPlans({ ...context, members: knownProjects.members }).writable,
    },
  );
}
