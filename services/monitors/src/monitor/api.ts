import { currentSubscription, type ReachedProject, teamPlans } from '@shiplog/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import type { Outbound } from '@shiplog/outbound';
import {
  createDomainMonitorSchema,
  createExpectationSchema,
  createMonitorSchema,
  inPaidTier,
  MAX_MONITORS,
  MONITORS_NEED_PLAN_MESSAGE,
  type MonitorView,
} from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  handleCommand,
  inAppendTransaction,
  loadAggregate,
  parseInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import { unlessForgotten } from '@shiplog/vault';
import type { Request, Response } from 'express';
import type pg from 'pg';
import type { MonitorsEnv } from '../env.ts';
import { type MonitorSlotsCommand, monitorSlotsDecider } from '../monitor-slots/decide.ts';
import { monitorSlotsStream } from '../monitor-slots/monitor-slots.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import { monitorList } from '../read-models/monitor-list/index.ts';
import { type MonitorCommand, MonitorNotFoundError, monitorDecider } from './decide.ts';
import { type AddedMonitor, type MonitorSettings, monitorStream } from './monitor.ts';
import { monitorRoutes } from './routes.ts';

/**
 * A new monitor's settings from the request: a URL to check, or (`kind` backup or deployment) one
 * expected at a cadence, for which a single miss opens an incident.
 */
function settingsOf(body: unknown): MonitorSettings {
  const kind = (body as { kind?: unknown } | null)?.kind;
  if (kind === 'domain') {
    const { domain } = parseInput(createDomainMonitorSchema, body);
    // Looked up once a day; two lookups in a row that fail open an incident.
    return {
      kind,
      url: domain,
      intervalSeconds: 86_400,
      graceSeconds: 0,
      expectedStatuses: '200',
      keyword: null,
      keywordPresent: true,
      failureThreshold: 2,
      repeatMinutes: 0,
      maxResponseMs: null,
    };
  }
  if (kind === 'backup' || kind === 'deployment') {
    const input = parseInput(createExpectationSchema, body);
    return {
      ...input,
      url: '',
      expectedStatuses: '200-399',
      keyword: null,
      keywordPresent: true,
      failureThreshold: 1,
      repeatMinutes: 0,
      maxResponseMs: null,
    };
  }
  return { kind: 'http', graceSeconds: 0, ...parseInput(createMonitorSchema, body) };
}

/** A monitor as a write answers it: from its stream, before any check has reported. */
function viewOf(state: AddedMonitor, at: string): MonitorView {
  return {
    id: state.id,
    projectId: state.projectId,
    projectName: state.projectName,
    ...state.settings,
    state: state.paused ? 'paused' : state.incident ? 'down' : 'pending',
    pausedBy: state.paused,
    maintenanceSince: null,
    since: at,
    lastCheck: null,
    uptime: { day: null, month: null },
    openIncident: state.incident,
    createdAt: at,
  };
}

/** A route's reach into the project it acts on (`parsed.project`: see `RouteDeclaration.project`). */
interface ProjectReach {
  project: (projectId: string) => Promise<ReachedProject>;
}

/**
 * Monitors on the projects the caller reaches: add, list, change, pause and resume, remove, each as
 * the caller's role on the project allows (its route's `project`). `outbound` is the
 * checks' own: a URL it would refuse (a private address, its name resolved as a check resolves it) is
 * refused when typed, on its field, unless `MONITOR_ALLOWED_HOSTS` allows it.
 */
