import {
  DiscardPolicy,
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
 * How much of the bus JetStream keeps, and on how many servers. Every event is in its owner's event
 * store for good; the bus carries it to the consumers, so it needs to keep only what a consumer that
 * was down might not have read yet (a consumer down longer than `maxAgeMs` is caught up by
 * `pnpm bus:republish`). The oldest events go first once either bound is reached.
 */
export interface BusRetention {
  maxAgeMs: number;
  maxBytes: number;
  /** Servers holding each event (1, or 3 on a three-node NATS cluster: docs/scaling.md). */
  replicas: number;
}

/** Two weeks, and 4 GiB, on one server. */
export const defaultRetention: BusRetention = { maxAgeMs: 14 * 86_400_000, maxBytes: 4 * 1024 ** 3, replicas: 1 };

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

/**
 * Connects, and makes the namespace's stream when there is none. `retention` is the operator's
 * configuration (the services and the gateway pass it): an existing stream that differs is updated to
 * it at start, so a change of age, size or replicas takes effect; a tool that passes none leaves it.
 */
export async function connectBus(options: {
  url: string;
  namespace: string;
  name?: string;
  retention?: BusRetention;
}): Promise<Bus> {
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
  const retention = options.retention ?? defaultRetention;
  const limits = {
    max_age: nanos(retention.maxAgeMs),
    max_bytes: retention.maxBytes,
    num_replicas: retention.replicas,
    discard: DiscardPolicy.Old,
  };
  const config = {
    name: stream,
    subjects: [`${options.namespace}.>`],
    storage: StorageType.File,
    // Publishes repeated within this window (a relay restarted after publishing, before saving its
    // checkpoint) are dropped by Nats-Msg-Id. Consumers dedupe beyond it by event id.
    duplicate_window: nanos(10 * 60 * 1000),
    ...limits,
  };
  const existing = await jsm.streams.info(stream).catch(() => null);
  if (!existing) {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      // Another process created it between our lookup and add.
      await jsm.streams.info(stream).catch(() => {
        throw error;
      });
    });
  } else if (
    options.retention &&
    (existing.config.max_age !== limits.max_age ||
      existing.config.max_bytes !== limits.max_bytes ||
      existing.config.num_replicas !== limits.num_replicas)
  ) {
    await jsm.streams.update(stream, { ...existing.config, ...limits });
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
