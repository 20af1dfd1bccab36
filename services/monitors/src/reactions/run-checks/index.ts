import { randomUUID } from 'node:crypto';
import { NotFoundError } from '@shiplog/errors';
import { ConcurrencyError } from '@shiplog/event-store';
import { failureCause, Outbound, type OutboundOptions, PerKeyGate, RefusedAddressError } from '@shiplog/outbound';
import { isExpectedStatus, parseExpectedStatuses } from '@shiplog/schemas';
import { handleCommand, repeating, type ServiceContext } from '@shiplog/service-kit';
import { lookupDomain } from '../../adapters/rdap.ts';
import type { MonitorsEnv } from '../../env.ts';
import { keywordCause } from '../../monitor/causes.ts';
import { type MonitorCommand, monitorDecider } from '../../monitor/decide.ts';
import { judgeExpectation } from '../../monitor/expectation.ts';
import { expiryWarning, isNewWarning } from '../../monitor/expiry.ts';
import { MAINTENANCE_MAX_MINUTES } from '../../monitor/maintenance.ts';
import { type MonitorEvent, monitorStream } from '../../monitor/monitor.ts';
import { pingRuns } from '../../ping/runs.ts';
import { InFlight } from './in-flight.ts';

/** Raw results are kept this long; hourly counts, 90 days. */
const RAW_DAYS = 7;
const ROLLUP_DAYS = 90;

/** A deployment this long before an incident's first failure is named in it. */
const DEPLOY_WINDOW_MINUTES = 30;

/** An expected backup or deployment is looked for this often (or at its own cadence, if shorter). */
const EXPECTATION_CHECK_SECONDS = 60;

interface Claimed {
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
}

export interface CheckResult {
  ok: boolean;
  status: number | null;
  ms: number | null;
  cause: string | null;
  /** When what the check read ends: the certificate of the server that answered (https), or the domain's registration. */
  expiresAt?: Date | null;
  /**
   * Not made: the address guard refused the target (its name resolves to a private address now).
   * Nothing is known of it, so this is no failure: it opens no incident and counts in no uptime.
   */
  refused?: boolean;
}

/**
 * How checks reach their targets: through the SSRF guard, with a 1 MB cap and up to 5 redirects, each
 * on a new connection, so its time is a visitor's and the certificate it reads is today's.
 */
export const checkOutbound = (options: {
  allowedHosts: readonly string[];
  timeoutMs: number;
  ca?: string[];
  observe?: OutboundOptions['observe'];
}) => new Outbound({ ...options, maxBytes: 1024 * 1024, maxRedirects: 5, keepAlive: false });

/**
 * Runs the checks. Each tick claims the monitors whose check is due (one statement moves their
 * `next_at` on and marks them running, so whichever replica claims a check runs it, once per period,
 * and never twice at once), checks each through the SSRF guard, stores the result (not an event) and
 * its hourly count, and only when the state changes runs a command on the monitor's stream: enough
 * failures in a row open an incident, a pass closes it. A second checker reporting the same change
 * loses the append (409); the change's event is alerted once, by the alert outbox (decision 033).
 *
 * The loop claims only what it has room for (`CHECKER_CONCURRENCY` checks in the process, at most
 * `CHECKER_PER_USER` of one account, `CHECKER_PER_HOST` against one host) and does not wait for what
 * it started: a target that never answers holds its own account's places until its timeout, and
 * every other account's checks are claimed at the next tick as usual. `now` is the loop's clock.
 */
