import { type EventOf, publishedEventTypesOf } from '@shiplog/events';
import {
  type IncidentView,
  type MonitorKind,
  type MonitorState,
  type MonitorsStatus,
  type MonitorView,
  STATUS_DAYS,
  type StatusMonitor,
} from '@shiplog/schemas';
import { onEach, type ProjectionDefinition } from '@shiplog/service-kit';
import type pg from 'pg';
import { publicCause } from '../../monitor/causes.ts';
import { MAINTENANCE_MAX_MINUTES } from '../../monitor/maintenance.ts';
import { knownProjects } from '../known-projects/index.ts';

/**
 * The rows of a table keyed by monitor that are a team's: its monitor was stated whole in a team
 * workspace (added, or moved, there: its stream reads whole without its maker's key; decisions 057 and
 * 058) and its project is in one now. What its maker's erasure spares (`deleteUserRows`' `unless`).
 */
export const teamMonitor = `monitor_id IN (SELECT monitor_id FROM monitors.monitor_list
  WHERE stated_in_workspace IS NOT NULL AND ${knownProjects.ofTeamProject})`;

/** A stated monitor's list columns, in the order both its inserts name them (`monitor_id` … `max_response_ms`). */
const listed = (d: EventOf<'MonitorAdded' | 'MonitorMoved'>['data']) => [
  d.monitorId,
  d.userId,
  d.projectId,
  d.projectName,
  d.url,
  d.intervalSeconds,
  d.expectedStatuses,
  d.keyword,
  d.keywordPresent,
  d.failureThreshold,
  d.at,
  d.kind,
  d.graceSeconds,
  d.repeatMinutes,
  d.maxResponseMs,
];

/**
 * The monitor list (what the API answers and the checker reads) and the incidents, open and past,
 * from the monitors' events. Every write is deferred to the batch's commit: nothing here is read
 * back within a batch.
 */
