import { repeating, type ServiceContext } from '@shiplog/service-kit';
import type { ActivityEnv } from '../../env.ts';
import { expireAudit } from '../../read-models/audit/index.ts';

/** How often the audit log's year-old entries are taken away. */
const EVERY_MS = 60 * 60 * 1000;

/**
 * Keeps each workspace's audit log to a year: every hour, the entries older than that go, a batch at a
 * time (and the totals the log's trigger keeps with them).
 */
export function createAuditExpiry(context: ServiceContext<ActivityEnv>) {
  async function tick(now: Date = context.now()): Promise<number> {
    let expired = 0;
    for (let gone = -1; gone !== 0; ) {
      gone = await expireAudit(context.pool, now);
      expired += gone;
    }
    return expired;
  }
  const loop = repeating(() => tick(), EVERY_MS, context.logger, 'audit log expiry');
  return { tick, start: loop.start, stop: loop.stop };
}
