/**
 * `pnpm events:parked`: the events each service's consumers set aside because their reaction kept
 * failing for a lasting reason (docs/decisions/013-parked-events.md), oldest first. Each stays in its
 * event store; after a fix, `pnpm projections:rebuild` re-applies a projection's. Exits 1 when any is
 * parked, so a cron job or a deploy check can tell. Reads DATABASE_URL as the services do.
 */
import { parkedEvents } from '@shiplog/messaging';
import { loadConfig, serviceDirectory, serviceEnv } from '@shiplog/service-kit';
import pg from 'pg';

const config = loadConfig(serviceEnv, process.env);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
let count = 0;
try {
  for (const schema of Object.keys(serviceDirectory)) {
    const { rows } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [`${schema}.parked_events`]);
    if (!rows[0].present) continue;
    for (const parked of await parkedEvents(pool, schema)) {
      count += 1;
      process.stdout.write(
        `${parked.parkedAt.toISOString()}  ${parked.consumer}  ${parked.eventType} ${parked.eventId} ` +
          `(${parked.source} ${parked.position})\n    ${parked.error}\n`,
      );
    }
  }
} finally {
  await pool.end();
}
process.stdout.write(count === 0 ? 'no parked events\n' : `${count} parked event(s)\n`);
process.exitCode = count === 0 ? 0 : 1;
