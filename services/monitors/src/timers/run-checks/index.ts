import { Outbound, type OutboundOptions, PerKeyGate } from '@shiplog/outbound';
import { repeating, type ServiceContext } from '@shiplog/service-kit';
import type { MonitorsEnv } from '../../env.ts';
import type { Claimed } from '../../read-models/monitor-list/index.ts';
import { claimDue } from './claim.ts';
import { enforcePlans } from './enforce-plans.ts';
import { InFlight } from './in-flight.ts';
import { type Probing, probe } from './probe.ts';
import { prune } from './prune.ts';
import { recordResult } from './record.ts';
import { reportOutcome } from './report.ts';

export type { CheckResult } from './probe.ts';

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
 * and never twice at once: claim.ts), checks each through the SSRF guard (probe.ts), stores the
 * result (not an event) and its hourly count (record.ts), and only when the state changes runs a
 * command on the monitor's stream: enough failures in a row open an incident, a pass closes it
 * (report.ts). A second checker reporting the same change loses the append (409); the change's event
 * is alerted once, by the alert outbox (decision 033). About once a minute it pauses and resumes
 * monitors by their accounts' plans (enforce-plans.ts), and once an hour drops what is past keeping
 * (prune.ts).
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
  const { pool, logger, config } = context;
  const clock = options.now ?? context.now;
  const inFlight = new InFlight({ capacity: config.CHECKER_CONCURRENCY, perUser: config.CHECKER_PER_USER });
  const perHost = new PerKeyGate(config.CHECKER_PER_HOST);
  const probing: Probing = { pool, outbound, rdapUrl: config.RDAP_URL, signal: inFlight.signal };

  /** One monitor's check, its result and, when its state changes, its report. */
  async function run(monitor: Claimed, now: () => Date) {
    const result = await probe(monitor, now(), probing);
    // Stopped mid-check: no result, and the claim runs out for another checker to take it.
    if (inFlight.signal.aborted) return;
    const at = now();
    const streak = await recordResult(pool, monitor, result, at);
    await reportOutcome(context, monitor, result, streak, at);
  }

  // Expected runs touch no host: each is its own, so the per-host cap does not hold them back.
  // Domains are all looked up at the RDAP server: its cap is theirs.
  const hostOf = (m: Claimed) =>
    m.kind === 'http' ? new URL(m.url).host : m.kind === 'domain' ? new URL(config.RDAP_URL).host : m.monitor_id;

  /** Claims what is due at `now`, as much as there is room for, and starts checking it; `done` settles when those checks have ended. */
  async function dispatch(now: () => Date = clock): Promise<{ checked: number; done: Promise<unknown> }> {
    const claimed = await claimDue(pool, inFlight, config.CHECK_TIMEOUT_MS, now());
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

  let ticks = 0;
  const loop = repeating(
    async () => {
      await dispatch();
      // About once a minute and once an hour at the default interval.
      if (++ticks % 60 === 1) await enforcePlans(context, clock());
      if (ticks % 3600 === 1) await prune(pool, clock());
    },
    config.CHECKER_INTERVAL_MS,
    logger,
    'checker tick',
  );
  return {
    tick,
    enforcePlans: (now: Date) => enforcePlans(context, now),
    prune: (now: Date) => prune(pool, now),
    start: loop.start,
    async stop() {
      await loop.stop();
      await inFlight.stop();
      await outbound.close();
    },
  };
}
