import type pg from 'pg';
import { inTransaction } from './sql.ts';

/**
 * A consumer's batch transactions hold this lock: a rebuild of its projection, or an erasure that must
 * not race a batch still writing, takes it to run between batches.
 */
export async function lockConsumer(tx: pg.ClientBase, schema: string, name: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName(schema, name)]);
}

export const lockName = (schema: string, name: string) => `consumer:${schema}.${name}`;

export async function migrateConsumerTables(pool: pg.Pool, schema: string): Promise<void> {
  // Consumers of one service start together; concurrent CREATE ... IF NOT EXISTS can still collide.
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`consumer-tables:${schema}`]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${schema}.handled_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        handled_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (consumer, event_id)
      );
      CREATE TABLE IF NOT EXISTS ${schema}.consumer_positions (
        consumer text NOT NULL,
        source text NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position bigint NOT NULL,
        PRIMARY KEY (consumer, source)
      );
      CREATE TABLE IF NOT EXISTS ${schema}.parked_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        source text NOT NULL,
        position text NOT NULL,
        user_id uuid,
        event json NOT NULL,
        error text NOT NULL,
        parked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      );
      CREATE INDEX IF NOT EXISTS parked_events_user ON ${schema}.parked_events (user_id);`);
  });
}
