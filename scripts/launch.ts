/**
 * Starting the app as `npm start` does (scripts/start.ts, with the options and environment it runs
 * with, `startCommand`), from the browser tests and the benchmarks alike; and any other Node script
 * that says when it is ready.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { startCommand } from './app-processes.ts';

const root = join(import.meta.dirname, '..');

export interface Launched {
  child: ChildProcess;
  /** Everything it has written so far, both streams. */
  output(): string;
  /** SIGTERM, then its exit (at once if it has already ended). */
  stop(): Promise<void>;
}

/**
 * Runs `node <args>` from the repository with `env` over this process's environment, and resolves
 * once its output says `ready`; rejects with its output if it exits first or takes over `timeoutMs`.
 */
export function launch(
  args: string[],
  env: Record<string, string>,
  ready: string,
  timeoutMs = 120_000,
): Promise<Launched> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    // A channel to it, which closes when this process ends however it ends: the app's supervisor
    // (scripts/start.ts) then stops, so nothing outlives a test worker or a bench run.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const launched: Launched = {
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${args.join(' ')} was not ready within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve(launched);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${signal ?? code}:\n${output}`));
    });
  });
}

/** The app as `npm start` runs it, with `env` (its port, database and namespace among them). */
export function launchApp(env: Record<string, string>, timeoutMs?: number): Promise<Launched> {
  const command = startCommand({ ...process.env, ...env });
  return launch(
    [...command.nodeArgs, 'scripts/start.ts'],
    { ...env, ...command.env },
    'Shiplog is running at',
    timeoutMs,
  );
}
