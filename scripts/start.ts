/**
 * `npm start` (after scripts/bootstrap.mjs has set up Node 24, pnpm, dependencies and the servers):
 * creates the database, builds the web app, starts every service and the gateway (all in this process,
 * scripts/one-process.ts; or each a process of its own with SHIPLOG_PROCESSES=each), waits until the
 * gateway is ready, and prints the address. Ctrl-C (SIGINT) or SIGTERM stops them all cleanly.
 *
 * Environment: everything in README's configuration table; in addition SERVICE_PORT_BASE moves the
 * services' ports (identity base + 1, billing base + 4, …; unset: 4100 when those are free, else a free
 * range, so a second checkout's app starts beside the first), and SKIP_WEB_BUILD=1 serves the existing
 * web/dist.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { STOP_DEADLINE_MS } from '@shiplog/service-kit';
import { freeServicePortBase, servicePortsFree } from '@shiplog/testing';
import { type AppProcess, appProcesses, ensureDatabase, root, startCommand, waitUntilReady } from './app-processes.ts';
import type { OneProcess } from './one-process.ts';

// Run plainly (`npm start`), this process starts itself again in place, same pid, with the options and
// environment it runs with (`startCommand`: the heap's young generation, the compile cache, malloc's
// arenas, tracing's preload), which only a process's start can set. Started with them (launch.ts, a
// container), or with a young-generation size of the operator's own, it goes on as it is.
const configured = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((option) =>
  option.includes('--max-semi-space-size'),
);
if (!configured && process.execve && !process.channel) {
  const command = startCommand(process.env);
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...command.nodeArgs, ...process.argv.slice(1)],
    { ...process.env, ...command.env },
  );
}

const env = { ...process.env };
const databaseUrl = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/shiplog';
const portBase = env.SERVICE_PORT_BASE ? Number(env.SERVICE_PORT_BASE) : await servicePortBase();
const gatewayPort = Number(env.PORT || 3000);
// The links services hand out (calendar feeds, deploy webhooks, checkout) point at this app.
env.APP_URL ||= `http://localhost:${gatewayPort}`;

function log(message: string) {
  process.stdout.write(`[shiplog] ${message}\n`);
}

/** 4100, unless one of its service ports is taken (another checkout's app): then a free range. */
async function servicePortBase(): Promise<number> {
  if (await servicePortsFree(4100)) return 4100;
  const base = await freeServicePortBase();
  log(`ports 4101-4109 are taken (another Shiplog?): the services use ${base + 1}-${base + 9}`);
  return base;
}

/**
 * `SHIPLOG_PROCESSES`: `one` (the default) runs every service and the gateway in this process
 * (scripts/one-process.ts), about a fifth of the memory; `each` gives each a process of its own, as a
 * cluster runs them.
 */
const oneProcess = (env.SHIPLOG_PROCESSES || 'one') === 'one';
if (!['one', 'each'].includes(env.SHIPLOG_PROCESSES || 'one')) {
  log(`SHIPLOG_PROCESSES must be one or each, not ${env.SHIPLOG_PROCESSES}`);
  process.exit(2);
}
/** Stops the app run in this process (one-process mode). */
let stopApp: (() => Promise<void>) | undefined;

const children: { name: string; process: ChildProcess }[] = [];
let stopping = false;

function launch({ name, entry, nodeArgs, env: extraEnv }: AppProcess) {
  const child = spawn(process.execPath, [...nodeArgs, join(root, entry)], {
    cwd: root,
    env: { ...env, ...extraEnv },
    // The channel closes when this supervisor ends however it ends, and the child stops with it
    // (service-kit's endWithSupervisor).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream)
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${name.padEnd(8)} | ${line}\n`));
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
    void stopAll(1);
  });
  children.push({ name, process: child });
}

async function stopAll(exitCode: number) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  const exits = children.map(
    ({ process: child }) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // Held, not unref'd: the supervisor stays until each child is gone, so none is left orphaned.
        const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(forced);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(exits);
  // The app in this process (one-process mode) gets the deadline a process of its own has
  // (stopOnSignals): a stop that does not end (a connection that never drains) ends it anyway.
  setTimeout(() => {
    log(`did not stop within ${STOP_DEADLINE_MS / 1000} s: ending now`);
    process.exit(1);
  }, STOP_DEADLINE_MS);
  await stopApp?.().catch((error: unknown) => log(`unclean stop: ${(error as Error).message}`));
  log('stopped');
  process.exit(exitCode);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// Started by another program over a channel (scripts/launch.ts: the browser tests, the benchmarks):
// it closes when that program ends, even killed, and the app stops with it.
process.on('disconnect', () => void stopAll(0));
// Or it closed while this script was still loading, unheard: the app is not started at all.
if (typeof process.send === 'function' && !process.connected) process.exit(0);

await ensureDatabase(databaseUrl, log);
if (env.SKIP_WEB_BUILD !== '1') {
  log('building the web app');
  const build = spawnSync('pnpm', ['--filter', '@shiplog/web', 'build'], { cwd: root, stdio: 'inherit', env });
  if (build.status !== 0) {
    log('web build failed');
    process.exit(1);
  }
}

if (oneProcess) {
  // Every service and the gateway in this process (scripts/one-process.ts).
  let app: OneProcess;
  try {
    // Loaded only here: the supervisor of separate processes keeps none of the services' code.
    const { startOneProcess } = await import('./one-process.ts');
    app = await startOneProcess({ databaseUrl, portBase, gatewayPort, env });
  } catch (error) {
    log(`failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
  stopApp = () => app.stop();
  log(`Shiplog is running at http://localhost:${gatewayPort}  (Ctrl-C stops it)`);
} else {
  await launchEach();
}

/** Each service and the gateway in a process of its own, the services first. */
async function launchEach() {
  const processes = appProcesses({ databaseUrl, portBase, gatewayPort });
  const gateway = processes.at(-1)!;
  for (const service of processes.slice(0, -1)) launch(service);
  for (const service of processes.slice(0, -1)) {
    if (!(await waitUntilReady(service, 60, () => stopping))) {
      log(`${service.name} did not start`);
      await stopAll(1);
    }
  }
  launch(gateway);
  if (!(await waitUntilReady(gateway, 60, () => stopping))) {
    log('the gateway did not become ready');
    await stopAll(1);
  }
  log(`Shiplog is running at http://localhost:${gatewayPort}  (Ctrl-C stops it)`);
}
