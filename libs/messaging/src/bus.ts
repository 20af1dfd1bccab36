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

/**
 * `NATS_URL` as the client takes it: servers (comma-separated) without credentials, and the user and
 * password (`nats://user:password@host:4222`) or token (`nats://token@host:4222`) of the first, as
 * other NATS clients read them. The client itself would send none of them.
 */
export function natsConnectOptions(url: string): { servers: string[]; user?: string; pass?: string; token?: string } {
  const servers = url.split(',').map((server) => server.trim());
  const first = new URL(servers[0]!.includes('://') ? servers[0]! : `nats://${servers[0]}`);
  const user = decodeURIComponent(first.username);
  const pass = decodeURIComponent(first.password);
  const bare = servers.map((server) => server.replace(/^([a-z]+:\/\/)?[^@/]*@/i, '$1'));
  if (!user) return { servers: bare };
  return pass ? { servers: bare, user, pass } : { servers: bare, token: user };
}

export async function connectBus(options: { url: string; namespace: string; name?: string }): Promise<Bus> {
  if (!namespacePattern.test(options.namespace)) throw new Error(`Invalid bus namespace: ${options.namespace}`);
  const nc = await connect({
    ...natsConnectOptions(options.url),
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
