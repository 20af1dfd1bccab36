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
