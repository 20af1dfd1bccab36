import { newId } from '@shiplog/events';
import type pg from 'pg';
import type { Statement } from './batch.ts';
import type { Bus } from './bus.ts';
import { lockConsumer } from './consumer-tables.ts';
import { type BusEvent, isUuid } from './envelope.ts';
import { inTransaction, storable } from './sql.ts';

/**
 * Parked events (docs/decisions/013-parked-events.md): an event whose reaction keeps failing for a
 * lasting reason is set aside, so that the events behind it, every user's, go on.
 */

/**
 * A reaction's failure that retrying will cure: an outside system (Stripe, say) did not answer. The
 * batch waits and is retried; nothing is parked.
 */
export class PassingFailure extends Error {
  override name = 'PassingFailure';
}

/**
 * Whether a reaction's failure will repeat however often it is retried: an error in the event's data
 * or in the code that handles it (a PostgreSQL error of any class but those below, a TypeError, a
 * failed check), as against failures that pass: trouble reaching or sharing PostgreSQL (a connection
 * or system error such as ECONNRESET, and the SQLSTATE classes 08 connection, 40 serialization failure
 * or deadlock, 53 insufficient resources, 55 lock not available, 57 operator intervention such as a
 * shutdown or a cancelled statement, 58 system error, XX internal error), and class 42 (an undefined
 * table or column, a missing privilege): the code and the database disagree, as while a deploy or a
 * migration is under way, which is fixed for every event at once and must not set them all aside.
 * A reaction that calls an outside system says its outage passes by throwing a `PassingFailure`.
 */
export function isLastingFailure(error: unknown): boolean {
  if (error instanceof PassingFailure) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return !/^(08|40|42|53|55|57|58|XX)/.test(code);
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return false;
  // pg's own errors for a lost or unobtainable connection carry no code.
  const message = error instanceof Error ? error.message : String(error);
  return !/connection|connect|terminated|timeout|not queryable|pool/i.test(message);
}

/** The statements recording `event` (as carried) as handled and parked by `consumer`, with the failure. */
export function parkStatements(schema: string, consumer: string, event: BusEvent, failure: unknown): Statement[] {
  const userId = event.metadata?.userId;
  const error = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
  return [
    {
      text: `INSERT INTO ${schema}.handled_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      values: [consumer, event.id],
    },
    {
      text: `INSERT INTO ${schema}.parked_events (consumer, event_id, event_type, source, position, user_id, event, error)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (consumer, event_id) DO UPDATE SET error = EXCLUDED.error, parked_at = now()`,
      values: [
        consumer,
        event.id,
        event.type,
        event.source,
        event.position,
        isUuid(userId) ? userId : null,
        JSON.stringify(event),
        storable(error.slice(0, 2000)),
      ],
    },
  ];
}

export interface ParkedEvent {
  consumer: string;
  eventId: string;
  eventType: string;
  source: string;
  position: string;
  error: string;
  parkedAt: Date;
}

/** The events a service's consumers parked (see settle), oldest first. */
export async function parkedEvents(pool: pg.Pool, schema: string): Promise<ParkedEvent[]> {
  const { rows } = await pool.query<ParkedEvent>(
    `SELECT consumer, event_id AS "eventId", event_type AS "eventType", source, position, error, parked_at AS "parkedAt"
     FROM ${schema}.parked_events ORDER BY parked_at, consumer`,
  );
  return rows;
}

/**
 * Sends parked events back to their consumers (after a fix): for each, under the consumer's lock, its
 * parked and handled records go and a copy is published to its subject, all or nothing. The consumer
 * then handles it as new, after whatever it has handled since (so a reaction whose effect depends on
 * order is the operator's call); one that still fails is parked again. Other consumers of the subject
 * have handled it already and skip the copy. `consumer` and `eventId` narrow the choice.
 */
export async function replayParked(options: {
  pool: pg.Pool;
  bus: Bus;
  schema: string;
  consumer?: string;
  eventId?: string;
}): Promise<number> {
  const { pool, bus, schema } = options;
  const { rows } = await pool.query<{ consumer: string; event: BusEvent }>(
    `SELECT consumer, event FROM ${schema}.parked_events
     WHERE ($1::text IS NULL OR consumer = $1) AND ($2::uuid IS NULL OR event_id = $2) ORDER BY parked_at`,
    [options.consumer ?? null, options.eventId ?? null],
  );
  for (const { consumer, event } of rows) {
    await inTransaction(pool, async (client) => {
      // The consumer's batches wait here, so none can meet the copy before the records are gone.
      await lockConsumer(client, schema, consumer);
      await client.query(`DELETE FROM ${schema}.parked_events WHERE consumer = $1 AND event_id = $2`, [
        consumer,
        event.id,
      ]);
      await client.query(`DELETE FROM ${schema}.handled_events WHERE consumer = $1 AND event_id = $2`, [
        consumer,
        event.id,
      ]);
      // A fresh message id: JetStream would drop the event's own id as a duplicate.
      await bus.js.publish(bus.subject(event.source, event.type), JSON.stringify(event), { msgID: newId() });
    });
  }
  return rows.length;
}
