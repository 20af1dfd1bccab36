import { createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import { PostgresEventStore } from '@shiplog/event-store/postgres';
import { newId } from '@shiplog/events';
import { createTestDatabase, type TestDatabase } from '@shiplog/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSealed, type SealedData, SealedEventStore, SHREDDED, Vault } from './index.ts';

const masterKey = 'vault-test-master-key-0123456789abcdef';

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
    vault = new Vault(pool, { masterKey });
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
    // Quoted: as the name would stand in clear JSON (four random base64 characters may spell it).
    expect(JSON.stringify(stored!.data)).not.toContain('"ada"');

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
    const fresh = () => new Vault(pool, { masterKey });
    const sealed = await Promise.all(Array.from({ length: 8 }, () => fresh().seal([login(userId)])));
    const opened = await vault.open(
      sealed.map(([e]) => e!),
      { fresh: true },
    );
    expect(opened.every((e) => e !== null)).toBe(true);
  });

  it('keeps every data key wrapped with the master key: the database alone opens nothing', async () => {
    const userId = newId();
    const [sealed] = await vault.seal([login(userId)]);
    const { rows } = await pool.query<{ key: Buffer }>('SELECT key FROM vault.subject_keys WHERE subject = $1', [
      userId,
    ]);
    expect(rows[0]!.key.length).toBe(61);
    // Neither what is stored, nor a vault with another master key, opens the event.
    const stored = createSecretKey(rows[0]!.key.subarray(13, 45));
    const data = sealed!.data as unknown as SealedData;
    const body = Buffer.from(data.data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', stored, Buffer.from(data.iv, 'base64'));
    decipher.setAAD(Buffer.from(`${sealed!.id}:${sealed!.type}`));
    decipher.setAuthTag(body.subarray(body.length - 16));
    expect(() => Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()])).toThrow();
    const stranger = new Vault(pool, { masterKey: 'another-master-key-0123456789abcdefgh' });
    await expect(stranger.open([sealed!], { fresh: true })).rejects.toThrow(/VAULT_KEY_SECRET is not the one/);
    expect((await new Vault(pool, { masterKey }).open([sealed!], { fresh: true }))[0]!.data).toMatchObject({ userId });
  });

  it('wraps a key stored bare (before wrapping), and still opens its events', async () => {
    const userId = newId();
    await pool.query('INSERT INTO vault.subject_keys (subject, key) VALUES ($1, $2)', [userId, randomBytes(32)]);
    const [sealed] = await new Vault(pool, { masterKey }).seal([login(userId)]);
    expect(await vault.rewrapKeys()).toBeGreaterThanOrEqual(1);
    expect(await vault.rewrapKeys()).toBe(0);
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vault.subject_keys WHERE length(key) <> 61',
    );
    expect(rows[0]!.n).toBe(0);
    expect((await new Vault(pool, { masterKey }).open([sealed!], { fresh: true }))[0]!.data).toMatchObject({ userId });
  });

  it('rotates the master key: the old one opens keys until they are wrapped anew, then is no longer needed', async () => {
    const userId = newId();
    const [sealed] = await vault.seal([login(userId)]);
    const next = 'the-next-master-key-0123456789abcdefghij';
    const rotating = new Vault(pool, { masterKey: next, previousMasterKeys: [masterKey] });
    expect((await rotating.open([sealed!], { fresh: true }))[0]!.data).toMatchObject({ userId });
    expect(await rotating.rewrapKeys()).toBeGreaterThanOrEqual(1);
    expect(await rotating.rewrapKeys()).toBe(0);
    const rotated = new Vault(pool, { masterKey: next });
    expect((await rotated.open([sealed!], { fresh: true }))[0]!.data).toMatchObject({ userId });
    await expect(new Vault(pool, { masterKey }).open([sealed!], { fresh: true })).rejects.toThrow(
      /VAULT_KEY_SECRET is not the one/,
    );
  });
});
