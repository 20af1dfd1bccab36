/**
 * `pnpm events:parked`: the events each service's consumers set aside because their reaction kept
 * failing for a lasting reason (docs/decisions/013-parked-events.md), oldest first. Each stays in its
 * event store. Exits 1 when any is parked, so a cron job or a deploy check can tell.
 *
 * `pnpm events:parked --replay [event-id]`: after a fix, sends every parked event (or that one) back
 * to its consumer, which handles it as new; one that still fails is parked again. (A projection can
 * also be rebuilt: `pnpm projections:rebuild`.) Reads DATABASE_URL, NATS_URL and BUS_NAMESPACE as the
 * services do.
 */
import { connectBus, parkedEvents, replayParked } from '@shiplog/messaging';
import { loadConfig, serviceEnv } from '@shiplog/service-kit';
import pg from 'pg';
import { serviceSchemasWith } from './service-schemas.ts';

const [flag, eventId] = process.argv.slice(2);
if (flag !== undefined && flag !== '--replay') {
  process.stderr.write('usage: parked-events [--replay [event-id]]\n');
  process.exit(2);
}
const config = loadConfig(serviceEnv, process.env);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
const bus = flag ? await connectBus({ url: config.NATS_URL, namespace: config.BUS_NAMESPACE }) : undefined;
let count = 0;
try {
  for (const schema of await serviceSchemasWith(pool, 'parked_events')) {
    if (bus) {
      const replayed = await replayParked({ pool, bus, schema, ...(eventId ? { eventId } : {}) });
      if (replayed > 0) process.stdout.write(`${schema}: replayed ${replayed} event(s)\n`);
      count += replayed;
      continue;
    }
    for (const parked of await parkedEvents(pool, schema)) {
      count += 1;
      process.stdout.write(
        `${parked.parkedAt.toISOString()}  ${parked.consumer}  ${parked.eventType} ${parked.eventId} ` +
          `(${parked.source} ${parked.position})\n    ${parked.error}\n`,
      );
    }
  }
} finally {
  await bus?.close();
  await pool.end();
}
if (bus) {
  process.stdout.write(`replayed ${count} event(s)\n`);
} else {
  process.stdout.write(count === 0 ? 'no parked events\n' : `${count} parked event(s)\n`);
  process.exitCode = count === 0 ? 0 : 1;
}