export const monitorListProjection: ProjectionDefinition = {
  name: 'monitor-list',
  sources: ['monitors'],
  tables: ['monitor_list', 'incidents'],
  handlers: onEach(publishedEventTypesOf('monitors'), async (event, _tx, { defer }) => {
    switch (event.type) {
      case 'MonitorAdded': {
        const d = event.data;
        defer(
          `INSERT INTO monitors.monitor_list (monitor_id, user_id, project_id, project_name, url, interval_seconds,
             expected_statuses, keyword, keyword_present, failure_threshold, state_since, created_at, kind, grace_seconds,
             repeat_minutes, max_response_ms, stated_in_workspace)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14, $15, $16) ON CONFLICT (monitor_id) DO NOTHING`,
          [...listed(d), d.workspaceId ?? null],
        );
        return;
      }
      // Stated again whole under its project's new key (decision 058): the workspace it now reads whole
      // with. Made whole here too if the list lacks it (a rebuild that could not read its earlier events).
      case 'MonitorMoved': {
        const d = event.data;
        defer(
          `INSERT INTO monitors.monitor_list (monitor_id, user_id, project_id, project_name, url, interval_seconds,
             expected_statuses, keyword, keyword_present, failure_threshold, state_since, created_at, kind, grace_seconds,
             repeat_minutes, max_response_ms, paused, incident_id, incident_started_at, incident_cause,
             warned_expires_at, warned_days, stated_in_workspace)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
           ON CONFLICT (monitor_id) DO UPDATE SET stated_in_workspace = EXCLUDED.stated_in_workspace`,
          [
            ...listed(d),
            d.paused,
            d.incident?.id ?? null,
            d.incident?.startedAt ?? null,
            d.incident?.cause ?? null,
            d.expiry?.expiresAt ?? null,
            d.expiry?.days ?? null,
            d.workspaceId ?? null,
          ],
        );
        return;
      }
      case 'MonitorChanged': {
        const c = event.data.changes;
        defer(
          `UPDATE monitors.monitor_list SET url = coalesce($2, url), interval_seconds = coalesce($3, interval_seconds),
             expected_statuses = coalesce($4, expected_statuses),
             keyword = CASE WHEN $5::boolean THEN $6 ELSE keyword END,
             keyword_present = coalesce($7, keyword_present), failure_threshold = coalesce($8, failure_threshold),
             grace_seconds = coalesce($9, grace_seconds), repeat_minutes = coalesce($10, repeat_minutes),
             max_response_ms = CASE WHEN $11::boolean THEN $12 ELSE max_response_ms END
           WHERE monitor_id = $1`,
          [
            event.data.monitorId,
            c.url ?? null,
            c.intervalSeconds ?? null,
            c.expectedStatuses ?? null,
            c.keyword !== undefined,
            c.keyword ?? null,
            c.keywordPresent ?? null,
            c.failureThreshold ?? null,
            c.graceSeconds ?? null,
            c.repeatMinutes ?? null,
            c.maxResponseMs !== undefined,
            c.maxResponseMs ?? null,
          ],
        );
        return;
      }
      case 'MonitorPaused':
        defer('UPDATE monitors.monitor_list SET paused = $2, state_since = $3 WHERE monitor_id = $1', [
          event.data.monitorId,
          event.data.reason,
          event.data.at,
        ]);
        return;
      case 'MonitorResumed':
        defer('UPDATE monitors.monitor_list SET paused = NULL, state_since = $2 WHERE monitor_id = $1', [
          event.data.monitorId,
          event.data.at,
        ]);
        return;
      case 'MonitorRemoved':
        defer('DELETE FROM monitors.monitor_list WHERE monitor_id = $1', [event.data.monitorId]);
        return;
      case 'IncidentOpened': {
        const d = event.data;
        defer(
          `UPDATE monitors.monitor_list SET incident_id = $2, incident_started_at = $3, incident_cause = $4, state_since = $3
           WHERE monitor_id = $1`,
          [d.monitorId, d.incidentId, d.startedAt, d.cause],
        );
        defer(
          `INSERT INTO monitors.incidents (incident_id, monitor_id, user_id, project_id, url, cause, started_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (incident_id) DO NOTHING`,
          [d.incidentId, d.monitorId, d.userId, d.projectId, d.url, d.cause, d.startedAt],
        );
        return;
      }
      case 'ExpiryApproaching':
        defer(
          `UPDATE monitors.monitor_list SET warned_expires_at = $2, warned_days = $3
           WHERE monitor_id = $1`,
          [event.data.monitorId, event.data.expiresAt, event.data.warning],
        );
        return;
      case 'IncidentNoted':
        defer('UPDATE monitors.incidents SET note = $2 WHERE incident_id = $1', [
          event.data.incidentId,
          event.data.note,
        ]);
        return;
      case 'IncidentClosed': {
        const d = event.data;
        defer(
          `UPDATE monitors.monitor_list SET incident_id = NULL, incident_started_at = NULL, incident_cause = NULL,
             state_since = $2 WHERE monitor_id = $1 AND incident_id = $3`,
          [d.monitorId, d.endedAt, d.incidentId],
        );
        defer('UPDATE monitors.incidents SET ended_at = $2 WHERE incident_id = $1', [d.incidentId, d.endedAt]);
        return;
      }
    }
  }),
};

interface MonitorRow {
  monitor_id: string;
  project_id: string;
  project_name: string;
  kind: MonitorKind;
  url: string;
  interval_seconds: number;
  grace_seconds: number;
  expected_statuses: string;
  keyword: string | null;
  keyword_present: boolean;
  failure_threshold: number;
  repeat_minutes: number;
  max_response_ms: number | null;
  paused: string | null;
  incident_id: string | null;
  incident_started_at: Date | null;
  incident_cause: string | null;
  state_since: Date;
  created_at: Date;
  last_at: Date | null;
  last_ok: boolean | null;
  last_ms: number | null;
  last_cause: string | null;
  last_expires_at: Date | null;
  last_refused: boolean | null;
  maintenance_since: Date | null;
  day_checks: string | null;
  day_passed: string | null;
  month_checks: string | null;
  month_passed: string | null;
}

const share = (passed: string | null, checks: string | null) =>
  checks && Number(checks) > 0 ? Number(passed) / Number(checks) : null;

