/**
 * `npm test` (after scripts/bootstrap.mjs): typecheck, lint, the web build, every unit and integration test and a
 * small chaos run (bench/chaos) side by side; then the browser tests against the app as `npm start` runs it.
 * Ends with one plain line, `N passed, N failed`, over all of them (each check counts as one; each test as one).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { STOP_DEADLINE_MS } from '@shiplog/service-kit';

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];

function count(name: string, ok: boolean) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

/**
 * Checks that read only the sources, run side by side (each on its own core while it lasts); each one's
 * output is printed whole, in the order given. Answers whether each passed, by name.
 */
async function checksSideBySide(checks: { name: string; command: string; args: string[] }[]) {
  const results = await Promise.all(
    checks.map(
      ({ name, command, args }) =>
        new Promise<{ name: string; ok: boolean; output: string }>((resolve) => {
          const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          child.stderr.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          child.on('error', (error) => resolve({ name, ok: false, output: String(error) }));
          child.on('close', (code) => resolve({ name, ok: code === 0, output }));
        }),
    ),
  );
  for (const { name, output } of results) process.stdout.write(`\n── ${name} ──\n${output}`);
  return new Map(results.map(({ name, ok }) => [name, ok]));
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/** The tests that failed, named with the first line of their failure, for the summary at the end. */
const failedTests: string[] = [];

/** What the servers logged during each failed test: printed before the failed tests' names. */
const failureLogs: string[] = [];

/** How long each test file took, for the slowest-files list at the end. */
const fileTimes: { file: string; ms: number }[] = [];

/**
 * Runs the vitest projects and counts their results; their output goes to this terminal as it comes,
 * or, `held`, all at once when they end (a run beside another, so the two do not interleave).
 */
async function tests(name: string, projects: string[], options: { held?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'shiplog-test-'));
  const output = join(dir, 'report.json');
  const args = [
    'exec',
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ];
  const heading = `\n── ${name} ──\n`;
  if (!options.held) process.stdout.write(heading);
  let held = '';
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn('pnpm', args, {
      cwd: root,
      env: { ...process.env, SHIPLOG_FAILURE_LOGS: dir },
      stdio: options.held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const hold = (chunk: Buffer) => {
      held += chunk.toString();
    };
    child.stdout?.on('data', hold);
    child.stderr?.on('data', hold);
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  if (options.held) process.stdout.write(heading + held);
  let report: VitestReport | null = null;
  try {
    report = JSON.parse(readFileSync(output, 'utf8'));
  } catch {
    report = null;
  }
  // What the servers logged during each failed test (libs/testing/src/failure-logs.ts), for the summary.
  if (existsSync(join(dir, 'failures.log'))) failureLogs.push(readFileSync(join(dir, 'failures.log'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  if (!report) {
    failed += 1;
    failures.push(`${name} (no report)`);
    return;
  }
  for (const file of report.testResults)
    fileTimes.push({ file: relative(root, file.name), ms: Math.max(0, file.endTime - file.startTime) });
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  // A file that fails before its tests run (an import error, a failing beforeAll) counts as a failure.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  );
  failed += brokenFiles.length;
  for (const file of brokenFiles) failures.push(`${name}: ${file.name}`);
  if (report.numFailedTests > 0) failures.push(`${name}: ${report.numFailedTests} failed`);
  // Each failed test by name, with the first line of why, for the summary at the end: a long run's
  // log is often read from its tail only.
  for (const file of report.testResults)
    for (const test of file.assertionResults.filter((t) => t.status === 'failed'))
      failedTests.push(
        `${relative(root, file.name)} › ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n')[0]!.slice(0, 300)}`,
      );
  for (const file of brokenFiles)
    failedTests.push(`${relative(root, file.name)}\n      ${(file.message ?? '').split('\n')[0]!.slice(0, 300)}`);
  if (!ok && report.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    failures.push(`${name} (vitest exited with an error)`);
  }
}

/**
 * The CPU-seconds the whole machine has spent working since it booted (every process's user and
 * system time, from /proc/stat, counted in Linux's 100 ticks a second); null where there is no /proc.
 */
function machineCpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user, nice, system, irq, softirq, steal: all but idle and iowait.
    return [0, 1, 2, 5, 6, 7].reduce((sum, i) => sum + (fields[i] ?? 0), 0) / 100;
  } catch {
    return null;
  }
}

/**
 * How fast one core of this machine is now, in MiB of SHA-256 a second over one second: machines of
 * one kind differ, and one machine differs from day to day, so a run's time is compared with another's
 * only beside this figure (and the CPU-seconds the run took), not on its own.
 */
function coreSpeed(): number {
  const block = Buffer.alloc(1 << 20, 7);
  const began = performance.now();
  let hashed = 0;
  while (performance.now() - began < 1_000) {
    createHash('sha256').update(block).digest();
    hashed += 1;
  }
  return Math.round(hashed / ((performance.now() - began) / 1000));
}

const speed = coreSpeed();
const runBegan = performance.now();
const cpuBefore = machineCpuSeconds();

/** How long each stage took, for the line at the end: where a run's time goes. */
const stageTimes: string[] = [];
async function timed<T>(name: string, stage: Promise<T>): Promise<T> {
  const began = performance.now();
  const result = await stage;
  stageTimes.push(`${name} ${Math.round((performance.now() - began) / 1000)} s`);
  return result;
}

// The checks, the unit and integration tests and a small chaos run side by side. The chaos run starts
// its own PostgreSQL, NATS, Redis and app processes and kills them one by one, touching nothing of
// theirs. The integration tests spend much of their time waiting on their servers, the chaos run on its
// faults: side by side they fill the machine instead of taking turns on it, and the checks (which read
// only the sources) take what is left. The browser tests come after them: run beside them too, the
// tests that time what the servers do under load fail from the load alone (measured on 2026-11-28:
// 280-410 s instead of 320 s, and a failure in most runs).
const [checked] = await Promise.all([
  timed(
    'checks',
    checksSideBySide([
      { name: 'typecheck', command: 'pnpm', args: ['run', 'typecheck'] },
      { name: 'lint', command: 'pnpm', args: ['run', 'lint'] },
      { name: 'web build', command: 'pnpm', args: ['--filter', '@shiplog/web', 'build'] },
    ]),
  ),
  timed('unit and integration tests', tests('unit and integration tests', ['unit', 'int'])),
  timed('chaos run', tests('faults under load (a small chaos run)', ['chaos'], { held: true })),
]);
for (const [name, ok] of checked) count(name, ok);
if (checked.get('web build') === true) await timed('browser tests', tests('browser tests', ['e2e']));

/**
 * The processes of this checkout still running (an app a test started, a service of it): none may
 * outlive the run. Read from /proc, where there is one; this run and its parents are not counted.
 */
function leftovers(): { pid: number; command: string }[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const ours = new Set<number>();
  for (let pid = process.pid; pid > 1; ) {
    ours.add(pid);
    try {
      pid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    } catch {
      break;
    }
  }
  // Named by a path from the checkout (launch.ts starts `scripts/start.ts` in it) or a full one.
  const started = [/\bservices\/\w+\/src\/main\.ts/, /\bgateway\/src\/main\.ts/, /\bscripts\/start\.ts/];
  return pids.flatMap((name) => {
    const pid = Number(name);
    if (ours.has(pid)) return [];
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      return [];
    }
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {}
    const here = cwd === root || command.includes(root);
    return here && started.some((pattern) => pattern.test(command)) ? [{ pid, command }] : [];
  });
}

// Every process a test started has ended with the run: its stop is given the time a process has to
// stop (STOP_DEADLINE_MS, after which it ends itself; the app's supervisor kills a child after 15 s),
// then what is left is a failure, named, and ended.
let left = leftovers();
for (let waited = 0; left.length > 0 && waited < STOP_DEADLINE_MS + 5_000; waited += 500) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  left = leftovers();
}
if (left.length > 0) {
  process.stdout.write('\nProcesses the tests started are still running:\n');
  for (const { pid, command } of left) {
    process.stdout.write(`  ${pid}  ${command}\n`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  count('no process left behind', false);
} else count('no process left behind', true);

process.stdout.write(`\nThe stages: ${stageTimes.join(', ')}\n`);
const cpuAfter = machineCpuSeconds();
if (cpuBefore !== null && cpuAfter !== null) {
  const seconds = (performance.now() - runBegan) / 1000;
  const cores = availableParallelism();
  const work = cpuAfter - cpuBefore;
  process.stdout.write(
    `The machine: ${cores} cores, one hashing ${speed} MiB/s (SHA-256); the run kept them ${Math.round((100 * work) / (seconds * cores))}% busy (${Math.round(work)} CPU-seconds in ${Math.round(seconds)} s)\n`,
  );
}
process.stdout.write('\nThe ten slowest test files:\n');
for (const { file, ms } of fileTimes.sort((a, b) => b.ms - a.ms).slice(0, 10))
  process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
process.stdout.write('\n');
if (skipped > 0)
  process.stdout.write(`(${skipped} not run: suites that need a server this machine lacks, e.g. EventStoreDB)\n`);
for (const log of failureLogs) process.stdout.write(`\n${log}`);
if (failedTests.length > 0)
  process.stdout.write(`\nThe tests that failed:\n${failedTests.map((t) => `  ${t}\n`).join('')}\n`);
if (failures.length > 0) process.stdout.write(`Failed: ${failures.join('; ')}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
