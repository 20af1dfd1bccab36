import { PostgresEventStore } from '@shiplog/event-store/postgres';
import { newId } from '@shiplog/events';
import { createTestDatabase, type TestDatabase } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSealed, SealedEventStore, SHREDDED, Vault } from './index.ts';

describe('vault (crypto-shredding)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let vault: Vault;
  let raw: PostgresEventStore;
  let store: SealedEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('vault');
    pool = new pg.Pool({ connectionString: db.url, max: 6 });
    pool.on('error', () => {});
    await Vault.migrate(pool);
    await Vault.migrate(pool);
    vault = new Vault(pool);
    raw = new PostgresEventStore(pool, 'things');
    await raw.migrate();
    store = new SealedEventStore(raw, vault);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const metadata = { userId: null, correlationId: newId(), causationId: null, schemaVersion: 1 };
  const login = (userId: string) => ({
    id: newId(),
    type: 'UserLoggedIn',
    data: { userId, at: new Date().toISOString() },
    metadata,
  });

  it("stores a user's events sealed, and reads them back opened", async () => {
    const userId = newId();
    const event = {
      id: newId(),
      type: 'ContactMessageSent',
      data: {
        messageId: newId(),
        userId,
        username: 'ada',
        subject: 'Hello',
        message: 'A secret',
        at: '2026-01-01T00:00:00Z',
      },
      metadata,
    };
    await store.append(`contact-${event.data.messageId}`, [event], { expectedRevision: 'no_stream' });

    const [stored] = await raw.readStream(`contact-${event.data.messageId}`);
    expect(isSealed(stored!.data)).toBe(true);
    expect(JSON.stringify(stored!.data)).not.toContain('A secret');
    expect(JSON.stringify(stored!.data)).not.toContain('ada');

    const [read] = await store.readStream(`contact-${event.data.messageId}`);
    expect(read!.data).toEqual(event.data);
  });

  it('leaves events without personal data as they are', async () => {
    const event = {
      id: newId(),
      type: 'UserDeleted',
      data: { userId: newId(), deletedBy: newId(), at: new Date().toISOString() },
      metadata,
    };
    const [sealed] = await vault.seal([event]);
    expect(sealed).toBe(event);
  });

  it('shreds every event of a forgotten user, and never makes them a new key', async () => {
    const ada = newId();
    const bob = newId();
    const stream = `user-${ada}`;
    await store.append(stream, [login(ada), login(ada)], { expectedRevision: 'no_stream' });
    await store.append(`user-${bob}`, [login(bob)], { expectedRevision: 'no_stream' });
    const carried = [...(await raw.readStream(stream)), ...(await raw.readStream(`user-${bob}`))];

    await vault.forget(ada);
    await vault.forget(ada);

    // A consumer reads keys fresh in its transaction: the forgotten user's events come back null.
    const opened = await vault.open(carried, { fresh: true });
    expect(opened.map((e) => (e ? (e.data as { userId: string }).userId : null))).toEqual([null, null, bob]);
    expect((await store.readStream(stream)).map((e) => e.data)).toEqual([SHREDDED, SHREDDED]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM vault.subject_keys WHERE subject = $1', [ada]);
    expect(rows[0].n).toBe(0);

    await expect(store.append(stream, [login(ada)], { expectedRevision: 1 })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses data that was tampered with or moved to another event', async () => {
    const userId = newId();
    const [sealed] = await vault.seal([{ ...login(userId) }]);
    await expect(vault.open([{ ...sealed!, id: newId() }], { fresh: true })).rejects.toThrow();
  });

  it('gives one key to concurrent first writers', async () => {
    const userId = newId();
    const fresh = () => new Vault(pool);
    const sealed = await Promise.all(Array.from({ length: 8 }, () => fresh().seal([login(userId)])));
    const opened = await vault.open(
      sealed.map(([e]) => e!),
      { fresh: true },
    );
    expect(opened.every((e) => e !== null)).toBe(true);
  });
});
