/**
 * `pnpm bus:republish`: after the NATS stream was lost (or its storage), makes every service's relay
 * publish its whole event store again at its next start. The consumers recreate their durable
 * consumers and skip every event they already handled, so nothing takes effect twice. Run it with the
 * services stopped: it refuses while any of them is connected to the database (a running relay would
 * write its checkpoint back). Reads DATABASE_URL as the services do.
 */
import { loadConfig, serviceEnv } from '@shiplog/service-kit';
import pg from 'pg';
import { serviceSchemasWith } from './service-schemas.ts';

/** Empties each service's relay checkpoint; answers the services whose checkpoint it emptied. */
export async function republishAll(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const config = loadConfig(serviceEnv, env);
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
  try {
    const { rows: running } = await pool.query<{ name: string }>(
      `SELECT DISTINCT application_name AS name FROM pg_stat_activity
       WHERE datname = current_database() AND application_name LIKE 'shiplog-%' ORDER BY 1`,
    );
    if (running.length > 0) {
      throw new Error(`Stop the services first: ${running.map((r) => r.name).join(', ')} still connected`);
    }
    const cleared = await serviceSchemasWith(pool, 'relay_checkpoint');
    for (const schema of cleared) await pool.query(`DELETE FROM ${schema}.relay_checkpoint`);
    return cleared;
  } finally {
    await pool.end();
  }
}

if (import.meta.main) {
  const cleared = await republishAll();
  process.stdout.write(`relays of ${cleared.join(', ')} will publish everything again at their next start\n`);
}