export function monitorsApi(context: ServiceContext<MonitorsEnv>, outbound: Pick<Outbound, 'screen'>) {
  const { store, pool, services, now } = context;

  /** A URL check's address, refused now with the reason rather than reported down at every check. */
  async function screenUrl(url: string | undefined) {
    if (url === undefined) return;
    const refused = await outbound.screen(new URL(url));
    if (refused) throw new ValidationError({ url: [refused] });
  }

  /** The monitor the path names: a malformed id is a monitor that does not exist. */
  function monitorIdOf(req: Request): string {
    const id = req.params.id;
    if (!isId(id)) throw new MonitorNotFoundError();
    return id;
  }

  /**
   * The caller's role on the monitor's project, as its route asks: one they have no role on is, as a
   * monitor that does not exist, not found (they learn nothing of it); a lesser role is refused.
   */
  async function reachProjectOf(parsed: ProjectReach, projectId: string): Promise<ReachedProject> {
    return parsed.project(projectId).catch((error: unknown) => {
      if (error instanceof NotFoundError && error.code === 'PROJECT_NOT_FOUND') throw new MonitorNotFoundError();
      throw error;
    });
  }

  /**
   * The live monitor the path names, from its stream, once the caller's role on its project allows the
   * route (their own changes to who belongs where waited for first).
   */
  async function reachMonitor(req: Request, parsed: ProjectReach) {
    const { state } = await loadAggregate(store, monitorStream(monitorIdOf(req)), monitorDecider);
    if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
    await catchUp(req);
    const project = await reachProjectOf(parsed, state.projectId);
    // Where its project is now: a team's monitor's events are the team's (decision 057).
    return { monitor: state, space: project.workspaceId };
  }

  async function run(
    req: Request,
    res: Response,
    monitorId: string,
    command: MonitorCommand,
    options: { idempotencyKey?: string; transaction?: pg.PoolClient } = {},
  ) {
    const caller = callerOf(req);
    const result = await handleCommand(store, monitorStream(monitorId), monitorDecider, command, {
      userId: caller.userId,
      address: caller.address,
      correlationId: caller.correlationId,
      now: now(),
      ...options,
    });
    if (result.position) reportPosition(res, 'monitors', result.position);
    if (result.state.lifecycle === 'none') throw new MonitorNotFoundError();
    return result;
  }

  /**
   * A command on the monitor and one on its owner's slots, committed together (one transaction with
   * the PostgreSQL store): a monitor is never added without its slot, nor removed keeping it. The
   * slots' stream is decided again on each conflict with a parallel add or removal; each conflict is
   * one that went through, so after as many as the cap every later add is refused, not failed.
   */
  async function withSlot(
    req: Request,
    res: Response,
    slots: MonitorSlotsCommand,
    monitor: (tx: pg.PoolClient) => ReturnType<typeof run>,
  ) {
    const caller = callerOf(req);
    const result = await inAppendTransaction(context, async (tx) => {
      // An add takes its slot first: of two racing for the last one, the second is refused here.
      if (slots.type === 'TakeSlot') await slot(tx);
      const changed = await monitor(tx);
      if (slots.type === 'FreeSlot') await slot(tx).catch(unlessForgotten);
      return changed;
    });
    // Positions are known once committed: the monitor's events are published, the slots' are not.
    if (result.appended) reportPosition(res, 'monitors', result.appended.position);
    return result.state;

    function slot(tx: pg.PoolClient) {
      return handleCommand(store, monitorSlotsStream(slots.userId), monitorSlotsDecider, slots, {
        userId: caller.userId,
        correlationId: caller.correlationId,
        transaction: tx,
        retries: MAX_MONITORS,
        now: now(),
      });
    }
  }

  /** Monitors are added and resumed only while the plan runs them (billing's word, at this moment). */
  async function requirePlan(req: Request) {
    if (!inPaidTier(await currentSubscription(services, callerOf(req)), now()))
      throw new ForbiddenError(MONITORS_NEED_PLAN_MESSAGE, 'SUBSCRIPTION_REQUIRED');
  }

  return serveRoutes<typeof monitorRoutes, ReachedProject>(
    monitorRoutes,
    {
      'GET /monitors': async (req, res) => {
        res.json(await monitorList.ofUser(pool, requireUserId(req), now()));
      },

      // For a public status page (the gateway's publicStatus): the monitors of the projects it names,
      // which the gateway read as the user's public ones; not on the /api surface.
      'GET /public/users/:userId/status': async (req, res) => {
        const { userId } = req.params;
        const projects = String(req.query.projects ?? '')
          .split(',')
          .filter(isId);
        res.json(
          isId(userId) && projects.length > 0
            ? await monitorList.status(pool, { userId }, projects, now())
            : { monitors: [], incidents: [] },
        );
      },

      'GET /public/workspaces/:workspaceId/status': async (req, res) => {
        const { workspaceId } = req.params;
        const projects = String(req.query.projects ?? '')
          .split(',')
          .filter(isId);
        res.json(
          isId(workspaceId) && projects.length > 0
            ? await monitorList.status(pool, { workspaceId }, projects, now())
            : { monitors: [], incidents: [] },
        );
      },

      // Every monitor of the project, whoever on it made it.
      'GET /projects/:projectId/monitors': async (req, res, parsed) => {
        const project = await parsed.project(String(req.params.projectId));
        res.json(await monitorList.ofProject(pool, project.id, now()));
      },

      'POST /projects/:projectId/monitors': async (req, res, parsed) => {
        const userId = requireUserId(req);
        // The project may have been created a moment ago: wait for our view of projects to include it.
        await catchUp(req);
        const project = await parsed.project(String(req.params.projectId));
        const settings = settingsOf(req.body);
        if (settings.kind === 'http') await screenUrl(settings.url);
        // The plan and the monitor slots are the caller's: the monitor is theirs on the project.
        await requirePlan(req);
        const { id: monitorId, idempotencyKey } = createdId(req, userId, 'monitor');
        const listed = await monitorList.idsOf(pool, userId);
        const state = await withSlot(
          req,
          res,
          { type: 'TakeSlot', userId, monitorId, listed, allowed: MAX_MONITORS },
          (transaction) =>
            run(
              req,
              res,
              monitorId,
              {
                type: 'AddMonitor',
                userId,
                monitorId,
                project: { id: project.id, name: project.name },
                settings,
                space: project.workspaceId,
              },
              { idempotencyKey, transaction },
            ),
        );
        if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
        res.status(201).json(viewOf(state, now().toISOString()));
      },

      'PATCH /monitors/:id': async (req, res, parsed) => {
        const {
          monitor: { id: monitorId },
          space,
        } = await reachMonitor(req, parsed);
        const { paused, ...changes } = parsed.body;
        await screenUrl(changes.url);
        if (paused === false) await requirePlan(req);
        let { state } = await run(req, res, monitorId, { type: 'ChangeMonitor', changes, space });
        if (paused !== undefined)
          ({ state } = await run(
            req,
            res,
            monitorId,
            paused ? { type: 'PauseMonitor', reason: 'user', space } : { type: 'ResumeMonitor', space },
          ));
        if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
        res.json(viewOf(state, now().toISOString()));
      },

      // A read, on the list the monitor is in (its project there).
      'GET /monitors/:id/incidents': async (req, res, parsed) => {
        const monitorId = monitorIdOf(req);
        const projectId = await monitorList.projectOf(pool, monitorId);
        if (!projectId) throw new MonitorNotFoundError();
        await reachProjectOf(parsed, projectId);
        res.json(await monitorList.incidents(pool, monitorId));
      },

      'PUT /monitors/:id/incidents/:incidentId/note': async (req, res, parsed) => {
        const {
          monitor: { id: monitorId },
          space,
        } = await reachMonitor(req, parsed);
        const { note } = parsed.body;
        const incidentId = req.params.incidentId;
        if (!isId(incidentId)) throw new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');
        await run(req, res, monitorId, { type: 'NoteIncident', incidentId, note, space });
        res.json({ id: incidentId, note });
      },

      'DELETE /monitors/:id': async (req, res, parsed) => {
        const { monitor, space } = await reachMonitor(req, parsed);
        // Its slot is its maker's, whoever removes it.
        await withSlot(req, res, { type: 'FreeSlot', userId: monitor.userId, monitorId: monitor.id }, (transaction) =>
          run(req, res, monitor.id, { type: 'RemoveMonitor', reason: 'user', space }, { transaction }),
        );
        res.status(204).end();
      },
    },
    {
      reach: (projectId, userId) => knownProjects.reach(pool, projectId, userId),
      writable: teamPlans({ ...context, members: knownProjects.members }).writable,
    },
  );
}
