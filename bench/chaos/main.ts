/**
 * `pnpm chaos`: faults under load. 300 users and at least 10,000 operations while each
 * service, the gateway, NATS and Redis are killed (`kill -9`) and restarted one at a time, and
 * PostgreSQL is paused; then the checks. Prints the figures, writes bench/results/chaos.json, and
 * exits 1 if an acknowledged write was lost, anything happened twice, an event is parked or a read
 * model differs from its rebuild. CHAOS_USERS, CHAOS_OPERATIONS and CHAOS_SEED change the size and seed;
 * CHAOS_PROCESSES=one runs the app as `npm start` and the image do, all in one process, killed whole.
 * Then a monitored site's outage under faults (monitor-outage.ts): exactly one down and one up alert
 * (with each service a process of its own: it kills the monitors service).
 * `pnpm chaos monitors` runs that part alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { type MonitorOutageResult, monitorOutagePassed, runMonitorOutage } from './monitor-outage.ts';
import { allFaults, type ChaosResult, oneProcessFaults, runChaos } from './run.ts';

const processes: 'each' | 'one' = process.env.CHAOS_PROCESSES === 'one' ? 'one' : 'each';

const options = {
  users: Number(process.env.CHAOS_USERS || 300),
  operations: Number(process.env.CHAOS_OPERATIONS || 10_000),
  concurrency: 32,
  faults: processes === 'one' ? oneProcessFaults : allFaults,
  processes,
  downSeconds: 3,
  gapSeconds: 3,
  seed: Number(process.env.CHAOS_SEED || 20261124),
};

function table(header: string[], rows: (string | number)[][]) {
  const all = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  process.stdout.write(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of all.slice(1)) process.stdout.write(`${line(row)}\n`);
}

export function printChaos(r: ChaosResult) {
  const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
  table(
    ['measure', 'value', 'target', ''],
    [
      ['users / operations / requests', `${r.users} / ${r.operations} / ${r.requests}`, '>= 10,000 operations', ''],
      ['load time (s), operations/s', `${r.loadSeconds}, ${r.operationsPerSecond}`, '', ''],
      ['acknowledged writes lost', r.lostTotal, '0', pass(r.lostTotal === 0)],
      ['handled twice (store, timeline, emails, chat)', r.duplicatesTotal, '0', pass(r.duplicatesTotal === 0)],
      ['read models equal to a rebuild', r.rebuild.equal ? 'equal' : 'DIFFER', 'equal', pass(r.rebuild.equal)],
      ['events parked', r.findings.parked, '0', pass(r.findings.parked === 0)],
      [
        'processes that died on their own',
        r.crashes.map((c) => `${c.name} (${c.exit})`).join(', ') || 0,
        '0',
        pass(r.crashes.length === 0),
      ],
      ['answers >= 400 without the fixed error body', r.withoutErrorBody, '0', pass(r.withoutErrorBody === 0)],
      ['answers >= 500 over the whole run', r.serverErrors, '', ''],
      [
        'the app at its largest under load: RSS (PSS) MB',
        `${r.peakMemory.appMiB} (${r.peakMemory.appProportionalMiB})`,
        '< 1536',
        pass(r.peakMemory.appMiB < 1536),
      ],
      [
        'the whole stack at its largest: the app, PostgreSQL, NATS and Redis, PSS (MB)',
        r.peakStackMiB,
        r.processes === 'one' ? '<= 600' : '',
        r.processes === 'one' ? pass(r.peakStackMiB <= 600) : '',
      ],
      [
        '  by process at that moment (MB)',
        Object.entries(r.peakMemory.byProcess)
          .map(([name, mib]) => `${name} ${mib}`)
          .join(', '),
        '',
        '',
      ],
      ['users signed in again (sessions lost with Redis)', r.signedInAgain, '', ''],
      ['creates still unknown after retries', r.unresolvedCreates, '', ''],
      [
        'reminder emails: due / received / appended-not-sent / never sent',
        `${r.findings.emails.expected} / ${r.findings.emails.received} / ${r.findings.emails.sentButNotReceived} / ${r.findings.emails.neverSent}`,
        '',
        '',
      ],
      [
        'chat messages: acknowledged / unknown / counted',
        `${r.findings.chat.acknowledged} / ${r.findings.chat.unknown} / ${r.findings.chat.counted}`,
        '',
        '',
      ],
      [
        'checked',
        Object.entries(r.findings.checked)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
        '',
        '',
      ],
    ],
  );
  table(
    [
      'fault',
      'action',
      'down s',
      'failing s',
      'heal s',
      'requests',
      '5xx',
      'no answer',
      '5xx share',
      'no error body',
      'what 5xx said',
    ],
    r.faults.map((f) => [
      f.fault,
      f.action,
      f.downSeconds,
      f.failingSeconds,
      f.healSeconds,
      f.requests,
      f.serverErrors,
      f.noAnswer,
      `${(f.serverErrorShare * 100).toFixed(1)}%`,
      f.withoutErrorBody,
      Object.entries(f.serverErrorCodes)
        .map(([code, n]) => `${code} ×${n}`)
        .join(', '),
    ]),
  );
  table(
    ['read model', 'rows', 'only live', 'only rebuilt'],
    r.rebuild.tables.map((t) => [t.table, t.rows, t.onlyLive, t.onlyRebuilt]),
  );
  for (const t of r.rebuild.tables)
    for (const [side, rows] of Object.entries(t.examples))
      for (const row of rows) process.stdout.write(`${t.table} only ${side}: ${row}\n`);
  for (const crash of r.crashes) process.stdout.write(`\n${crash.name} died (${crash.exit}):\n${crash.output}\n`);
  if (r.findings.examples.length > 0) process.stdout.write(`\n${r.findings.examples.join('\n')}\n`);
  process.stdout.write(`\nby kind: ${JSON.stringify(r.operationsByKind)}\n`);
}

export const chaosPassed = (r: ChaosResult) =>
  r.lostTotal === 0 &&
  r.duplicatesTotal === 0 &&
  r.rebuild.equal &&
  r.findings.parked === 0 &&
  r.withoutErrorBody === 0 &&
  r.crashes.length === 0;

function printOutage(r: MonitorOutageResult) {
  const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
  table(
    ['monitored outage under faults', 'value', 'target', ''],
    [
      ['down alerts at the webhook (monitors killed)', r.downAlerts, '1', pass(r.downAlerts === 1)],
      ['up alerts at the webhook (NATS killed)', r.upAlerts, '1', pass(r.upAlerts === 1)],
      ['deliveries (tries) in all', r.deliveries, '', ''],
      ['site down → down alert (s)', r.downAlertSeconds, '', ''],
      ['site back → up alert (s)', r.upAlertSeconds, '', ''],
      ['processes that died on their own', r.crashes.join(', ') || 0, '0', pass(r.crashes.length === 0)],
    ],
  );
}

/** Writes one result file under bench/results/ with the date and machine. */
function save(name: string, contents: Record<string, unknown>) {
  const resultsDir = join(import.meta.dirname, '..', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) };
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine, node: process.version, ...contents }, null, 2)}\n`,
  );
  process.stdout.write(`written to ${file}\n`);
}

if (import.meta.main) {
  const log = (line: string) => process.stdout.write(`[chaos] ${line}\n`);
  let passed = true;
  if (process.argv[2] !== 'monitors') {
    const result = await runChaos({ ...options, log });
    printChaos(result);
    save(processes === 'one' ? 'chaos-one-process' : 'chaos', { options, result });
    passed = chaosPassed(result);
  }
  if (processes === 'one') process.exit(passed ? 0 : 1);
  const outage = await runMonitorOutage(log);
  printOutage(outage);
  save('chaos-monitors', { result: outage });
  process.exit(passed && monitorOutagePassed(outage) ? 0 : 1);
}
