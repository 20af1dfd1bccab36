import type pg from 'pg';
import { type EventOpener, type Handler, react, send } from './batch.ts';
import { lockConsumer } from './consumer-tables.ts';
import { type BusEvent, busEventPosition } from './envelope.ts';
import { isLastingFailure, parkStatements } from './parking.ts';
import { positionsStatement } from './positions.ts';
import { inTransaction } from './sql.ts';

export interface ProjectionRebuild {
  pool: pg.Pool;
  schema: string;
  /** The durable consumer's full name, e.g. `activity-timeline`. */
  consumer: string;
  /** The read-model tables it owns (emptied first). */
  tables: string[];
  /** Each source's published events in store order. */
  sources: Record<string, () => AsyncIterable<BusEvent>>;
  handlers: Record<string, Handler>;
  open?: EventOpener;
}

/**
 * Rebuilds a consumer's read model from the event stores, in one transaction, while the live consumer
 * waits on the same advisory lock: tables emptied, every event replayed through the live handlers,
 * handled records, positions and parked events rewritten (so a rebuild after a fix re-applies what was
 * parked). Afterwards the live consumer skips what was replayed and carries on with anything newer.
 */
export async function rebuildProjection(rebuild: ProjectionRebuild): Promise<{ events: number }> {
  const { pool, schema, consumer, tables, handlers } = rebuild;
  let events = 0;
  await inTransaction(pool, async (client) => {
    await lockConsumer(client, schema, consumer);
    await client.query(`TRUNCATE ${tables.map((t) => `${schema}.${t}`).join(', ')}`);
    for (const table of ['handled_events', 'consumer_positions', 'parked_events'])
      await client.query(`DELETE FROM ${schema}.${table} WHERE consumer = $1`, [consumer]);
    // Each page under a savepoint: a page that fails for a lasting reason is replayed event by event,
    // and an event that fails on its own is parked again, as the live consumer would.
    const replay = async (page: BusEvent[]): Promise<void> => {
      await client.query('SAVEPOINT page');
      try {
        const deferred = await react(client, { schema, consumer, handlers, open: rebuild.open }, page);
        await send(client, [...deferred, { text: 'RELEASE SAVEPOINT page' }]);
      } catch (error) {
        if (!isLastingFailure(error)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT page');
        if (page.length > 1) for (const event of page) await replay([event]);
        else await send(client, parkStatements(schema, consumer, page[0]!, error));
      }
    };
    for (const [source, read] of Object.entries(rebuild.sources)) {
      let last: BusEvent | undefined;
      let page: BusEvent[] = [];
      for await (const event of read()) {
        page.push(event);
        last = event;
        events += 1;
        if (page.length === 500) {
          await replay(page);
          page = [];
        }
      }
      if (page.length > 0) await replay(page);
      if (last) await send(client, [positionsStatement(schema, consumer, new Map([[source, busEventPosition(last)]]))]);
    }
  });
  return { events };
}
