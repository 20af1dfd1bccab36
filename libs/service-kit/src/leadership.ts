import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionConnection } from '@shiplog/event-store/postgres';
import type { Logger } from './logger.ts';

export interface LeadershipOptions {
  /** The process's session connection, which holds the lock (and, in one process, every service's). */
  session: SessionConnection;
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
 * One leader per key among any number of replicas: a session-level PostgreSQL advisory lock held on
 * the process's session connection (`SessionConnection`). The process holding it runs `lead`; the
 * others try again every `intervalMs`. The lock lives exactly as long as its connection: when the
 * leader dies, PostgreSQL frees it and a standby takes over within an interval; when the leader's
 * connection is lost (or its check fails), it stops leading at once, since another process may already
 * hold the lock. Resolves after the first attempt, so a lone replica leads from its start.
 */
export async function holdLeadership(options: LeadershipOptions): Promise<Leadership> {
  const { session, key, intervalMs, logger } = options;
  const lockKey = `leader:${key}`;
  const stopping = new AbortController();
  let release: (() => Promise<void>) | undefined;
  /** The session connection's generation the lock was taken on: a later one does not hold it. */
  let heldOn = 0;

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
    let generation: number | undefined;
    try {
      if (release) {
        if (session.generation !== heldOn) return await resign('its connection was lost');
        ({ generation } = await session.query('SELECT 1'));
        if (generation !== heldOn) await resign('its connection was lost');
        return;
      }
      const answer = await session.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS held', [
        lockKey,
      ]);
      generation = answer.generation;
      if (!answer.rows[0]?.held) return;
      if (stopping.signal.aborted) {
        await session.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
        return;
      }
      heldOn = generation;
      release = await options.lead();
      logger.info({ key }, 'leading');
    } catch (error) {
      if (release) await resign((error as Error).message);
      else logger.warn({ err: error, key }, 'could not try for the leader lock, or start leading; trying again');
      // A lock taken (before its work failed to start) must not outlive this round. The connection is
      // shared with other keys, so the lock is given back, not the connection dropped.
      if (generation !== undefined && generation === session.generation)
        await session.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
    }
  };

  // Rounds never overlap: a lost leader has stopped its work before anyone here may lead again.
  let chain = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    chain = chain.then(work);
    return chain;
  };
  // Lost while leading: a round, at once, finds it so and resigns.
  const forget = session.onLost(() => {
    if (release) void serially(round);
  });

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
      forget();
      await rounds;
      await chain;
      const stop = release;
      release = undefined;
      await stop?.();
      if (stop && session.generation === heldOn)
        await session.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
    },
  };
}
