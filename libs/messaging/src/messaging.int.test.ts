import { AckPolicy, DeliverPolicy, DiscardPolicy } from '@nats-io/jetstream';
import { headers, nanos } from '@nats-io/nats-core';
import { PostgresEventStore } from '@shiplog/event-store/postgres';
import { newId } from '@shiplog/events';
import {
  createTestBusNamespace,
  createTestDatabase,
  natsUrl,
  type TestBusNamespace,
  type TestDatabase,
  waitUntil,
} from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handler, pipelined } from './batch.ts';
import { type Bus, connectBus, defaultRetention } from './bus.ts';
import { type ConsumerOptions, startConsumer } from './consumer.ts';
import { migrateMessagingTables } from './consumer-tables.ts';
import { type BusEvent, publishedEvents, toBusEvent } from './envelope.ts';
import type { Logger } from './logger.ts';
import { parkedEvents, replayParked } from './parking.ts';
import { rebuildProjection } from './rebuild.ts';
import { startRelay } from './relay.ts';

const errors: unknown[] = [];
const logger: Logger = { info: () => {}, warn: () => {}, error: (object) => errors.push(object) };

let db: TestDatabase;
let ns: TestBusNamespace;
let pool: pg.Pool;
let bus: Bus;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase('messaging');
  ns = createTestBusNamespace('messaging');
  pool = new pg.Pool({ ...pipelined, connectionString: db.url, max: 10 });
  pool.on('error', () => {});
  bus = await connectBus({ url: natsUrl, namespace: ns.namespace });
  store = new PostgresEventStore(pool, 'relayed', { pollIntervalMs: 20 });
  await store.migrate();
  await migrateMessagingTables(pool, 'relayed');
});

afterAll(async () => {
  await bus?.close();
  await ns?.drop();
  await pool?.end();
  await db?.drop();
});

const meta = () => ({ userId: null, correlationId: newId(), causationId: null, schemaVersion: 1 });
const registered = (username: string) => ({
  id: newId(),
  type: 'UserRegistered',
  data: { userId: newId(), username, email: null, registeredAt: new Date().toISOString() },
  metadata: meta(),
});

async function readSubjectMessages(subject: string): Promise<BusEvent[]> {
  // Read the stream by sequence: NATS 2.9 has no multi-filter ordered consumers.
  const { state } = await bus.jsm.streams.info(bus.stream);
  const out: BusEvent[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const message = await bus.jsm.streams.getMessage(bus.stream, { seq }).catch(() => null);
    if (message?.subject === subject) out.push(message.json<BusEvent>());
  }
  return out;
}

describe('the stream', () => {
  it('keeps at most two weeks and 4 GiB by default, and takes the configured bounds and replicas at start', async () => {
    const own = createTestBusNamespace('retention');
    try {
      const first = await connectBus({ url: natsUrl, namespace: own.namespace });
      const made = (await first.jsm.streams.info(first.stream)).config;
      expect(made).toMatchObject({
        max_age: nanos(defaultRetention.maxAgeMs),
        max_bytes: defaultRetention.maxBytes,
        num_replicas: 1,
        discard: DiscardPolicy.Old,
      });
      await first.close();
      // The operator's change reaches the stream that is already there.
      const retention = { maxAgeMs: 30 * 86_400_000, maxBytes: 256 * 1024 ** 2, replicas: 1 };
      const changed = await connectBus({ url: natsUrl, namespace: own.namespace, retention });
      expect((await changed.jsm.streams.info(changed.stream)).config).toMatchObject({
        max_age: nanos(retention.maxAgeMs),
        max_bytes: retention.maxBytes,
      });
      await changed.close();
      // A tool that says nothing of retention leaves it as configured.
      const tool = await connectBus({ url: natsUrl, namespace: own.namespace });
      expect((await tool.jsm.streams.info(tool.stream)).config.max_bytes).toBe(retention.maxBytes);
      await tool.close();
    } finally {
      await own.drop();
    }
  });
});

