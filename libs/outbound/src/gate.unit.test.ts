import { describe, expect, it } from 'vitest';
import { PerKeyGate } from './index.ts';

/** A task that runs until released, noting when it starts. */
function held(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

describe('PerKeyGate', () => {
  it('runs at most its limit per key, the rest in order, while another key goes on', async () => {
    const gate = new PerKeyGate(2);
    const started: string[] = [];
    const a = ['a1', 'a2', 'a3', 'a4'].map((name) => held(started, name));
    const b = held(started, 'b1');
    const results = [...a.map((task) => gate.run('a.example', task.work)), gate.run('b.example', b.work)];
    await Promise.resolve();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    a[1]!.release();
    await expect(results[1]).resolves.toBe('a2');
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const task of [...a, b]) task.release();
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('gives a place back when the work fails', async () => {
    const gate = new PerKeyGate(1);
    await expect(gate.run('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(gate.run('k', async () => 'next')).resolves.toBe('next');
  });
});
