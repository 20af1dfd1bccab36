/**
 * An expected backup or deployment, judged at `now`: on time while the latest one (or, before any,
 * the moment the expectation was set) is no more than `intervalSeconds` and `graceSeconds` ago; else
 * missed, with why. Pure: the checker gives it the latest run it knows of.
 */
export function judgeExpectation(expectation: {
  kind: 'backup' | 'deployment';
  intervalSeconds: number;
  graceSeconds: number;
  setAt: Date;
  lastRun: Date | null;
  now: Date;
}): { ok: true } | { ok: false; cause: string } {
  const { kind, lastRun, setAt, now } = expectation;
  const from = lastRun && lastRun > setAt ? lastRun : setAt;
  const due = from.getTime() + (expectation.intervalSeconds + expectation.graceSeconds) * 1000;
  if (now.getTime() <= due) return { ok: true };
  const since = lastRun ? ` since ${lastRun.toISOString().slice(0, 16).replace('T', ' ')} UTC` : ' yet';
  return { ok: false, cause: `no ${kind}${since}` };
}
