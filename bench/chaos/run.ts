/**
 * One chaos run: the app started as `npm start` starts it (with NATS and Redis of the run's own), the
 * stand-ins for Stripe, the model, the registrar and the mail server, a load of a few hundred users,
 * and the faults one at a time during it; then the checks of verify.ts. Everything is on 127.0.0.1,
 * and every process it ends is one it started. `pnpm chaos` runs the full size (bench/chaos/main.ts);
 * `npm test` a small one (bench/chaos/faults-under-load.chaos.test.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, freeServicePortBase, uniqueName } from '@shiplog/testing';
import { startDomainStandIn } from '@shiplog/testing/domains';
import { startOpenAIStandIn } from '@shiplog/testing/openai';
import { startSmtpStandIn } from '@shiplog/testing/smtp';
import { startStripeStandIn } from '@shiplog/testing/stripe';
import pg from 'pg';
import { appServices } from '../../scripts/app-processes.ts';
import { type MemoryReading, memoryByGroup } from '../cpu.ts';
import { type FaultTiming, runFaults } from './faults.ts';
import { runLoad, type Sent } from './load.ts';
import { startFleet } from './processes.ts';
import { compareWithRebuild, type Findings, type TableComparison, verify, waitUntilQuiet } from './verify.ts';

/** Every part that can fail, in the order the full run fails them: each service, then the rest. */
export const allFaults = [...appServices.map((s) => s.name), 'gateway', 'nats', 'redis', 'postgres'];
/** The same with the app in one process (`processes: 'one'`): the app is one part. */
export const oneProcessFaults = ['app', 'nats', 'redis', 'postgres'];

export interface ChaosOptions {
  users: number;
  operations: number;
  concurrency: number;
  faults: string[];
  /** `each` (the default): every service and the gateway a process of its own; `one`: all in one. */
  processes?: 'each' | 'one';
  downSeconds: number;
  gapSeconds: number;
  seed: number;
  /** How far ahead the reminders meant to fall due during the run are set: [min, max] seconds. */
  reminderDueSeconds?: [number, number];
  log?: (line: string) => void;
}

/** What the users met during one fault, from the fault until the probe saw it healed. */
export interface FaultReport {
  fault: string;
  action: string;
  downSeconds: number;
  /** From the probe's first failure to its first success after the restart; 0 if it never failed. */
  failingSeconds: number;
  /** From the restart (or the end of the pause) to the first success. */
  healSeconds: number;
  requests: number;
  serverErrors: number;
  noAnswer: number;
  serverErrorShare: number;
  /** Answers of 400 and above without the fixed error body. */
  withoutErrorBody: number;
  /** The answers of 500 and above, by status and code: what the users were told. */
  serverErrorCodes: Record<string, number>;
}

export interface ChaosResult {
  users: number;
  operations: number;
  operationsByKind: Record<string, number>;
  requests: number;
  loadSeconds: number;
  operationsPerSecond: number;
  lostTotal: number;
  duplicatesTotal: number;
  findings: Findings;
  rebuild: { equal: boolean; seconds: number; tables: TableComparison[] };
  faults: FaultReport[];
  signedInAgain: number;
  unresolvedCreates: number;
  /** Over the whole run: answers of 500 and above, and answers of 400 and above without the fixed body. */
  serverErrors: number;
  withoutErrorBody: number;
  /** How the app ran: each service a process of its own, or all in one. */
  processes: 'each' | 'one';
  /** The app's memory at its highest during the load, read every second (target: under 1.5 GB RSS). */
  peakMemory: MemoryReading;
  /**
   * The whole stack at its largest during the load: the app with the run's own PostgreSQL, NATS and
   * Redis, proportional sets summed (target in one process: 600 MB).
   */
  peakStackMiB: number;
  /** Processes that exited without the run ending them (must be none). */
  crashes: { name: string; exit: string; output: string }[];
}