describe('relay', () => {
  it('publishes stored events in order, keeps unpublished ones home, and resumes after a restart without loss', async () => {
    const stream = `user-${newId()}`;
    const first = [registered('ada'), registered('grace')];
    await store.append(stream, first, { expectedRevision: 'no_stream' });
    // A password hash must never reach the bus.
    await store.append(
      stream,
      [{ id: newId(), type: 'PasswordSet', data: { userId: newId(), passwordHash: 'secret' }, metadata: meta() }],
      {
        expectedRevision: 1,
      },
    );
    const relay = await startRelay({ store, bus, pool, schema: 'relayed', source: 'identity', logger });
    const subject = bus.subject('identity', 'UserRegistered');
    await waitUntil(async () => (await readSubjectMessages(subject)).length === 2, 5000, 'first events on the bus');
    await relay.stop();

    // Written while the relay is down.
    const second = [registered('linus'), registered('barbara')];
    await store.append(stream, second, { expectedRevision: 2 });
    const restarted = await startRelay({ store, bus, pool, schema: 'relayed', source: 'identity', logger });
    await waitUntil(async () => (await readSubjectMessages(subject)).length === 4, 5000, 'events written while down');
    await restarted.stop();

    const onBus = await readSubjectMessages(subject);
    expect(onBus.map((e) => e.id)).toEqual([...first, ...second].map((e) => e.id));
    expect(onBus.map((e) => e.revision)).toEqual([0, 1, 3, 4]);
    expect(onBus[0]).toMatchObject({ source: 'identity', streamId: stream, type: 'UserRegistered' });
    expect(await readSubjectMessages(bus.subject('identity', 'PasswordSet'))).toEqual([]);
  });

  it('drops a duplicate publish: a relay replaying from an old checkpoint adds nothing to the stream', async () => {
    const before = (await bus.jsm.streams.info(bus.stream)).state.messages;
    await pool.query('DELETE FROM relayed.relay_checkpoint');
    const replay = await startRelay({ store, bus, pool, schema: 'relayed', source: 'identity', logger });
    await waitUntil(
      async () => {
        const { rows } = await pool.query('SELECT 1 FROM relayed.relay_checkpoint');
        const last = (await store.readAll({ limit: 10_000 })).at(-1)!;
        const saved = await pool.query('SELECT prepare_position FROM relayed.relay_checkpoint');
        return rows.length === 1 && BigInt(saved.rows[0].prepare_position) === last.position.prepare;
      },
      5000,
      'replay to finish',
    );
    await replay.stop();
    expect((await bus.jsm.streams.info(bus.stream)).state.messages).toBe(before);
  });
});

