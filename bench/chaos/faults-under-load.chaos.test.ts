import { describe, expect, it } from 'vitest';
import { chaosPassed, printChaos } from './main.ts';
import { runChaos } from './run.ts';

/**
 * `pnpm chaos` made small for `npm test`: 40 users and 400 operations, one kill of each kind (a
 * service, the gateway, NATS, Redis) and a PostgreSQL pause, with every check of the full run.
 */
describe('faults under load (a small chaos run)', () => {
  it('lose no acknowledged write, do nothing twice, park nothing, and rebuild to the same read models', async () => {
    const result = await runChaos({
      users: 40,
      operations: 400,
      concurrency: 12,
      faults: (process.env.CHAOS_FAULTS ?? 'projects,gateway,nats,redis,postgres').split(','),
      downSeconds: 1,
      gapSeconds: 1,
      seed: 20261124,
      // Due while the faults run, so the run need not wait a minute after its load for their emails.
      reminderDueSeconds: [2, 6],
      log: (line) => process.stdout.write(`[chaos] ${line}\n`),
    });
    printChaos(result);
    expect(result.operations).toBeGreaterThanOrEqual(400);
    expect(result.findings.examples).toEqual([]);
    expect(result.lostTotal).toBe(0);
    expect(result.duplicatesTotal).toBe(0);
    expect(result.findings.parked).toBe(0);
    expect(result.crashes).toEqual([]);
    expect(result.rebuild.tables.filter((t) => t.onlyLive + t.onlyRebuilt > 0).map((t) => t.examples)).toEqual([]);
    expect(result.withoutErrorBody).toBe(0);
    expect(result.faults.map((f) => f.fault)).toEqual(['projects', 'gateway', 'nats', 'redis', 'postgres']);
    // Every kind of write was acknowledged at least once, so each check had something to check.
    expect(Object.keys(result.operationsByKind)).toEqual(
      expect.arrayContaining(['register', 'create project', 'toggle checklist', 'record', 'create reminder', 'chat']),
    );
    expect(chaosPassed(result)).toBe(true);
  });
});
