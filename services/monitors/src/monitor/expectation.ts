/** A moment as the causes name it: `2026-11-26 20:00 UTC`. */
const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * An expected backup or deployment, judged at `now`: on time while the latest one (or, before any,
 * the moment the expectation was set) is no more than `intervalSeconds` and `graceSeconds` ago; else
 * missed, with why. A backup's cron job may ping too (`ping`: its latest pinged run): a run that
 * ended in failure, after the latest good one, is a failure at once, and so is one started and not
 * ended within the grace. Pure: the checker gives it the latest runs it knows of.
 */
export function judgeExpectation(expectation: {
  kind: 'backup' | 'deployment';
  intervalSeconds: number;
  graceSeconds: number;
  setAt: Date;
  lastRun: Date | null;
  /** `label`: what ran, when a service reported it (a scheduled workflow's file name). */
  ping?: { startedAt: Date; endedAt: Date | null; outcome: 'running' | 'ok' | 'failed'; label?: string | null } | null;
  now: Date;
}): { ok: true } | { ok: false; cause: string } {
  const { kind, lastRun, setAt, now, ping } = expectation;
  if (ping && ping.startedAt >= setAt) {
    if (ping.outcome === 'failed' && ping.endedAt && (!lastRun || ping.endedAt > lastRun))
      return { ok: false, cause: `${ping.label ?? kind} failed at ${utc(ping.endedAt)}` };
    if (ping.outcome === 'running' && now.getTime() > ping.startedAt.getTime() + expectation.graceSeconds * 1000)
      return { ok: false, cause: `${ping.label ?? kind} started at ${utc(ping.startedAt)} did not finish` };
  }
  const from = lastRun && lastRun > setAt ? lastRun : setAt;
  const due = from.getTime() + (expectation.intervalSeconds + expectation.graceSeconds) * 1000;
  if (now.getTime() <= due) return { ok: true };
  const since = lastRun ? ` since ${utc(lastRun)}` : ' yet';
  return { ok: false, cause: `no ${kind}${since}` };
}
