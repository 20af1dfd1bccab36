import {
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';

/**
 * The event bus: one JetStream stream per namespace (`<NAMESPACE>_EVENTS`) holding every published
 * domain event under `<namespace>.<owning service>.<EventType>`. Tests use a namespace of their own.
 */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  namespace: string;
  stream: string;
  subject(source: string, type: string): string;
  close(): Promise<void>;
}

const namespacePattern = /^[a-z][a-z0-9_]{0,60}$/;

export async function connectBus(options: { url: string; namespace: string; name?: string }): Promise<Bus> {
  if (!namespacePattern.test(options.namespace)) throw new Error(`Invalid bus namespace: ${options.namespace}`);
  const nc = await connect({
    servers: options.url,
    name: options.name,
    maxReconnectAttempts: -1,
    // Otherwise every request (each JetStream publish) builds two Error objects up front, stack traces
    // and all, in case it fails: ~60 µs of the relay's CPU per event. Errors still say what failed.
    noAsyncTraces: true,
  });
  const jsm = await jetstreamManager(nc);
  const stream = `${options.namespace.toUpperCase()}_EVENTS`;
  const config = {
    name: stream,
    subjects: [`${options.namespace}.>`],
    storage: StorageType.File,
    // Publishes repeated within this window (a relay restarted after publishing, before saving its
    // checkpoint) are dropped by Nats-Msg-Id. Consumers dedupe beyond it by event id.
    duplicate_window: nanos(10 * 60 * 1000),
  };
  try {
    await jsm.streams.info(stream);
  } catch {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      // Another process created it between our lookup and add.
      await jsm.streams.info(stream).catch(() => {
        throw error;
      });
    });
  }
  return {
    nc,
    js: jetstream(nc),
    jsm,
    namespace: options.namespace,
    stream,
    subject: (source, type) => `${options.namespace}.${source}.${type}`,
    close: () => nc.drain(),
  };
}
