import { describe, expect, it } from 'vitest';
import { judgeExpectation } from './expectation.ts';

const setAt = new Date('2026-11-26T00:00:00Z');
const hours = (h: number) => new Date(setAt.getTime() + h * 3_600_000);
const daily = { kind: 'backup' as const, intervalSeconds: 86_400, graceSeconds: 7200, setAt };

describe('an expected backup', () => {
  it('is on time until its interval and grace have passed since it was set, with none yet', () => {
    expect(judgeExpectation({ ...daily, lastRun: null, now: hours(26) })).toEqual({ ok: true });
    expect(judgeExpectation({ ...daily, lastRun: null, now: hours(26.01) })).toEqual({
      ok: false,
      cause: 'no backup yet',
    });
  });

  it('counts from the latest run, and is on time again once one comes', () => {
    const lastRun = hours(20);
    expect(judgeExpectation({ ...daily, lastRun, now: hours(46) })).toEqual({ ok: true });
    expect(judgeExpectation({ ...daily, lastRun, now: hours(47) })).toEqual({
      ok: false,
      cause: 'no backup since 2026-11-26 20:00 UTC',
    });
    expect(judgeExpectation({ ...daily, lastRun: hours(47), now: hours(47.1) })).toEqual({ ok: true });
  });

  it('does not count a run from before the expectation was set', () => {
    expect(judgeExpectation({ ...daily, lastRun: hours(-30), now: hours(25) })).toEqual({ ok: true });
    expect(judgeExpectation({ ...daily, lastRun: hours(-30), now: hours(27) })).toMatchObject({ ok: false });
  });
});

describe('an expected backup that its cron job pings', () => {
  const ended = (h: number, outcome: 'ok' | 'failed') => ({ startedAt: hours(h - 0.1), endedAt: hours(h), outcome });

  it('fails at once when the latest run failed, and is on time again after a good one', () => {
    expect(judgeExpectation({ ...daily, lastRun: hours(1), ping: ended(3, 'failed'), now: hours(3.1) })).toEqual({
      ok: false,
      cause: 'backup failed at 2026-11-26 03:00 UTC',
    });
    // A good run later, pinged or recorded (`shiplog backup`), is the latest run.
    expect(judgeExpectation({ ...daily, lastRun: hours(4), ping: ended(3, 'failed'), now: hours(4.1) })).toEqual({
      ok: true,
    });
  });

  it('names what failed when a service reported the run (a scheduled workflow)', () => {
    const ping = { ...ended(3, 'failed'), label: 'nightly-backup.yml' };
    expect(judgeExpectation({ ...daily, lastRun: hours(1), ping, now: hours(3.1) })).toEqual({
      ok: false,
      cause: 'nightly-backup.yml failed at 2026-11-26 03:00 UTC',
    });
  });

  it('fails when a started run has not ended within the grace', () => {
    const running = { startedAt: hours(5), endedAt: null, outcome: 'running' as const };
    expect(judgeExpectation({ ...daily, lastRun: hours(1), ping: running, now: hours(7) })).toEqual({ ok: true });
    expect(judgeExpectation({ ...daily, lastRun: hours(1), ping: running, now: hours(7.01) })).toEqual({
      ok: false,
      cause: 'backup started at 2026-11-26 05:00 UTC did not finish',
    });
  });

  it('does not count a run pinged before the expectation was set', () => {
    expect(judgeExpectation({ ...daily, lastRun: null, ping: ended(-2, 'failed'), now: hours(1) })).toEqual({
      ok: true,
    });
  });
});
