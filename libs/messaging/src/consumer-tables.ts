import { join } from 'node:path';
import { type MigrationSource, runMigrations } from '@shiplog/migrations';
import type pg from 'pg';

/**
 * A consumer's batch transactions hold this lock: a rebuild of its projection, or an erasure that must
 * not race a batch still writing, takes it to run between batches.
 */
export async function lockConsumer(tx: pg.ClientBase, schema: string, name: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockName(schema, name)]);
}

export const lockName = (schema: string, name: string) => `consumer:${schema}.${name}`;

/**
 * The messaging tables of a service's schema (the relay's checkpoint; each consumer's handled records,
 * positions and parked events), by the one runner (@shiplog/migrations). A service runs them at start,
 * before its relay and consumers.
 */
export const messagingMigrations: MigrationSource = {
  directory: join(import.meta.dirname, '..', 'migrations'),
  prefix: 'messaging',
};

export async function migrateMessagingTables(pool: pg.Pool, schema: string): Promise<void> {
  await runMigrations(pool, schema, [messagingMigrations]);
}