export function createChecker(
  context: ServiceContext<MonitorsEnv>,
  outbound: Outbound,
  options: { now?: () => Date } = {},
) {
  const { pool, store, logger, config } = context;
  const clock = options.now ?? (() => new Date());
  const inFlight = new InFlight({ capacity: config.CHECKER_CONCURRENCY, perUser: config.CHECKER_PER_USER });
  const perHost = new PerKeyGate(config.CHECKER_PER_HOST);

  async function claim(now: Date): Promise<Claimed[]> {
    const room = inFlight.room();
    if (room.total <= 0) return [];
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
         m.incident_id, m.warned_expires_at, m.warned_days, w.started_at AS maintenance_started_at
       FROM claimed JOIN monitors.monitor_list m USING (monitor_id)
       LEFT JOIN monitors.maintenance w ON w.project_id = m.project_id AND w.ended_at IS NULL
         AND w.started_at > $1::timestamptz - make_interval(mins => $5)`,
      [
        now,
        room.total,
        Math.ceil(config.CHECK_TIMEOUT_MS / 1000) + 5,
        EXPECTATION_CHECK_SECONDS,
        MAINTENANCE_MAX_MINUTES,
        room.busyUsers,
        room.busyCounts,
        room.perUser,
      ],
    );
    return rows;
  }

  /** An expected backup or deployment, judged against the project's latest one (`last_runs`). */
  async function expected(monitor: Claimed & { kind: 'backup' | 'deployment' }, now: Date): Promise<CheckResult> {
    const { rows } = await pool.query<{ at: Date }>(
      'SELECT at FROM monitors.last_runs WHERE project_id = $1 AND kind = $2',
      [monitor.project_id, monitor.kind],
    );
    const judged = judgeExpectation({
      kind: monitor.kind,
      intervalSeconds: monitor.interval_seconds,
      graceSeconds: monitor.grace_seconds,
      setAt: monitor.created_at,
      lastRun: rows[0]?.at ?? null,
      // A cron job's pings count as its backups.
      ping: monitor.kind === 'backup' ? await pingRuns.latest(pool, monitor.project_id) : null,
      now,
    });
    return { ok: judged.ok, status: null, ms: null, cause: judged.ok ? null : judged.cause };
  }

  /** A domain's registration, looked up (RDAP): failing once it has ended, or when no registry knows the name. */
  async function registration(monitor: Claimed, now: Date): Promise<CheckResult> {
    const started = performance.now();
    try {
      const found = await lookupDomain(outbound, config.RDAP_URL, monitor.url, inFlight.signal);
      const ms = Math.round(performance.now() - started);
      if (!found.found)
        return {
          ok: false,
          status: found.status,
          ms,
          cause: found.status === 404 ? 'no registry knows it' : `RDAP ${found.status}`,
        };
      if (found.expiresAt && found.expiresAt <= now)
        return {
          ok: false,
          status: found.status,
          ms,
          cause: `registration ended ${found.expiresAt.toISOString().slice(0, 10)}`,
          expiresAt: found.expiresAt,
        };
      return { ok: true, status: found.status, ms, cause: null, expiresAt: found.expiresAt };
    } catch (error) {
      return { ok: false, status: null, ms: null, cause: `RDAP: ${failureCause(error)}` };
    }
  }

  async function check(monitor: Claimed, now: Date): Promise<CheckResult> {
    if (monitor.kind === 'domain') return registration(monitor, now);
    if (monitor.kind !== 'http') return expected({ ...monitor, kind: monitor.kind }, now);
    const started = performance.now();
    try {
      const response = await outbound.get(
        new URL(monitor.url),
        { 'user-agent': 'Shiplog-Monitor/1.0' },
        inFlight.signal,
      );
      const ms = Math.round(performance.now() - started);
      const ranges = parseExpectedStatuses(monitor.expected_statuses) ?? [[200, 399]];
      if (!isExpectedStatus(ranges, response.status))
        return {
          ok: false,
          status: response.status,
          ms,
          cause: `HTTP ${response.status}`,
          expiresAt: response.certificateExpiresAt,
        };
      if (monitor.keyword !== null && response.body.includes(monitor.keyword) !== monitor.keyword_present)
        return {
          ok: false,
          status: response.status,
          ms,
          cause: keywordCause(monitor.keyword, monitor.keyword_present),
          expiresAt: response.certificateExpiresAt,
        };
      return {
        ok: true,
        status: response.status,
        ms,
        cause: null,
        expiresAt: response.certificateExpiresAt,
      };
    } catch (error) {
      if (error instanceof RefusedAddressError)
        return { ok: false, status: null, ms: null, cause: error.message, refused: true };
      return { ok: false, status: null, ms: null, cause: failureCause(error) };
    }
  }

  /**
   * Stores the result and its hourly count; answers the failures in a row it ends (0 after a pass),
   * since when, and whether the check before it failed.
   */
  async function record(monitor: Claimed, result: CheckResult, at: Date) {
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
        monitor.monitor_id,
        monitor.user_id,
        at,
        result.ok,
        result.status,
        result.ms,
        result.cause,
        monitor.failure_threshold - 1,
        result.expiresAt ?? null,
        result.refused === true,
      ],
    );
    return rows[0] ?? { failures: result.ok ? 0 : 1, since: at, previous_failed: null };
  }

  async function report(monitorId: string, command: MonitorCommand, at: Date): Promise<MonitorEvent[]> {
    try {
      const result = await handleCommand(store, monitorStream(monitorId), monitorDecider, command, {
        userId: null,
        correlationId: randomUUID(),
        now: at,
      });
      return result.events;
    } catch (error) {
      // Another checker reported this change first.
      if (error instanceof ConcurrencyError) return [];
      throw error;
    }
  }

  /** ` after deploy 1.4.0` when the project was deployed shortly before `since`, else nothing. */
  async function afterDeploy(projectId: string, since: Date): Promise<string> {
    const { rows } = await pool.query<{ version: string | null; environment: string }>(
      `SELECT version, environment FROM monitors.recent_deploys
       WHERE project_id = $1 AND at <= $2 AND at > $2::timestamptz - make_interval(mins => $3)`,
      [projectId, since, DEPLOY_WINDOW_MINUTES],
    );
    const deploy = rows[0];
    if (!deploy) return '';
    return deploy.version ? ` after deploy ${deploy.version}` : ` after the ${deploy.environment} deploy`;
  }

  /** One monitor's check, its result and, when its state changes, its report. */
  async function run(monitor: Claimed, now: () => Date) {
    const result = await check(monitor, now());
    // Stopped mid-check: no result, and the claim runs out for another checker to take it.
    if (inFlight.signal.aborted) return;
    const at = now();
    const streak = await record(monitor, result, at);
    // Refused by policy: no incident opens, and an open one ends (nothing is known of the target).
    if (result.refused) {
      if (monitor.incident_id) await report(monitor.monitor_id, { type: 'ReportUnchecked' }, at);
      return;
    }
    // Decided on the monitor's stream, which is never behind: the list the claim read may not yet show
    // an incident opened a moment ago, so a pass after a failure asks to close whatever is open.
    let command: MonitorCommand | null = null;
    // Inside a deployment's maintenance window a failure opens nothing; one that goes on after it
    // opens the incident at the next check, naming the deploy.
    const held =
      monitor.kind === 'http' && monitor.maintenance_started_at !== null && monitor.maintenance_started_at <= at;
    if (!result.ok && !held && streak.failures >= monitor.failure_threshold && !monitor.incident_id) {
      const since = streak.since ?? at;
      command = {
        type: 'ReportDown',
        incidentId: randomUUID(),
        failures: streak.failures,
        since,
        cause: `${result.cause ?? 'failed'}${await afterDeploy(monitor.project_id, since)}`,
      };
    } else if (result.ok && (monitor.incident_id || streak.previous_failed)) command = { type: 'ReportUp' };
    // Still down, with reminders asked for: the stream says whether one is due.
    else if (!result.ok && monitor.incident_id && monitor.repeat_minutes > 0) command = { type: 'ReportStillDown' };
    if (command) await report(monitor.monitor_id, command, at);
    // A certificate or registration near its end: reported only at a warning not yet given for it (the stream decides).
    const expiresAt = result.expiresAt;
    const warning = expiresAt ? expiryWarning(expiresAt, at) : null;
    const warned = monitor.warned_expires_at
      ? { expiresAt: monitor.warned_expires_at.toISOString(), days: monitor.warned_days ?? 0 }
      : null;
    if (expiresAt && warning && isNewWarning(warning, expiresAt.toISOString(), warned))
      await report(monitor.monitor_id, { type: 'ReportExpiry', expiresAt }, at);
  }

  // Expected runs touch no host: each is its own, so the per-host cap does not hold them back.
  // Domains are all looked up at the RDAP server: its cap is theirs.
  const hostOf = (m: Claimed) =>
    m.kind === 'http' ? new URL(m.url).host : m.kind === 'domain' ? new URL(config.RDAP_URL).host : m.monitor_id;

  /** Claims what is due at `now`, as much as there is room for, and starts checking it; `done` settles when those checks have ended. */
  async function dispatch(now: () => Date = clock): Promise<{ checked: number; done: Promise<unknown> }> {
    const claimed = await claim(now());
    const done = Promise.all(
      claimed.map((monitor) =>
        inFlight.start(
          monitor.user_id,
          () => perHost.run(hostOf(monitor), () => run(monitor, now)),
          (error) => logger.error({ err: error, monitorId: monitor.monitor_id }, 'could not check a monitor'),
        ),
      ),
    );
    return { checked: claimed.length, done };
  }

  /** Claims what is due at `now` and checks it, waiting for those checks (a test's step with its clock). */
  async function tick(now: () => Date = clock): Promise<{ checked: number }> {
    const { checked, done } = await dispatch(now);
    await done;
    return { checked };
  }

  /**
   * Pauses the monitors of accounts whose plan lapsed (reason `plan`: the card says so), and resumes
   * what a plan paused once the plan is back; what its owner paused stays paused. By the rule of
   * `planRunsMonitors`, on the plans billing's events left (read-models/plans).
   */
  async function enforcePlans(now: Date): Promise<{ paused: number; resumed: number }> {
    const { rows } = await pool.query<{ monitor_id: string; ok: boolean }>(
      `WITH plan AS (
         SELECT user_id, (status IN ('active', 'paid') AND coalesce(cancel_ends > $1, true))
           OR (status = 'trialing' AND trial_end > $1) AS ok
         FROM monitors.plans)
       SELECT m.monitor_id, p.ok FROM monitors.monitor_list m JOIN plan p USING (user_id)
       WHERE (m.paused IS NULL AND NOT p.ok) OR (m.paused = 'plan' AND p.ok)`,
      [now],
    );
    let paused = 0;
    let resumed = 0;
    for (const { monitor_id, ok } of rows) {
      const command: MonitorCommand = ok
        ? { type: 'ResumeMonitor', userId: null, reason: 'plan' }
        : { type: 'PauseMonitor', userId: null, reason: 'plan' };
      const events = await report(monitor_id, command, now).catch((error: unknown) => {
        // Removed since the list was read.
        if (error instanceof NotFoundError) return [];
        throw error;
      });
      if (events.some((e) => e.type === 'MonitorPaused')) paused += 1;
      if (events.some((e) => e.type === 'MonitorResumed')) resumed += 1;
    }
    return { paused, resumed };
  }

  /** Drops raw results, pinged runs and alert deliveries past 7 days, and hourly counts past 90. */
  async function prune(now: Date) {
    await pool.query(
      `DELETE FROM monitors.check_results WHERE checked_at < $1::timestamptz - make_interval(days => $2)`,
      [now, RAW_DAYS],
    );
    // The delivery log shows a week, as the results do; an alert still unsent a week on is not worth sending.
    await pool.query(
      `DELETE FROM monitors.alert_deliveries WHERE created_at < $1::timestamptz - make_interval(days => $2)`,
      [now, RAW_DAYS],
    );
    await pool.query(`DELETE FROM monitors.check_rollups WHERE hour < $1::timestamptz - make_interval(days => $2)`, [
      now,
      ROLLUP_DAYS,
    ]);
    await pool.query(`DELETE FROM monitors.ping_runs WHERE started_at < $1::timestamptz - make_interval(days => $2)`, [
      now,
      RAW_DAYS,
    ]);
  }

  let ticks = 0;
  const loop = repeating(
    async () => {
      await dispatch();
      // About once a minute and once an hour at the default interval.
      if (++ticks % 60 === 1) await enforcePlans(clock());
      if (ticks % 3600 === 1) await prune(clock());
    },
    config.CHECKER_INTERVAL_MS,
    logger,
    'checker tick',
  );
  return {
    tick,
    enforcePlans,
    prune,
    start: loop.start,
    async stop() {
      await loop.stop();
      await inFlight.stop();
      await outbound.close();
    },
  };
}
