import { failureCause, type Outbound, RefusedAddressError } from '@shiplog/outbound';
import { isExpectedStatus, parseExpectedStatuses } from '@shiplog/schemas';
import type pg from 'pg';
import { lookupDomain } from '../../adapters/rdap.ts';
import { keywordCause } from '../../monitor/causes.ts';
import { judgeExpectation } from '../../monitor/expectation.ts';
import { lastRuns, pingRuns } from '../../ping/runs.ts';
import type { Claimed } from '../../read-models/monitor-list/index.ts';

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

/** What a probe reaches its targets with: the SSRF-guarded client, the RDAP server, and the checker's stop. */
export interface Probing {
  pool: pg.Pool;
  outbound: Outbound;
  rdapUrl: string;
  /** Aborted when the checker stops: a probe under way ends without a result. */
  signal: AbortSignal;
}

/** An expected backup or deployment, judged against the project's latest one (`last_runs`). */
async function expected(
  monitor: Claimed & { kind: 'backup' | 'deployment' },
  now: Date,
  { pool }: Probing,
): Promise<CheckResult> {
  const lastRun = await lastRuns.at(pool, monitor.project_id, monitor.kind);
  const judged = judgeExpectation({
    kind: monitor.kind,
    intervalSeconds: monitor.interval_seconds,
    graceSeconds: monitor.grace_seconds,
    setAt: monitor.created_at,
    lastRun,
    // A cron job's pings count as its backups.
    ping: monitor.kind === 'backup' ? await pingRuns.latest(pool, monitor.project_id) : null,
    now,
  });
  return { ok: judged.ok, status: null, ms: null, cause: judged.ok ? null : judged.cause };
}

/** A domain's registration, looked up (RDAP): failing once it has ended, or when no registry knows the name. */
async function registration(monitor: Claimed, now: Date, { outbound, rdapUrl, signal }: Probing): Promise<CheckResult> {
  const started = performance.now();
  try {
    const found = await lookupDomain(outbound, rdapUrl, monitor.url, signal);
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

/**
 * One monitor's check, made: a URL fetched through the SSRF guard (its status, its keyword, the
 * certificate of the server that answered), a domain's registration looked up, or an expected run
 * looked for.
 */
export async function probe(monitor: Claimed, now: Date, probing: Probing): Promise<CheckResult> {
  if (monitor.kind === 'domain') return registration(monitor, now, probing);
  if (monitor.kind !== 'http') return expected({ ...monitor, kind: monitor.kind }, now, probing);
  const started = performance.now();
  try {
    const response = await probing.outbound.get(
      new URL(monitor.url),
      { 'user-agent': 'Shiplog-Monitor/1.0' },
      probing.signal,
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
