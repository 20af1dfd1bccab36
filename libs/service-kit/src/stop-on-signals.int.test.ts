import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A process that calls `stopOnSignals` with the given stop, and says when it is listening for signals. */
function child(stop: string) {
  const kit = join(import.meta.dirname, 'service.ts');
  const script = `import { stopOnSignals } from ${JSON.stringify(kit)};
stopOnSignals('child', () => ${stop}, 300);
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, ready, exited, stderr: () => stderr };
}

describe('endWithSupervisor', () => {
  it('stops a process whose supervisor ended while it was still loading its code', async () => {
    const kit = join(import.meta.dirname, 'service.ts');
    // A second of loading (a service's imports, compiling and reading files), during which the channel
    // closes and its 'disconnect' is emitted to nobody.
    const script = `const until = Date.now() + 1000; while (Date.now() < until) {}
await new Promise((resolve) => setTimeout(resolve, 300));
const { endWithSupervisor } = await import(${JSON.stringify(kit)});
endWithSupervisor();
setInterval(() => {}, 1000);`;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      proc.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    proc.disconnect();
    expect(await exited).toBe('SIGTERM');
  });
});

describe('a process whose supervisor is gone', () => {
  it('ends, though what it logged last can no longer be written anywhere', async () => {
    const logger = join(import.meta.dirname, 'logger.ts');
    // Its supervisor read its output; gone, the output's other end is closed. Lines logged as it stops
    // are still held by the logger, which writes them out as the process exits.
    const script = `import { createLogger } from ${JSON.stringify(logger)};
const log = createLogger('child', 'info');
process.on('disconnect', () => {
  for (let i = 0; i < 200; i++) log.info({ i, padding: 'x'.repeat(2000) }, 'stopping');
  process.exit(0);
});
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');`;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      proc.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    proc.stdout!.destroy();
    proc.stderr!.destroy();
    proc.disconnect();
    const ended = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    if (ended === 'still running') proc.kill('SIGKILL');
    expect(ended).not.toBe('still running');
  });
});

describe('stopOnSignals', () => {
  it('ends the process once its stop is done', async () => {
    const { proc, ready, exited } = child('Promise.resolve()');
    await ready;
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('ends the process after the deadline when its stop never ends, whatever signals follow', async () => {
    const { proc, ready, exited, stderr } = child('new Promise(() => {})');
    await ready;
    proc.kill('SIGINT');
    proc.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stderr()).toContain('did not stop within 0.3 s');
  });
});
