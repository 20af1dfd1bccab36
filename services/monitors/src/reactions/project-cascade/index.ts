import { NotFoundError } from '@shiplog/errors';
import { MAX_MONITORS } from '@shiplog/schemas';
import {
  type Batch,
  type ConsumerDefinition,
  causedBy,
  handleCommand,
  loadAggregate,
  moveWithProject,
  type ReceivedEvent,
  type ServiceContext,
} from '@shiplog/service-kit';
import { unlessForgotten } from '@shiplog/vault';
import type pg from 'pg';
import type { MonitorsEnv } from '../../env.ts';
import { monitorDecider } from '../../monitor/decide.ts';
import { monitorStream } from '../../monitor/monitor.ts';
import { monitorSlotsDecider } from '../../monitor-slots/decide.ts';
import { monitorSlotsStream } from '../../monitor-slots/monitor-slots.ts';
import { lastRuns, pingRuns, ran } from '../../ping/runs.ts';
import { knownProjects } from '../../read-models/known-projects/index.ts';

/**
 * The cascade: a deleted project's monitors go. One consumer reads the users', the projects' and the
 * monitors' events, in the bus's one order, keeping what this service knows of them
 * (read-models/known-projects), so a monitor added just as its project is deleted is seen after the
 * deletion and removed too. A moved project's monitors are stated again under its new key. It keeps each
 * project's latest deployment too (`recent_deploys`), so an incident soon after one names it. It appends
 * (MonitorRemoved, the freed slot, MonitorMoved), so it is a reaction, not a projection.
 */
