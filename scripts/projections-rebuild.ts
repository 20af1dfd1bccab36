/**
 * `pnpm projections:rebuild`: rebuilds every read model (the projects list, the subscription gate, the
 * activity timeline and dashboard counters) from the event stores, while the services keep running:
 * each rebuild holds its consumer's lock, so the live consumer pauses and then carries on.
 * Reads the same environment as the services (DATABASE_URL, EVENT_STORE, EVENTSTORE_URL, …).
 */
import { pipelined, publishedEvents, rebuildProjection } from '@shiplog/messaging';
import {
  busHandlers,
  checkServiceEnv,
  loadConfig,
  openEventStore,
  type ServiceName,
  serviceEnv,
  serviceNames,
  vaultKeys,
  vaultOpener,
} from '@shiplog/service-kit';
import { Vault } from '@shiplog/vault';
import pg from 'pg';
import { serviceDefinitions } from './services.ts';

/** Every service's definition, in the directory's order: their projections are the read models. */
const definitions = serviceNames.map((name) => serviceDefinitions[name]);

export async function rebuildAll(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ projection: string; events: number; seconds: number }[]> {
  const config = loadConfig(serviceEnv.superRefine(checkServiceEnv), env);
  const projections = definitions.flatMap((service) =>
    (service.projections ?? []).map((projection) => ({ service, projection })),
  );
  // Each rebuild runs in its own transaction: one connection holds it, one reads the stores. As many run
  // at once as DATABASE_POOL_MAX has pairs of connections for, so a rebuild beside running services
  // takes no more of the server's connections than one more service does.
  const pool = new pg.Pool({ ...pipelined, connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_MAX });
  const open = vaultOpener(new Vault(pool, vaultKeys(config)));
  const rebuild = async ({ service, projection }: (typeof projections)[number]) => {
    const stores = await Promise.all(
      projection.sources.map(
        async (source) => [source, await openEventStore(config, pool, source as ServiceName)] as const,
      ),
    );
    const started = performance.now();
    try {
      const { events } = await rebuildProjection({
        pool,
        schema: service.name,
        consumer: `${service.name}-${projection.name}`,
        tables: projection.tables,
        handlers: busHandlers(projection.handlers),
        open,
        sources: Object.fromEntries(stores.map(([source, store]) => [source, () => publishedEvents(store, source)])),
      });
      const seconds = Math.round(performance.now() - started) / 1000;
      return { projection: `${service.name}-${projection.name}`, events, seconds };
    } finally {
      await Promise.all(stores.map(([, store]) => store.close()));
    }
  };
  const results: { projection: string; events: number; seconds: number }[] = [];
  try {
    let next = 0;
    const workers = Array.from(
      { length: Math.min(Math.floor(config.DATABASE_POOL_MAX / 2), projections.length) },
      async () => {
        for (let index = next++; index < projections.length; index = next++)
          results[index] = await rebuild(projections[index]!);
      },
    );
    await Promise.all(workers);
  } finally {
    await pool.end();
  }
  return results;
}

if (import.meta.main) {
  for (const { projection, events, seconds } of await rebuildAll()) {
    process.stdout.write(`rebuilt ${projection} from ${events} events in ${seconds} s\n`);
  }
}
