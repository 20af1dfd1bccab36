import { setTimeout as sleep } from 'node:timers/promises';
import { headers } from '@nats-io/nats-core';
import type { EventStore, RecordedEvent } from '@shiplog/event-store';
import { isPublished, type Position } from '@shiplog/events';
import type pg from 'pg';
import type { Bus } from './bus.ts';
import { toBusEvent } from './envelope.ts';
import type { Logger } from './logger.ts';

export interface RelayOptions {
  store: EventStore;
  bus: Bus;
  pool: pg.Pool;
  /** The service's schema; the relay keeps its checkpoint there. */
  schema: string;
  /** The owning service: the subject's second token and the consumers' position key. */
  source: string;
  logger: Logger;
  retryDelayMs?: number;
  /**
   * Runs each publish (`send`) in a span of the caller's (service-kit's, when tracing), which `send`
   * puts in the message's `traceparent` header.
   */
  traced?: (event: RecordedEvent, send: (traceparent: string | undefined) => Promise<void>) => Promise<void>;
}

export interface Relay {
  stop(): Promise<void>;
}

/**
 * Publishes a store's events to JetStream in store order. Publishes are pipelined across event streams
 * but never within one: each event waits for the previous event of its stream to be acknowledged, so
 * no event overtakes another of its stream. `Nats-Msg-Id` is the event id, so a replay after a restart
 * (crash between publish and checkpoint) is dropped as a duplicate.
 * Events marked `publish: false` in the catalog stay in the store.
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { store, bus, pool, schema, source, logger } = options;
  const controller = new AbortController();

  const readCheckpoint = async (): Promise<Position | undefined> => {
    const { rows } = await pool.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position, prepare_position FROM ${schema}.relay_checkpoint`,
    );
    const row = rows[0];
    return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : undefined;
  };
  const saveCheckpoint = async (position: Position) => {
    await pool.query(
      `INSERT INTO ${schema}.relay_checkpoint (commit_position, prepare_position) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position`,
      [position.commit.toString(), position.prepare.toString()],
    );
  };

  // The checkpoint is saved at most every 50 ms, not per event: after a crash, the few events published
  // since are published again and JetStream drops them by Nats-Msg-Id.
  let reached: Position | undefined;
  let saved: Position | undefined;
  const flush = async () => {
    const target = reached;
    if (!target || target === saved) return;
    await saveCheckpoint(target);
    saved = target;
  };
  const timer = setInterval(() => {
    flush().catch((error: unknown) => logger.error({ err: error, source }, 'relay could not save its checkpoint'));
  }, 50);

  const run = async () => {
    try {
      while (!controller.signal.aborted) {
        // Publishes are pipelined, but chained per event stream: an event is sent only after the
        // previous one of its stream was acknowledged, so a stream's events can never overtake each
        // other, even when a publish fails. `reached` moves over the acknowledged prefix only.
        const inFlight: { position: Position; done: Promise<void>; settled: boolean }[] = [];
        const lastOfStream = new Map<string, Promise<void>>();
        let failure: unknown;
        const advance = () => {
          while (inFlight[0]?.settled) reached = inFlight.shift()!.position;
        };
        try {
          const after = await readCheckpoint();
          for await (const event of store.subscribeToAll({ after, signal: controller.signal })) {
            if (failure) throw failure;
            const entry = { position: event.position, done: Promise.resolve(), settled: false };
            if (isPublished(event.type)) {
              const message = toBusEvent(event, source);
              const h = headers();
              h.set('Shiplog-Position', message.position);
              h.set('Shiplog-Source', source);
              const previous = lastOfStream.get(event.streamId) ?? Promise.resolve();
              const send = async (traceparent: string | undefined) => {
                if (traceparent) h.set('traceparent', traceparent);
                await bus.js.publish(bus.subject(source, event.type), JSON.stringify(message), {
                  msgID: event.id,
                  headers: h,
                });
              };
              const { traced } = options;
              entry.done = previous.then(() => (traced ? traced(event, send) : send(undefined)));
              lastOfStream.set(event.streamId, entry.done);
            }
            inFlight.push(entry);
            entry.done.then(
              () => {
                entry.settled = true;
                advance();
              },
              (error: unknown) => {
                failure ??= error;
              },
            );
            if (inFlight.length >= 256) await inFlight[0]!.done;
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          logger.error({ err: error, source }, 'relay failed; resuming from its checkpoint');
          await Promise.allSettled(inFlight.map((e) => e.done));
          await flush().catch(() => undefined);
          await sleep(options.retryDelayMs ?? 1000);
        } finally {
          await Promise.allSettled(inFlight.map((e) => e.done));
        }
      }
    } finally {
      clearInterval(timer);
      await flush().catch((error: unknown) =>
        logger.error({ err: error, source }, 'relay could not save its checkpoint'),
      );
    }
  };
  const running = run();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
