import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from './logger.ts';

export interface LeadershipOptions {
  connectionString: string;
  /** Names the lock: one leader per key in the database (a service's schema, say). */
  key: string;
  /** Every how often a standby tries for the lock, and the leader checks it still holds it. */
  intervalMs: number;
  logger: Logger;
  /**
   * Starts what only the leader runs; answers how to stop it. Called each time this process becomes
   * the leader, and its stop each time it ceases to be (its lock connection lost) or stops.
   */
  lead: () => Promise<() => Promise<void>>;
}

export interface Leadership {
  readonly leading: boolean;
  /** Rounds this replica has finished: tries for the lock, or checks that it still holds it. */
  readonly rounds: number;
  /** Stops leading (when it does), releases the lock and stops trying for it. */
  stop(): Promise<void>;
}

/**
 * One leader per key among any number of replicas: a session-level PostgreSQL advisory lock held on a
 * connection of its own. The process holding it runs `lead`; the others try again every `intervalMs`.
 * The lock lives exactly as long as its connection: when the leader dies, PostgreSQL frees it and a
 * standby takes over within an interval; when the leader's connection is lost (or its check fails), it
 * stops leading at once, since another process may already hold the lock. Resolves after the first
 * attempt, so a lone replica leads from its start.
 */
export async function holdLeadership(options: LeadershipOptions): Promise<Leadership> {
  const { connectionString, key, intervalMs, logger } = options;
  const stopping = new AbortController();
  let client: pg.Client | undefined;
  let release: (() => Promise<void>) | undefined;

  const disconnect = async () => {
    const closing = client;
    client = undefined;
    await closing?.end().catch(() => undefined);
  };
  const resign = async (reason: string) => {
    const stop = release;
    release = undefined;
    if (!stop) return;
    logger.warn({ key, reason }, 'leadership lost: stopping the leader’s work');
    await stop();
  };

  let finished = 0;
  /** One round: try for the lock (or, leading, check that its connection still answers). */
  const round = async () => {
    await attempt();
    finished++;
  };
  const attempt = async () => {
    try {
      if (!client) {
        const next = new pg.Client({
          connectionString,
          keepAlive: true,
          // A connection that stops answering (its host cut off) fails the round instead of holding it.
          query_timeout: Math.max(5 * intervalMs, 5000),
          application_name: `shiplog-leader:${key}`,
        });
        next.on('error', (error) => logger.warn({ err: error, key }, 'leadership connection failed'));
        // Lost while leading: the next round, at once, finds it so and resigns.
        next.on('end', () => {
          if (release) void serially(round);
        });
        await next.connect();
        client = next;
      }
      if (release) {
        await client.query('SELECT 1');
        return;
      }
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS held', [
        `leader:${key}`,
      ]);
      if (!rows[0]?.held || stopping.signal.aborted) return;
      release = await options.lead();
      logger.info({ key }, 'leading');
    } catch (error) {
      if (release) await resign((error as Error).message);
      else logger.warn({ err: error, key }, 'could not try for the leader lock, or start leading; trying again');
      await disconnect();
    }
  };

  // Rounds never overlap: a lost leader has stopped its work before anyone here may lead again.
  let chain = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    chain = chain.then(work);
    return chain;
  };

  await serially(round);
  const rounds = (async () => {
    while (!stopping.signal.aborted) {
      await sleep(intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (!stopping.signal.aborted) await serially(round);
    }
  })();

  return {
    get leading() {
      return release !== undefined;
    },
    get rounds() {
      return finished;
    },
    async stop() {
      stopping.abort();
      await rounds;
      await chain;
      const stop = release;
      release = undefined;
      await stop?.();
      await disconnect();
    },
  };
}