function toView(row: MonitorRow): MonitorView {
  // Degraded: up, but the last answer was slower than the monitor allows.
  const slow = row.max_response_ms !== null && row.last_ok === true && (row.last_ms ?? 0) > row.max_response_ms;
  // Unchecked: its last check was refused (a private address); failing: it failed, with no incident yet.
  const state: MonitorState = row.paused
    ? 'paused'
    : row.last_refused
      ? 'unchecked'
      : row.incident_id
        ? 'down'
        : row.last_at === null
          ? 'pending'
          : row.last_ok === false
            ? 'failing'
            : slow
              ? 'degraded'
              : 'up';
  return {
    id: row.monitor_id,
    projectId: row.project_id,
    projectName: row.project_name,
    kind: row.kind,
    url: row.url,
    intervalSeconds: row.interval_seconds,
    graceSeconds: row.grace_seconds,
    expectedStatuses: row.expected_statuses,
    keyword: row.keyword,
    keywordPresent: row.keyword_present,
    failureThreshold: row.failure_threshold,
    repeatMinutes: row.repeat_minutes,
    maxResponseMs: row.max_response_ms,
    state,
    pausedBy: row.paused === 'user' || row.paused === 'plan' ? row.paused : null,
    maintenanceSince: row.kind === 'http' ? (row.maintenance_since?.toISOString() ?? null) : null,
    since: row.state_since.toISOString(),
    lastCheck: row.last_at
      ? {
          at: row.last_at.toISOString(),
          ok: row.last_ok === true,
          ms: row.last_ms,
          cause: row.last_cause,
          expiresAt: row.last_expires_at?.toISOString() ?? null,
          refused: row.last_refused === true,
        }
      : null,
    uptime: { day: share(row.day_passed, row.day_checks), month: share(row.month_passed, row.month_checks) },
    openIncident:
      row.incident_id && row.incident_started_at
        ? { id: row.incident_id, startedAt: row.incident_started_at.toISOString(), cause: row.incident_cause ?? '' }
        : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** The monitors that `where` picks, each with its last check and its uptime over 24 hours and 30 days. */
async function listWhere(pool: pg.Pool, where: string, params: unknown[], now: Date): Promise<MonitorView[]> {
  const { rows } = await pool.query<MonitorRow>(
    `SELECT m.*, last.checked_at AS last_at, last.ok AS last_ok, last.ms AS last_ms, last.cause AS last_cause,
       last.expires_at AS last_expires_at, last.refused AS last_refused, w.started_at AS maintenance_since,
       day.checks AS day_checks, day.passed AS day_passed, month.checks AS month_checks, month.passed AS month_passed
     FROM monitors.monitor_list m
     LEFT JOIN LATERAL (SELECT checked_at, ok, ms, cause, expires_at, refused FROM monitors.check_results r
       WHERE r.monitor_id = m.monitor_id ORDER BY checked_at DESC LIMIT 1) last ON true
     LEFT JOIN LATERAL (SELECT sum(checks) AS checks, sum(passed) AS passed FROM monitors.check_rollups u
       WHERE u.monitor_id = m.monitor_id AND u.hour > $1::timestamptz - interval '24 hours') day ON true
     LEFT JOIN LATERAL (SELECT sum(checks) AS checks, sum(passed) AS passed FROM monitors.check_rollups u
       WHERE u.monitor_id = m.monitor_id AND u.hour > $1::timestamptz - interval '30 days') month ON true
     LEFT JOIN monitors.maintenance w ON w.project_id = m.project_id AND w.ended_at IS NULL
       AND w.started_at <= $1 AND w.started_at > $1::timestamptz - make_interval(mins => ${MAINTENANCE_MAX_MINUTES})
     WHERE ${where} ORDER BY m.created_at, m.monitor_id`,
    [now, ...params],
  );
  return rows.map(toView);
}

export const monitorList = {
  /** A monitor's incidents, newest first (the latest 50); who may read them, the route decided. */
  async incidents(pool: pg.Pool, monitorId: string): Promise<IncidentView[]> {
    const { rows } = await pool.query<{
      incident_id: string;
      cause: string;
      started_at: Date;
      ended_at: Date | null;
      note: string | null;
    }>(
      `SELECT incident_id, cause, started_at, ended_at, note FROM monitors.incidents
       WHERE monitor_id = $1 ORDER BY started_at DESC LIMIT 50`,
      [monitorId],
    );
    return rows.map((r) => ({
      id: r.incident_id,
      cause: r.cause,
      startedAt: r.started_at.toISOString(),
      endedAt: r.ended_at?.toISOString() ?? null,
      note: r.note,
    }));
  },
  /** The project of a listed monitor (the caller's role on it says who may read it), or null: none, or removed. */
  async projectOf(pool: pg.Pool, monitorId: string): Promise<string | null> {
    const { rows } = await pool.query<{ project_id: string }>(
      'SELECT project_id FROM monitors.monitor_list WHERE monitor_id = $1',
      [monitorId],
    );
    return rows[0]?.project_id ?? null;
  },
  /**
   * The monitors on every project the user reaches, whoever made them: their personal projects, and
   * those of every workspace they belong to (as `knownProjects.reach` decides for one project). A
   * monitor names its project, whose workspace `monitors.projects` knows; both found by index (the
   * user's projects, each workspace's).
   */
  ofUser: (pool: pg.Pool, userId: string, now: Date) =>
    listWhere(
      pool,
      `m.project_id IN (
         SELECT project_id FROM monitors.projects WHERE user_id = $2 AND workspace_id IS NULL AND NOT deleted
         UNION ALL
         SELECT p.project_id FROM monitors.workspace_members wm JOIN monitors.projects p ON p.workspace_id = wm.workspace_id
         WHERE wm.user_id = $2 AND NOT p.deleted)`,
      [userId],
      now,
    ),
  /** The project's monitors, whoever made them: the route decided the caller may read the project. */
  ofProject: (pool: pg.Pool, projectId: string, now: Date) => listWhere(pool, 'm.project_id = $2', [projectId], now),
  /**
   * The public status of the monitors on `projectIds` (the projects made public), of one user's
   * personal projects (their status page: a team's project is on no one's own) or of one team
   * workspace's projects, whoever on it made each (the team's status page): each monitor's state,
   * uptime and a bar a day for 90 days, and the incidents of those days with notes.
   */
  async status(
    pool: pg.Pool,
    whose: { userId: string } | { workspaceId: string },
    projectIds: string[],
    now: Date,
  ): Promise<MonitorsStatus> {
    const views = await listWhere(
      pool,
      'userId' in whose
        ? `m.user_id = $2 AND m.project_id = ANY($3::uuid[]) AND m.project_id IN
             (SELECT project_id FROM monitors.projects WHERE user_id = $2 AND workspace_id IS NULL)`
        : `m.project_id = ANY($3::uuid[]) AND m.project_id IN
             (SELECT project_id FROM monitors.projects WHERE workspace_id = $2 AND NOT deleted)`,
      ['userId' in whose ? whose.userId : whose.workspaceId, projectIds],
      now,
    );
    if (views.length === 0) return { monitors: [], incidents: [] };
    const ids = views.map((v) => v.id);
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (STATUS_DAYS - 1) * 86_400_000);
    const [bars, incidents] = await Promise.all([
      pool.query<{ monitor_id: string; day: Date; checks: string; passed: string }>(
        `SELECT monitor_id, date_trunc('day', hour, 'UTC') AS day, sum(checks) AS checks, sum(passed) AS passed
         FROM monitors.check_rollups WHERE monitor_id = ANY($1::uuid[]) AND hour >= $2
         GROUP BY 1, 2`,
        [ids, from],
      ),
      pool.query<{
        incident_id: string;
        monitor_id: string;
        project_id: string;
        cause: string;
        started_at: Date;
        ended_at: Date | null;
        note: string | null;
      }>(
        `SELECT incident_id, monitor_id, project_id, cause, started_at, ended_at, note FROM monitors.incidents
         WHERE monitor_id = ANY($1::uuid[]) AND coalesce(ended_at, 'infinity') >= $2
         ORDER BY started_at DESC LIMIT 50`,
        [ids, from],
      ),
    ]);
    const days = new Map<string, { checks: number; passed: number }[]>();
    for (const row of bars.rows) {
      const index = Math.round((row.day.getTime() - from.getTime()) / 86_400_000);
      const of = days.get(row.monitor_id) ?? Array.from({ length: STATUS_DAYS }, () => ({ checks: 0, passed: 0 }));
      if (of[index]) of[index] = { checks: Number(row.checks), passed: Number(row.passed) };
      days.set(row.monitor_id, of);
    }
    const monitors = views.map((view): StatusMonitor => {
      const counts = days.get(view.id) ?? [];
      const checks = counts.reduce((sum, d) => sum + d.checks, 0);
      const passed = counts.reduce((sum, d) => sum + d.passed, 0);
      return {
        id: view.id,
        projectId: view.projectId,
        kind: view.kind,
        // A domain is public by nature; a URL shows only its origin.
        origin: view.kind === 'http' ? new URL(view.url).origin : view.kind === 'domain' ? view.url : '',
        intervalSeconds: view.intervalSeconds,
        state: view.state,
        since: view.since,
        maintenanceSince: view.maintenanceSince,
        uptime: { ...view.uptime, quarter: checks > 0 ? passed / checks : null },
        days: Array.from({ length: STATUS_DAYS }, (_, i) =>
          counts[i] && counts[i].checks > 0 ? counts[i].passed / counts[i].checks : null,
        ),
      };
    });
    const keywordPresent = new Map(views.map((v) => [v.id, v.keywordPresent]));
    return {
      monitors,
      incidents: incidents.rows.map((r) => ({
        id: r.incident_id,
        monitorId: r.monitor_id,
        projectId: r.project_id,
        // The owner's keyword never leaves on this page (their own reads show it).
        cause: publicCause(r.cause, keywordPresent.get(r.monitor_id) ?? true),
        startedAt: r.started_at.toISOString(),
        endedAt: r.ended_at?.toISOString() ?? null,
        note: r.note,
      })),
    };
  },
  /** The ids of the user's monitors, as the list shows them (the slots' count reads it: monitor-slots/). */
  async idsOf(pool: pg.Pool, userId: string): Promise<string[]> {
    const { rows } = await pool.query<{ monitor_id: string }>(
      'SELECT monitor_id FROM monitors.monitor_list WHERE user_id = $1',
      [userId],
    );
    return rows.map((r) => r.monitor_id);
  },
};

/** A monitor claimed for a check, as the checker reads it. */
export interface Claimed {
  monitor_id: string;
  user_id: string;
  project_id: string;
  kind: 'http' | 'backup' | 'deployment' | 'domain';
  interval_seconds: number;
  grace_seconds: number;
  created_at: Date;
  url: string;
  expected_statuses: string;
  keyword: string | null;
  keyword_present: boolean;
  failure_threshold: number;
  repeat_minutes: number;
  incident_id: string | null;
  warned_expires_at: Date | null;
  warned_days: number | null;
  /** The project's production deployment under way, if any (its maintenance window). */
  maintenance_started_at: Date | null;
  /** The team workspace its project is in, or null: what its events are sealed with (decision 057). */
  workspace_id: string | null;
}

/**
 * The listed monitors' checks, not events: when each is next due (`check_schedule`, not a read model:
 * the checker's own schedule), each result and its hourly count (`check_results`, `check_rollups`),
 * which the list shows beside each monitor. The checker (timers/run-checks) claims, records and
 * prunes through these.
 */
export const monitorChecks = {
  /**
   * Claims the monitors whose check is due at `now`, in one statement: their `next_at` moves on by
   * their period (an expected run's at most `expectationSeconds`) and they are marked running for
   * `leaseSeconds`, so whichever replica claims a check runs it, once per period, and never twice at
   * once. At most `limit`, and per account at most `perUser` with what each busy one has under way
   * (`busyUsers` and `busyCounts`, parallel arrays); each with its project's maintenance window.
   */
  async claim(
    pool: pg.Pool,
    claim: {
      now: Date;
      limit: number;
      leaseSeconds: number;
      expectationSeconds: number;
      busyUsers: string[];
      busyCounts: number[];
      perUser: number;
    },
  ): Promise<Claimed[]> {
    const { rows } = await pool.query<Claimed>(
      `WITH busy AS (SELECT * FROM unnest($6::uuid[], $7::int[]) AS b(user_id, running)),
       ranked AS (
         SELECT m.monitor_id, m.user_id, coalesce(s.next_at, m.created_at) AS due_at,
           CASE WHEN m.kind IN ('http', 'domain') THEN m.interval_seconds ELSE least(m.interval_seconds, $4) END AS period,
           coalesce(b.running, 0) + row_number() OVER (PARTITION BY m.user_id ORDER BY coalesce(s.next_at, m.created_at)) AS nth
         FROM monitors.monitor_list m
         LEFT JOIN monitors.check_schedule s USING (monitor_id)
         LEFT JOIN busy b ON b.user_id = m.user_id
         WHERE m.paused IS NULL AND coalesce(s.next_at, '-infinity') <= $1 AND coalesce(s.running_until, '-infinity') <= $1),
       due AS (SELECT monitor_id, user_id, period FROM ranked WHERE nth <= $8 ORDER BY due_at LIMIT $2),
       claimed AS (
         INSERT INTO monitors.check_schedule (monitor_id, user_id, next_at, running_until)
         SELECT monitor_id, user_id, $1::timestamptz + make_interval(secs => period), $1::timestamptz + make_interval(secs => $3)
         FROM due
         ON CONFLICT (monitor_id) DO UPDATE SET next_at = EXCLUDED.next_at, running_until = EXCLUDED.running_until
           WHERE monitors.check_schedule.next_at <= $1 AND monitors.check_schedule.running_until <= $1
         RETURNING monitor_id)
       SELECT m.monitor_id, m.user_id, m.project_id, m.kind, m.interval_seconds, m.grace_seconds, m.created_at, m.url, m.expected_statuses, m.keyword, m.keyword_present, m.failure_threshold, m.repeat_minutes,
         m.incident_id, m.warned_expires_at, m.warned_days, w.started_at AS maintenance_started_at, p.workspace_id
       FROM claimed JOIN monitors.monitor_list m USING (monitor_id)
       LEFT JOIN monitors.projects p ON p.project_id = m.project_id
       LEFT JOIN monitors.maintenance w ON w.project_id = m.project_id AND w.ended_at IS NULL
         AND w.started_at > $1::timestamptz - make_interval(mins => $5)`,
      [
        claim.now,
        claim.limit,
        claim.leaseSeconds,
        claim.expectationSeconds,
        MAINTENANCE_MAX_MINUTES,
        claim.busyUsers,
        claim.busyCounts,
        claim.perUser,
      ],
    );
    return rows;
  },

  /**
   * Stores a check's result and its hourly count (a refused check counts in none) and ends the
   * monitor's claim; answers the failures in a row it ends (0 after a pass, looking back over at most
   * `lookBack` checks before it), since when, and whether the check before it failed.
   */
  async record(
    pool: pg.Pool,
    check: {
      monitorId: string;
      userId: string;
      at: Date;
      ok: boolean;
      status: number | null;
      ms: number | null;
      cause: string | null;
      expiresAt: Date | null;
      refused: boolean;
      lookBack: number;
    },
  ): Promise<{ failures: number; since: Date | null; previous_failed: boolean | null }> {
    const { rows } = await pool.query<{ failures: number; since: Date | null; previous_failed: boolean | null }>(
      `WITH stored AS (
         INSERT INTO monitors.check_results (monitor_id, user_id, checked_at, ok, status, ms, cause, expires_at, refused)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $9, $10)),
       -- A refused check is no check: it counts in no uptime.
       counted AS (
         INSERT INTO monitors.check_rollups (monitor_id, user_id, hour, checks, passed)
         SELECT $1, $2, date_trunc('hour', $3::timestamptz), 1, $4::boolean::int WHERE NOT $10
         ON CONFLICT (monitor_id, hour) DO UPDATE SET checks = check_rollups.checks + 1,
           passed = check_rollups.passed + EXCLUDED.passed),
       done AS (UPDATE monitors.check_schedule SET running_until = '-infinity' WHERE monitor_id = $1),
       -- The checks before this one (a statement does not see its own insert), back to the last pass;
       -- refused ones were not made.
       recent AS (
         SELECT ok, checked_at FROM monitors.check_results WHERE monitor_id = $1 AND NOT refused
         ORDER BY checked_at DESC LIMIT $8),
       streak AS (
         SELECT checked_at FROM recent
         WHERE checked_at > coalesce((SELECT max(checked_at) FROM recent WHERE ok), '-infinity'))
       SELECT CASE WHEN $4 THEN 0 ELSE 1 + (SELECT count(*) FROM streak)::int END AS failures,
         CASE WHEN $4 THEN NULL ELSE least($3::timestamptz, (SELECT min(checked_at) FROM streak)) END AS since,
         (SELECT NOT ok FROM monitors.check_results WHERE monitor_id = $1 AND NOT refused
           ORDER BY checked_at DESC LIMIT 1) AS previous_failed`,
      [
        check.monitorId,
        check.userId,
        check.at,
        check.ok,
        check.status,
        check.ms,
        check.cause,
        check.lookBack,
        check.expiresAt,
        check.refused,
      ],
    );
    return rows[0] ?? { failures: check.ok ? 0 : 1, since: check.at, previous_failed: null };
  },

  /** Drops the raw results of checks made more than `days` before `now`. */
  async pruneResults(pool: pg.Pool, now: Date, days: number): Promise<void> {
    await pool.query(
      `DELETE FROM monitors.check_results WHERE checked_at < $1::timestamptz - make_interval(days => $2)`,
      [now, days],
    );
  },

  /** Drops the hourly counts of hours more than `days` before `now`. */
  async pruneRollups(pool: pg.Pool, now: Date, days: number): Promise<void> {
    await pool.query(`DELETE FROM monitors.check_rollups WHERE hour < $1::timestamptz - make_interval(days => $2)`, [
      now,
      days,
    ]);
  },
};