describe('consumer', () => {
  beforeAll(async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS relayed.greetings (event_id uuid, username text)');
  });

  const greet = async (event: BusEvent, tx: pg.PoolClient) => {
    const data = event.data as { username: string };
    await tx.query('INSERT INTO relayed.greetings (event_id, username) VALUES ($1, $2)', [event.id, data.username]);
  };

  /** A consumer of identity's events in the test schema, with these handlers (and options). */
  const consume = (name: string, handlers: Record<string, Handler>, options: Partial<ConsumerOptions> = {}) =>
    startConsumer({ bus, pool, schema: 'relayed', name, sources: ['identity'], handlers, logger, ...options });

  /** The event with this id as the relay would carry it: read back from the store, with its position. */
  const carried = async (id: string) =>
    toBusEvent((await store.readAll({ limit: 10_000 })).find((e) => e.id === id)!, 'identity');

  async function publishCopy(event: BusEvent) {
    // A fresh msgID bypasses the stream's dedupe: the consumer itself must absorb the second copy.
    const h = headers();
    return bus.js.publish(bus.subject('identity', event.type), JSON.stringify(event), { msgID: newId(), headers: h });
  }

  it('gives a redelivered event one effect', async () => {
    const consumer = await consume('greeter-twice', { UserRegistered: greet });
    const [recorded] = await store.readStream(`user-${newId()}`);
    expect(recorded).toBeUndefined();
    const appended = registered('twice');
    const result = await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
    const event = await carried(appended.id);
    await publishCopy(event);
    const second = await publishCopy(event);
    expect(await consumer.waitForPosition('identity', result.position, 5000)).toBe(true);
    expect(consumer.hasReached('identity', result.position)).toBe(true);
    expect(consumer.hasReached('identity', { commit: result.position.commit + 1n, prepare: 0n })).toBe(false);
    expect(consumer.hasReached('billing', result.position)).toBe(false);
    // Both copies handled and acknowledged, not just the first.
    await waitUntil(
      async () => (await bus.jsm.consumers.info(bus.stream, 'greeter-twice')).ack_floor.stream_seq >= second.seq,
      5000,
      'both copies',
    );
    const { rows } = await pool.query('SELECT * FROM relayed.greetings WHERE event_id = $1', [appended.id]);
    expect(rows).toHaveLength(1);
    await consumer.stop();
  });

  it('logs events handled late, with where the time went, once in a while', async () => {
    const warnings: { object: Record<string, unknown>; message?: string }[] = [];
    const watched: Logger = {
      ...logger,
      warn: (object, message) => warnings.push({ object: object as never, message }),
    };
    const consumer = await consume('greeter-late', { UserRegistered: greet }, { logger: watched });
    const onTime = registered('on-time');
    const late = registered('late');
    const later = registered('later');
    const positions = [];
    for (const appended of [onTime, late, later]) {
      const { position } = await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
      positions.push(position);
    }
    // As a relay held back by an appender's long transaction would publish them: 5 s after they were stored.
    const stored = Date.now() - 5000;
    await publishCopy(await carried(onTime.id));
    expect(await consumer.waitForPosition('identity', positions[0]!, 5000)).toBe(true);
    expect(warnings).toEqual([]);
    for (const [i, appended] of [late, later].entries()) {
      await publishCopy({ ...(await carried(appended.id)), occurredAt: new Date(stored).toISOString() });
      expect(await consumer.waitForPosition('identity', positions[i + 1]!, 5000)).toBe(true);
    }
    // One line for the two: the second came within ten seconds of the first.
    expect(warnings).toHaveLength(1);
    const [{ object, message }] = warnings as [(typeof warnings)[0]];
    expect(message).toBe('events handled late');
    expect(object).toMatchObject({ consumer: 'greeter-late', event: `UserRegistered ${late.id}`, source: 'identity' });
    const { lateMs, toBusMs, toHereMs, hereMs } = object as {
      [part in 'lateMs' | 'toBusMs' | 'toHereMs' | 'hereMs']: number;
    };
    expect(lateMs).toBeGreaterThanOrEqual(5000);
    expect(toBusMs).toBeGreaterThanOrEqual(4900);
    expect(toBusMs + toHereMs + hereMs).toBe(lateMs);
    await consumer.stop();
  });

  it('has one effect when the consumer dies after its write committed but before the ack', async () => {
    const appended = registered('crashy');
    await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
    const event = await carried(appended.id);
    let crashed = false;
    const dying = await consume(
      'greeter-crash',
      { UserRegistered: greet },
      {
        ackWaitMs: 1000,
        beforeAck: async (e) => {
          if (e.id === appended.id && !crashed) {
            crashed = true;
            // The process dies here: the write is committed, the ack never sent.
            await dying.stop();
          }
        },
      },
    );
    await publishCopy(event);
    await waitUntil(() => crashed, 5000, 'the crash');
    const afterCrash = await pool.query('SELECT * FROM relayed.greetings WHERE event_id = $1', [appended.id]);
    expect(afterCrash.rows).toHaveLength(1);

    const revived = await consume('greeter-crash', { UserRegistered: greet }, { ackWaitMs: 1000 });
    // The revived consumer resumes from the durable's ack floor (the durable is made again, so for a
    // moment there is none) and acks the event without a second effect.
    await waitUntil(
      async () => {
        const info = await bus.jsm.consumers.info(bus.stream, 'greeter-crash').catch(() => null);
        return info !== null && info.num_ack_pending === 0 && info.num_pending === 0;
      },
      10_000,
      'redelivery to be acked',
    );
    const { rows } = await pool.query('SELECT * FROM relayed.greetings WHERE event_id = $1', [appended.id]);
    expect(rows).toHaveLength(1);
    await revived.stop();
  });

  it('handles in stream order what a dead process was handed but never acknowledged, before what came after', async () => {
    const name = 'greeter-orphaned';
    const handled: string[] = [];
    const record: Handler = async (event) => {
      handled.push((event.data as { username: string }).username);
    };
    // The durable exists, as a service makes it, and has handled what the stream already holds; then a
    // process pulls the next event and dies before its ack.
    await bus.jsm.consumers.add(bus.stream, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${bus.namespace}.identity.>`,
      ack_wait: nanos(30_000),
      max_deliver: -1,
    });
    const durable = await bus.js.consumers.get(bus.stream, name);
    for (let m = await durable.next({ expires: 1000 }); m; m = await durable.next({ expires: 1000 })) await m.ackAck();
    const first = registered('first');
    await store.append(`user-${newId()}`, [first], { expectedRevision: 'no_stream' });
    await publishCopy(await carried(first.id));
    const orphaned = await durable.next({ expires: 5000 });
    expect(orphaned?.json<BusEvent>().id).toBe(first.id);
    // Then another event, and the service comes back: the first must not wait out its ack wait (30 s)
    // behind the second.
    const second = registered('second');
    await store.append(`user-${newId()}`, [second], { expectedRevision: 'no_stream' });
    await publishCopy(await carried(second.id));
    const revived = await consume(name, { UserRegistered: record });
    await waitUntil(() => handled.length >= 2, 5000, 'both events');
    expect(handled).toEqual(['first', 'second']);
    await revived.stop();
  });

  it('records no position past an event another process pulling its durable took, and handles it in order once that one stops', async () => {
    // A replica that has lost leadership and not yet heard of it goes on pulling the durable (decision 059).
    const name = 'greeter-contested';
    const handled: string[] = [];
    const published: string[] = [];
    // The durable as a service makes it, from the events to come: none of the stream's earlier ones
    // reaches either pull.
    await bus.jsm.consumers.add(bus.stream, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: `${bus.namespace}.identity.>`,
      max_ack_pending: 1024,
      ack_wait: nanos(30_000),
      max_deliver: -1,
    });
    const leader = await consume(name, {
      UserRegistered: async (event) => {
        handled.push((event.data as { username: string }).username);
      },
    });
    const stale = await (await bus.js.consumers.get(bus.stream, name)).consume({ max_messages: 8 });
    try {
      const taken: string[] = [];
      void (async () => {
        // Takes and never handles nor acknowledges.
        for await (const message of stale) taken.push((message.json<BusEvent>().data as { username: string }).username);
      })().catch(() => undefined);
      const publish = async () => {
        const appended = registered(`contested-${published.length}`);
        await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
        published.push(appended.data.username);
        await publishCopy(await carried(appended.id));
      };
      const delivered = () => waitUntil(() => handled.length + taken.length >= published.length, 5000, 'a delivery');
      // The server shares the deliveries between the two pulls: until the stale one has taken some.
      for (let i = 0; i < 100 && taken.length === 0; i++) {
        await publish();
        await delivered();
      }
      expect(taken.length).toBeGreaterThan(0);
      await publish();
      await delivered();
      // Nothing after what the stale pull took is handled while it holds it.
      expect(published.slice(0, handled.length)).toEqual(handled);
      await stale.close();
      await publish();
      await waitUntil(() => handled.length >= published.length, 10_000, 'every event');
      expect(handled).toEqual(published);
    } finally {
      // Closed already when the test got that far.
      await Promise.resolve(stale.close()).catch(() => undefined);
      await leader.stop();
    }
  });

  it('runs deferred writes in order with the batch commit, and retries the whole batch when one fails', async () => {
    // Names that would break SQL text built from them: values travel as parameters.
    const names = ["o'brien", 'back\\slash', "'); DROP TABLE relayed.greetings; --", 'émile'];
    const events = names.map((name) => ({ ...registered(name), source: 'identity' }));
    let failed = 0;
    const consumer = await consume('greeter-deferred', {
      UserRegistered: async (event, tx, batch) => {
        const { defer } = batch;
        const name = (event.data as { username: string }).username;
        if (!names.includes(name)) return;
        expect(batch.events.map((e) => e.id)).toContain(event.id);
        defer('INSERT INTO relayed.greetings (event_id, username) VALUES ($1, $2)', [event.id, name]);
        // Queued after the insert, so it runs after it.
        defer(`UPDATE relayed.greetings SET username = username || '!' WHERE event_id = $1`, [event.id]);
        // flush runs them now, so that this reaction (or a later one) can read them.
        await batch.flush();
        const flushed = await tx.query('SELECT username FROM relayed.greetings WHERE event_id = $1', [event.id]);
        expect(flushed.rows).toEqual([{ username: `${name}!` }]);
        // Fails on the first attempt: the batch's writes and handled records roll back together.
        const { rows } = await tx.query("SELECT to_regclass('relayed.deferred_late') IS NOT NULL AS ready");
        if (!rows[0].ready) failed += 1;
        defer('INSERT INTO relayed.deferred_late (username) VALUES ($1)', [name]);
      },
    });
    const stored = [];
    for (const event of events) {
      const result = await store.append(`user-${newId()}`, [event], { expectedRevision: 'no_stream' });
      stored.push({ event, position: result.position });
    }
    for (const { event } of stored) await publishCopy(await carried(event.id));
    await waitUntil(() => failed > 0, 5000, 'the first attempt to fail');
    const during = await pool.query('SELECT 1 FROM relayed.greetings WHERE event_id = ANY($1::uuid[])', [
      events.map((e) => e.id),
    ]);
    expect(during.rows).toHaveLength(0);
    await pool.query('CREATE TABLE relayed.deferred_late (username text)');
    // Retried in place, within a second: not after the ack wait (30 s) a nak to a closed pull would take.
    expect(await consumer.waitForPosition('identity', stored.at(-1)!.position, 5000)).toBe(true);
    expect(errors.some((e) => String((e as { err: unknown }).err).includes('deferred_late'))).toBe(true);
    const { rows } = await pool.query<{ username: string }>(
      'SELECT username FROM relayed.greetings WHERE event_id = ANY($1::uuid[]) ORDER BY username',
      [events.map((e) => e.id)],
    );
    expect(rows.map((r) => r.username)).toEqual(names.map((n) => `${n}!`).sort());
    const late = await pool.query<{ username: string }>('SELECT username FROM relayed.deferred_late ORDER BY username');
    expect(late.rows.map((r) => r.username)).toEqual([...names].sort());
    await consumer.stop();
  });

  it('makes text PostgreSQL cannot store storable, so an old event cannot stop the consumer', async () => {
    const appended = registered('plain');
    const result = await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
    const stored = await carried(appended.id);
    // As an event sealed before the services refused such text would arrive, once opened.
    await publishCopy({ ...stored, data: { ...(stored.data as object), username: 'nul\u0000 and half \ud800' } });
    const consumer = await consume('greeter-unstorable', { UserRegistered: greet });
    expect(await consumer.waitForPosition('identity', result.position, 5000)).toBe(true);
    const { rows } = await pool.query('SELECT username FROM relayed.greetings WHERE event_id = $1', [appended.id]);
    expect(rows).toEqual([{ username: 'nul and half \ufffd' }]);
    await consumer.stop();
  });

  it('parks an event whose reaction keeps failing for a lasting reason; the events behind it go on', async () => {
    // A read model that cannot hold one event's data: PostgreSQL refuses it (22001) on every attempt.
    await pool.query('CREATE TABLE relayed.short_names (event_id uuid PRIMARY KEY, username varchar(40))');
    const events = [registered('before'), registered(`poison-${'x'.repeat(60)}`), registered('after')];
    const mine = new Set(events.map((e) => e.id));
    const remember = async (event: BusEvent, tx: pg.PoolClient) => {
      if (!mine.has(event.id)) return;
      const { username } = event.data as { username: string };
      await tx.query('INSERT INTO relayed.short_names (event_id, username) VALUES ($1, $2)', [event.id, username]);
    };
    const consumer = await consume('greeter-parking', { UserRegistered: remember }, { attemptsBeforeParking: 2 });
    const positions = [];
    for (const event of events) {
      positions.push((await store.append(`user-${newId()}`, [event], { expectedRevision: 'no_stream' })).position);
    }
    const copies = await Promise.all(events.map((e) => carried(e.id)));
    // Published together, so they arrive in one batch: the batch is split, and only the poison is set aside.
    await Promise.all(copies.map(publishCopy));

    expect(await consumer.waitForPosition('identity', positions[2]!, 10_000)).toBe(true);
    const rows = async () =>
      (await pool.query('SELECT event_id FROM relayed.short_names ORDER BY username')).rows.map((r) => r.event_id);
    expect(await rows()).toEqual([events[2]!.id, events[0]!.id]);
    const parked = await pool.query('SELECT * FROM relayed.parked_events WHERE consumer = $1', ['greeter-parking']);
    expect(parked.rows).toHaveLength(1);
    expect(parked.rows[0]).toMatchObject({
      event_id: events[1]!.id,
      event_type: 'UserRegistered',
      source: 'identity',
      position: `${positions[1]!.commit}/${positions[1]!.prepare}`,
      event: { id: events[1]!.id, type: 'UserRegistered' },
    });
    expect(parked.rows[0].error).toMatch(/value too long/);
    expect(await parkedEvents(pool, 'relayed')).toEqual([
      expect.objectContaining({ consumer: 'greeter-parking', eventId: events[1]!.id, eventType: 'UserRegistered' }),
    ]);
    expect(errors.some((e) => (e as { event?: string }).event === `UserRegistered ${events[1]!.id}`)).toBe(true);
    // Everything acknowledged: nothing waits to be redelivered.
    await waitUntil(
      async () => (await bus.jsm.consumers.info(bus.stream, 'greeter-parking')).num_ack_pending === 0,
      5000,
      'every message acked',
    );

    const rebuild = () =>
      rebuildProjection({
        pool,
        schema: 'relayed',
        consumer: 'greeter-parking',
        tables: ['short_names'],
        handlers: { UserRegistered: remember },
        sources: { identity: () => publishedEvents(store, 'identity') },
      });
    const parkedIds = async () =>
      (await pool.query('SELECT event_id FROM relayed.parked_events WHERE consumer = $1', ['greeter-parking'])).rows;
    // A rebuild replays everything, the parked event included: still refused, it is parked again, and
    // the rest of the read model is rebuilt around it.
    await rebuild();
    expect(await rows()).toEqual([events[2]!.id, events[0]!.id]);
    expect(await parkedIds()).toEqual([{ event_id: events[1]!.id }]);

    // After a fix, replaying sends it back to the live consumer, which applies it: nothing stays parked.
    await pool.query('ALTER TABLE relayed.short_names ALTER COLUMN username TYPE text');
    expect(await replayParked({ pool, bus, schema: 'relayed', consumer: 'greeter-parking' })).toBe(1);
    await waitUntil(async () => (await rows()).length === 3, 10_000, 'the replayed event to be applied');
    expect(await rows()).toEqual([events[2]!.id, events[0]!.id, events[1]!.id]);
    expect(await parkedIds()).toEqual([]);
    expect(await replayParked({ pool, bus, schema: 'relayed' })).toBe(0);
    await consumer.stop();

    // A rebuild now applies all three, and parks nothing.
    await rebuild();
    expect(await rows()).toEqual([events[2]!.id, events[0]!.id, events[1]!.id]);
    expect((await pool.query('SELECT 1 FROM relayed.parked_events')).rows).toEqual([]);
  });

  it('drops a message that holds no event, and goes on with the events behind it', async () => {
    const appended = registered('after-junk');
    const result = await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
    const subject = bus.subject('identity', 'UserRegistered');
    await bus.js.publish(subject, 'not json at all', { msgID: newId() });
    await bus.js.publish(subject, JSON.stringify({ id: 'not-a-uuid', type: 'UserRegistered' }), { msgID: newId() });
    await publishCopy(await carried(appended.id));
    const consumer = await consume('greeter-junk', { UserRegistered: greet });
    expect(await consumer.waitForPosition('identity', result.position, 5000)).toBe(true);
    const { rows } = await pool.query('SELECT username FROM relayed.greetings WHERE event_id = $1', [appended.id]);
    expect(rows).toEqual([{ username: 'after-junk' }]);
    expect(errors.filter((e) => (e as { consumer?: string }).consumer === 'greeter-junk').length).toBe(2);
    await consumer.stop();
  });

  it('does not park an event over a passing failure: it waits, in order, until it succeeds', async () => {
    await pool.query('CREATE TABLE relayed.contended (event_id uuid PRIMARY KEY)');
    const appended = registered('patient');
    const consumer = await consume(
      'greeter-patient',
      {
        UserRegistered: async (event, tx) => {
          if (event.id !== appended.id) return;
          // Fails (55P03, lock not available) while another transaction holds the table.
          await tx.query('LOCK TABLE relayed.contended IN ROW EXCLUSIVE MODE NOWAIT');
          await tx.query('INSERT INTO relayed.contended (event_id) VALUES ($1)', [event.id]);
        },
      },
      { attemptsBeforeParking: 2 },
    );
    const holder = await pool.connect();
    await holder.query('BEGIN; LOCK TABLE relayed.contended IN EXCLUSIVE MODE');
    const result = await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
    await publishCopy(await carried(appended.id));
    const failures = () =>
      errors.filter(
        (e) =>
          (e as { consumer?: string }).consumer === 'greeter-patient' &&
          (e as { err?: { code?: string } }).err?.code === '55P03',
      ).length;
    await waitUntil(() => failures() >= 4, 10_000, 'several failed attempts');
    expect(consumer.hasReached('identity', result.position)).toBe(false);
    await holder.query('COMMIT');
    holder.release();
    expect(await consumer.waitForPosition('identity', result.position, 10_000)).toBe(true);
    expect((await pool.query('SELECT event_id FROM relayed.contended')).rows).toEqual([{ event_id: appended.id }]);
    const parked = await pool.query('SELECT 1 FROM relayed.parked_events WHERE consumer = $1', ['greeter-patient']);
    expect(parked.rows).toEqual([]);
    await consumer.stop();
  });

  it('acks the events of a source it does not read, without recording anything for them', async () => {
    // Two sources: the consumer's subject is the whole bus, so a chat event reaches it too.
    const consumer = await consume(
      'greeter-two-sources',
      { UserRegistered: greet },
      { sources: ['identity', 'billing'] },
    );
    const publishAs = async (source: string, appended: ReturnType<typeof registered>) => {
      await store.append(`user-${newId()}`, [appended], { expectedRevision: 'no_stream' });
      const event = { ...(await carried(appended.id)), source };
      return bus.js.publish(bus.subject(source, event.type), JSON.stringify(event), { msgID: newId() });
    };
    await publishAs('chat', { ...registered('foreign'), type: 'ChatMessageCounted' });
    const last = await publishAs('identity', registered('mine'));
    await waitUntil(
      async () => (await bus.jsm.consumers.info(bus.stream, 'greeter-two-sources')).ack_floor.stream_seq >= last.seq,
      5000,
      'both acked',
    );
    const { rows } = await pool.query('SELECT source FROM relayed.consumer_positions WHERE consumer = $1', [
      'greeter-two-sources',
    ]);
    expect(rows.map((r) => r.source)).toEqual(['identity']);
    await consumer.stop();
  });

  it('waits for a position it has not reached yet, and gives up after the timeout', async () => {
    const consumer = await consume('greeter-wait', {});
    expect(await consumer.waitForPosition('identity', { commit: 2n ** 62n, prepare: 1n }, 50)).toBe(false);
    await consumer.stop();
  });
});
