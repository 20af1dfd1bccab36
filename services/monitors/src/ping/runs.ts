import { type Batch, secretLinks } from '@shiplog/service-kit';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** A project's cron ping URL: one per project, made and replaced by its owner, gone with the project. */
export const pingLinks = secretLinks<{ project_id: string; user_id: string }>('monitors.ping_links', 'project_id');

/** How a pinged run ended, or `running` until it does. */
export type PingOutcome = 'running' | 'ok' | 'failed';

export interface PingRun {
  startedAt: string;
  endedAt: string | null;
  outcome: PingOutcome;
  /** How long it ran, from its `/start` (null without one, or while it runs). */
  seconds: number | null;
}

/** A backup or deployment of a project ran (recorded, or pinged): what an expectation of one is checked against. */
export function ran(defer: Batch['defer'], run: { projectId: string; userId: string; at: string }, kind: string) {
  defer(
    `INSERT INTO monitors.last_runs (project_id, kind, user_id, at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, kind) DO UPDATE SET at = EXCLUDED.at WHERE last_runs.at < EXCLUDED.at`,
    [run.projectId, kind, run.userId, run.at],
  );
}

/**
 * Each project's latest backup and deployment (`last_runs`, not events): made by `ran` and by a pinged
 * run's good end (`pingRuns.end`), read by the checker's expectations, gone with the project.
 */
export const lastRuns = {
  /** When the project's latest run of `kind` (backup or deployment) was, if any. */
  async at(db: Queryable, projectId: string, kind: string): Promise<Date | null> {
    const { rows } = await db.query<{ at: Date }>(
      'SELECT at FROM monitors.last_runs WHERE project_id = $1 AND kind = $2',
      [projectId, kind],
    );
    return rows[0]?.at ?? null;
  },

  /** A deleted project's runs go with it, at once (in the reaction's transaction). */
  async forget(db: Queryable, projectId: string): Promise<void> {
    await db.query('DELETE FROM monitors.last_runs WHERE project_id = $1', [projectId]);
  },
};

/** A run as the API answers it; one that ended the moment it began had no `/start`, so no run time. */
const viewOf = (row: { started_at: Date; ended_at: Date | null; outcome: PingOutcome }): PingRun => {
  const ms = row.ended_at ? row.ended_at.getTime() - row.started_at.getTime() : 0;
  return {
    startedAt: row.started_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
    outcome: row.outcome,
    seconds: ms > 0 ? Math.round(ms / 100) / 10 : null,
  };
};

/**
 * The runs a project's cron jobs ping (not events: a job may ping every minute). `/start` opens one;
 * its end (`ok` or `failed`) closes the latest open one, or stands alone without a start.
 */
export const pingRuns = {
  /** `label`: what ran, when a service reports it (a workflow's file name); a ping says none. */
  async start(
    db: Queryable,
    projectId: string,
    userId: string,
    at: Date,
    label: string | null = null,
  ): Promise<PingRun> {
    const { rows } = await db.query(
      `INSERT INTO monitors.ping_runs (project_id, user_id, started_at, outcome, label) VALUES ($1, $2, $3, 'running', $4)
       RETURNING started_at, ended_at, outcome`,
      [projectId, userId, at, label],
    );
    return viewOf(rows[0]);
  },

  /** Ends the latest open run (or records one without a start), and, when it went well, the project's last backup. */
  async end(
    db: Queryable,
    projectId: string,
    userId: string,
    at: Date,
    outcome: 'ok' | 'failed',
    label: string | null = null,
  ): Promise<PingRun> {
    const { rows } = await db.query(
      `WITH open AS (
         SELECT run_id FROM monitors.ping_runs WHERE project_id = $1 AND outcome = 'running'
         ORDER BY started_at DESC LIMIT 1),
       ended AS (
         UPDATE monitors.ping_runs SET ended_at = $3, outcome = $4, label = coalesce($5, label)
         WHERE run_id IN (SELECT run_id FROM open)
         RETURNING started_at, ended_at, outcome),
       alone AS (
         INSERT INTO monitors.ping_runs (project_id, user_id, started_at, ended_at, outcome, label)
         SELECT $1, $2, $3, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM ended)
         RETURNING started_at, ended_at, outcome),
       last AS (
         INSERT INTO monitors.last_runs (project_id, kind, user_id, at) SELECT $1, 'backup', $2, $3 WHERE $4 = 'ok'
         ON CONFLICT (project_id, kind) DO UPDATE SET at = EXCLUDED.at WHERE last_runs.at < EXCLUDED.at)
       SELECT * FROM ended UNION ALL SELECT * FROM alone`,
      [projectId, userId, at, outcome, label],
    );
    return viewOf(rows[0]);
  },

  /** The project's latest runs, newest first. */
  async recent(db: Queryable, projectId: string, limit = 10): Promise<PingRun[]> {
    const { rows } = await db.query(
      `SELECT started_at, ended_at, outcome
       FROM monitors.ping_runs WHERE project_id = $1 ORDER BY started_at DESC, run_id DESC LIMIT $2`,
      [projectId, limit],
    );
    return rows.map(viewOf);
  },

  /** The project's latest run, for an expected backup's judgement. */
  async latest(
    db: Queryable,
    projectId: string,
  ): Promise<{ startedAt: Date; endedAt: Date | null; outcome: PingOutcome; label: string | null } | null> {
    const { rows } = await db.query<{
      started_at: Date;
      ended_at: Date | null;
      outcome: PingOutcome;
      label: string | null;
    }>(
      `SELECT started_at, ended_at, outcome, label FROM monitors.ping_runs WHERE project_id = $1
       ORDER BY started_at DESC, run_id DESC LIMIT 1`,
      [projectId],
    );
    const row = rows[0];
    return row ? { startedAt: row.started_at, endedAt: row.ended_at, outcome: row.outcome, label: row.label } : null;
  },

  /** Drops the runs started more than `days` before `now` (kept a week, as check results are). */
  async prune(db: Queryable, now: Date, days: number): Promise<void> {
    await db.query(`DELETE FROM monitors.ping_runs WHERE started_at < $1::timestamptz - make_interval(days => $2)`, [
      now,
      days,
    ]);
  },

  /** A deleted project's link and runs go with it, in the reaction's batch. */
  forget(batch: Pick<Batch, 'defer'>, projectId: string): void {
    pingLinks.forget(batch, projectId);
    batch.defer('DELETE FROM monitors.ping_runs WHERE project_id = $1', [projectId]);
  },
};
