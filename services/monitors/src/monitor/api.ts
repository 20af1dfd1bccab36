import { currentSubscription } from '@shiplog/contracts';
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
  parseInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
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

/**
 * Monitors on the caller's projects: add, list, change, pause and resume, remove. `outbound` is the
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

  function idOf(req: Request, param: 'id' | 'projectId'): string {
    const id = req.params[param];
    if (!isId(id)) {
      if (param === 'id') throw new MonitorNotFoundError();
      throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
    }
    return id;
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
      if (slots.type === 'FreeSlot') await slot(tx);
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

  /** The caller's project, as this service knows it: another user's, or a deleted one, is not found. */
  async function ownProject(req: Request, userId: string) {
    const project = await knownProjects.find(pool, idOf(req, 'projectId'));
    if (!project || project.userId !== userId) throw new NotFoundError('Project not found', 'PROJECT_NOT_FOUND');
    return project;
  }

  return serveRoutes(monitorRoutes, {
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
          ? await monitorList.status(pool, userId, projects, now())
          : { monitors: [], incidents: [] },
      );
    },

    'GET /projects/:projectId/monitors': async (req, res) => {
      const userId = requireUserId(req);
      const project = await ownProject(req, userId);
      res.json(await monitorList.ofProject(pool, userId, project.id, now()));
    },

    'POST /projects/:projectId/monitors': async (req, res) => {
      const userId = requireUserId(req);
      const settings = settingsOf(req.body);
      if (settings.kind === 'http') await screenUrl(settings.url);
      await requirePlan(req);
      // The project may have been created a moment ago: wait for our view of projects to include it.
      await catchUp(req);
      const project = await ownProject(req, userId);
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
            { type: 'AddMonitor', userId, monitorId, project, settings },
            {
              idempotencyKey,
              transaction,
            },
          ),
      );
      if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
      res.status(201).json(viewOf(state, now().toISOString()));
    },

    'PATCH /monitors/:id': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { paused, ...changes } = parsed.body;
      const monitorId = idOf(req, 'id');
      await screenUrl(changes.url);
      if (paused === false) await requirePlan(req);
      let { state } = await run(req, res, monitorId, { type: 'ChangeMonitor', userId, changes });
      if (paused !== undefined)
        ({ state } = await run(
          req,
          res,
          monitorId,
          paused ? { type: 'PauseMonitor', userId, reason: 'user' } : { type: 'ResumeMonitor', userId },
        ));
      if (state.lifecycle !== 'active') throw new MonitorNotFoundError();
      res.json(viewOf(state, now().toISOString()));
    },

    'GET /monitors/:id/incidents': async (req, res) => {
      const userId = requireUserId(req);
      const monitorId = idOf(req, 'id');
      if (!(await monitorList.exists(pool, userId, monitorId))) throw new MonitorNotFoundError();
      res.json(await monitorList.incidents(pool, userId, monitorId));
    },

    'PUT /monitors/:id/incidents/:incidentId/note': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { note } = parsed.body;
      const incidentId = req.params.incidentId;
      if (!isId(incidentId)) throw new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');
      await run(req, res, idOf(req, 'id'), { type: 'NoteIncident', userId, incidentId, note });
      res.json({ id: incidentId, note });
    },

    'DELETE /monitors/:id': async (req, res) => {
      const userId = requireUserId(req);
      const monitorId = idOf(req, 'id');
      await withSlot(req, res, { type: 'FreeSlot', userId, monitorId }, (transaction) =>
        run(req, res, monitorId, { type: 'RemoveMonitor', userId, reason: 'user' }, { transaction }),
      );
      res.status(204).end();
    },
  });
}