export const chaosSecrets = {
  SESSION_SECRET: 'chaos-session-secret-chaos-session-secret',
  INTERNAL_TOKEN_SECRET: 'chaos-internal-secret-chaos-internal-secret',
  VAULT_KEY_SECRET: 'chaos-vault-secret-chaos-vault-secret-0123',
  INTEGRATION_KEY_SECRET: 'chaos-integration-secret-chaos-integration-0123',
  // Production answers the whole system's readiness to whom may read the metrics.
  METRICS_TOKEN: 'chaos-metrics-token-chaos-metrics-token',
};

function tally(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of keys) out[key] = (out[key] ?? 0) + 1;
  return out;
}

function report(timing: FaultTiming, sent: Sent[]): FaultReport {
  const during = sent.filter((s) => s.at >= timing.at && s.at <= timing.healedAt);
  const serverErrors = during.filter((s) => s.status >= 500).length;
  const noAnswer = during.filter((s) => s.status === 0).length;
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  return {
    fault: timing.fault,
    action: timing.action,
    downSeconds: seconds(timing.restartedAt - timing.at),
    failingSeconds: timing.firstFailureAt === null ? 0 : seconds(timing.healedAt - timing.firstFailureAt),
    healSeconds: seconds(timing.healedAt - timing.restartedAt),
    requests: during.length,
    serverErrors,
    noAnswer,
    serverErrorShare: during.length === 0 ? 0 : Math.round((serverErrors / during.length) * 1000) / 1000,
    withoutErrorBody: during.filter((s) => s.fixedBody === false).length,
    serverErrorCodes: tally(during.filter((s) => s.status >= 500).map((s) => `${s.status} ${s.code ?? ''}`.trim())),
  };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  const namespace = uniqueName('chaos').toLowerCase();
  const [stripe, model, domains, smtp] = await Promise.all([
    startStripeStandIn(),
    startOpenAIStandIn(),
    startDomainStandIn(),
    startSmtpStandIn(),
  ]);
  const env = {
    ...chaosSecrets,
    ...stripe.env,
    ...model.env,
    ...smtp.env,
    BUS_NAMESPACE: namespace,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // Hundreds of users from one address.
    RATE_LIMITS: 'off',
    SCHEDULER_INTERVAL_MS: '1000',
    INTEGRATION_ALLOWED_HOSTS: domains.host,
  };
  const ports = {
    postgres: await freePort(),
    nats: await freePort(),
    redis: await freePort(),
    gateway: await freePort(),
    serviceBase: await freeServicePortBase(),
  };
  log(`starting PostgreSQL, NATS, Redis, ${appServices.length} services and the gateway`);
  const fleet = await startFleet({ ports, env, processes: options.processes ?? 'each' });
  const databaseUrl = fleet.databaseUrl;
  stripe.deliverTo(`${fleet.gatewayUrl}/api/stripe/webhook`);
  let appStopped = false;
  // The processes the run started (the app, NATS, Redis) are this process's children.
  let peakMemory = memoryByGroup(process.pid, { ownStores: true });
  let peakStackMiB = 0;
  const sampler = setInterval(() => {
    const now = memoryByGroup(process.pid, { ownStores: true });
    if (now.appMiB > peakMemory.appMiB) peakMemory = now;
    const stores = ['postgresql', 'nats', 'redis'].reduce(
      (sum, group) => sum + (now.proportionalByGroup[group] ?? 0),
      0,
    );
    peakStackMiB = Math.max(peakStackMiB, now.appProportionalMiB + stores);
  }, 1000);
  try {
    let faultsOver = false;
    const started = Date.now();
    log(
      `load: ${options.users} users, at least ${options.operations} operations; faults: ${options.faults.join(', ')}`,
    );
    let loadFailed = false;
    let ready: () => void = () => {};
    const loadReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const loadRun = runLoad({
      url: fleet.gatewayUrl,
      users: options.users,
      operations: options.operations,
      concurrency: options.concurrency,
      mayStop: () => faultsOver,
      deadline: started + 30 * 60_000,
      stripe,
      domains,
      smtp,
      reminderDueSeconds: options.reminderDueSeconds ?? [20, 60],
      seed: options.seed,
      onReady: ready,
    }).catch((error: unknown) => {
      loadFailed = true;
      ready();
      throw error;
    });
    // The faults start once the mixed load runs (most users signed up; the rest join during it).
    const faultRun = loadReady
      .then(() =>
        runFaults({
          fleet,
          faults: options.faults,
          databaseUrl: databaseUrl,
          downSeconds: options.downSeconds,
          gapSeconds: options.gapSeconds,
          log,
          cancelled: () => loadFailed,
        }),
      )
      .finally(() => {
        faultsOver = true;
      });
    // Both settle before the processes are stopped, whichever fails.
    const [loadResult, faultResult] = await Promise.allSettled([loadRun, faultRun]);
    if (loadResult.status === 'rejected') throw loadResult.reason;
    if (faultResult.status === 'rejected') throw faultResult.reason;
    const [load, timings] = [loadResult.value, faultResult.value];
    clearInterval(sampler);
    log(`load done: ${load.operations} operations, ${load.sent.length} requests in ${load.seconds} s`);

    // Reminders created late in the run fall due after it: wait for their emails too.
    const lastDue = started + (load.seconds + (options.reminderDueSeconds ?? [20, 60])[1] + 10) * 1000;
    if (!(await waitUntilQuiet(fleet.natsUrl, namespace, databaseUrl)))
      log('the relays and the bus did not go quiet within two minutes');
    const reminderEmails = () => smtp.received.filter((m) => m.raw.includes('/complete')).length;
    while (Date.now() < lastDue && !allEmailsIn(load.users, reminderEmails())) await sleep(500);

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    let findings: Findings;
    try {
      findings = await verify({
        pool,
        env: { ...env, DATABASE_URL: databaseUrl, NATS_URL: fleet.natsUrl, REDIS_URL: fleet.redisUrl },
        users: load.users,
        emails: smtp.received,
      });
    } finally {
      await pool.end();
    }
    await fleet.stopApp();
    appStopped = true;
    log('comparing every read model with a rebuild from the stores');
    const rebuild = await compareWithRebuild(databaseUrl, {
      ...env,
      NATS_URL: fleet.natsUrl,
      REDIS_URL: fleet.redisUrl,
    });

    const sum = (tally: Record<string, number>) => Object.values(tally).reduce((a, b) => a + b, 0);
    return {
      users: options.users,
      operations: load.operations,
      operationsByKind: load.operationsByKind,
      requests: load.sent.length,
      loadSeconds: load.seconds,
      operationsPerSecond: Math.round(load.operations / load.seconds),
      lostTotal: sum(findings.lost),
      duplicatesTotal: sum(findings.duplicates),
      findings,
      rebuild,
      faults: timings.map((t) => report(t, load.sent)),
      signedInAgain: load.signedInAgain,
      unresolvedCreates: load.unresolvedCreates,
      serverErrors: load.sent.filter((s) => s.status >= 500).length,
      withoutErrorBody: load.sent.filter((s) => s.fixedBody === false).length,
      processes: options.processes ?? 'each',
      peakMemory,
      peakStackMiB,
      crashes: fleet.crashes.map(({ name, exit, output }) => ({ name, exit, output })),
    };
  } finally {
    clearInterval(sampler);
    if (!appStopped) await fleet.stopApp();
    await fleet.stop();
    await Promise.all([stripe.stop(), model.stop(), domains.stop(), smtp.stop()]);
  }
}

/** Every reminder due during the run has had its email (or the wait is over). */
function allEmailsIn(users: { reminders: Map<string, { dueDuringRun: boolean }> }[], received: number) {
  let due = 0;
  for (const user of users) for (const r of user.reminders.values()) if (r.dueDuringRun) due += 1;
  return received >= due;
}