export function projectsReaction(context: ServiceContext<MonitorsEnv>): ConsumerDefinition {
  /** The monitor goes, and its slot with it, in the consumer's transaction. */
  const removeMonitor = async (event: ReceivedEvent, tx: pg.PoolClient, monitorId: string, space: string | null) => {
    await handleCommand(
      context.store,
      monitorStream(monitorId),
      monitorDecider,
      { type: 'RemoveMonitor', reason: 'project_deleted', space },
      causedBy(event, tx, `cascade:${event.id}:${monitorId}`),
    ).catch((error: unknown) => {
      // Already removed by its owner: nothing to cascade.
      if (!(error instanceof NotFoundError)) throw error;
    });
    // Freed whoever removed it (a slot is freed once): a store whose appends cannot join the
    // transaction may have removed it in an earlier try of this event.
    const { state } = await loadAggregate(context.store, monitorStream(monitorId), monitorDecider, tx);
    if (state.lifecycle !== 'removed') return;
    await handleCommand(
      context.store,
      monitorSlotsStream(state.userId),
      monitorSlotsDecider,
      { type: 'FreeSlot', userId: state.userId, monitorId },
      // Decided again if the owner adds or removes another monitor at the same moment.
      { ...causedBy(event, tx, `cascade-slot:${event.id}:${monitorId}`), retries: MAX_MONITORS },
    ).catch(unlessForgotten);
  };

  return {
    name: 'projects',
    sources: ['identity', 'projects', 'monitors'],
    handlers: {
      // Who and what (deferred to the batch's commit); the handlers that read or change
      // monitors.projects at once flush those writes first.
      ...knownProjects.handlers,
      // The latest deployment of each project: an incident soon after it names it, and an expected
      // deployment is checked against it (a failed one is not the run that was expected).
      DeploymentRecorded: async ({ data }, _tx, { defer }) => {
        defer(
          `INSERT INTO monitors.recent_deploys (project_id, user_id, version, environment, at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (project_id) DO UPDATE SET version = EXCLUDED.version, environment = EXCLUDED.environment,
             at = EXCLUDED.at WHERE recent_deploys.at <= EXCLUDED.at`,
          [data.projectId, data.userId, data.version, data.environment, data.at],
        );
        if (data.status === 'success') ran(defer, data, 'deployment');
        // A production deployment under way holds its monitors' alerts until it ends (maintenance).
        if (data.environment !== 'production') return;
        if (data.status === 'started')
          defer(
            `INSERT INTO monitors.maintenance (project_id, user_id, version, started_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (project_id) DO UPDATE SET version = EXCLUDED.version, started_at = EXCLUDED.started_at,
               ended_at = NULL WHERE maintenance.started_at <= EXCLUDED.started_at`,
            [data.projectId, data.userId, data.version, data.at],
          );
        else
          defer(
            'UPDATE monitors.maintenance SET ended_at = $2 WHERE project_id = $1 AND ended_at IS NULL AND started_at <= $2',
            [data.projectId, data.at],
          );
      },
      BackupRecorded: async ({ data }, _tx, { defer }) => ran(defer, data, 'backup'),
      QuickUpdateLogged: async ({ data }, _tx, { defer }) => {
        if (data.backedUp) ran(defer, data, 'backup');
        if (data.redeployed) ran(defer, data, 'deployment');
      },
      ProjectDeleted: async (event, tx, batch) => {
        await batch.flush();
        await knownProjects.deleted(tx, event.data.projectId);
        await tx.query('DELETE FROM monitors.recent_deploys WHERE project_id = $1', [event.data.projectId]);
        await lastRuns.forget(tx, event.data.projectId);
        await tx.query('DELETE FROM monitors.maintenance WHERE project_id = $1', [event.data.projectId]);
        pingRuns.forget(batch, event.data.projectId);
        const { rows } = await tx.query<{ monitor_id: string }>(
          'DELETE FROM monitors.project_monitors WHERE project_id = $1 RETURNING monitor_id',
          [event.data.projectId],
        );
        for (const row of rows) await removeMonitor(event, tx, row.monitor_id, event.data.workspaceId ?? null);
      },
      // Its monitors go with it, each stated again under the project's new key (decision 058).
      ProjectMovedIn: async (event, tx, batch) => {
        await knownProjects.handlers.ProjectMovedIn(event, tx, batch);
        const { rows } = await tx.query<{ monitor_id: string }>(
          'SELECT monitor_id FROM monitors.project_monitors WHERE project_id = $1',
          [event.data.projectId],
        );
        const ids = rows.map((row) => row.monitor_id);
        await moveWithProject(context.store, event, tx, { ids, stream: monitorStream }, monitorDecider);
      },
      MonitorAdded: async (event, tx, batch) => followMonitor(event, tx, batch),
      MonitorRemoved: async ({ data }, tx) => {
        await tx.query('DELETE FROM monitors.project_monitors WHERE monitor_id = $1', [data.monitorId]);
      },
    },
  };

  /** A monitor joins its project's list, or goes at once if the project was deleted meanwhile. */
  async function followMonitor(event: ReceivedEvent<'MonitorAdded'>, tx: pg.PoolClient, batch: Batch) {
    const { monitorId, projectId, userId, workspaceId } = event.data;
    await batch.flush();
    if (await knownProjects.isDeleted(tx, projectId)) {
      await removeMonitor(event, tx, monitorId, workspaceId ?? null);
      return;
    }
    await tx.query(
      'INSERT INTO monitors.project_monitors (monitor_id, project_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [monitorId, projectId, userId],
    );
  }
}

/**
 * The project's deployment shortly before `since` (within `windowMinutes`), if any: what an incident
 * opening then names (`recent_deploys`, kept here).
 */
export async function deployBefore(
  db: Pick<pg.Pool, 'query'>,
  projectId: string,
  since: Date,
  windowMinutes: number,
): Promise<{ version: string | null; environment: string } | null> {
  const { rows } = await db.query<{ version: string | null; environment: string }>(
    `SELECT version, environment FROM monitors.recent_deploys
     WHERE project_id = $1 AND at <= $2 AND at > $2::timestamptz - make_interval(mins => $3)`,
    [projectId, since, windowMinutes],
  );
  return rows[0] ?? null;
}
