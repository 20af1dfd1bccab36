import { comparePositions, type EventMetadata, newId } from '@shiplog/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError, type EventStore, type EventToAppend, type RecordedEvent } from './index.ts';

/**
 * The one contract every event store adapter keeps. Each adapter's test file calls this with a factory
 * for a fresh, empty store.
 */
export function eventStoreContract(
  adapter: string,
  open: () => Promise<{ store: EventStore; dispose: () => Promise<void> }>,
  options: { run: boolean; reason?: string } = { run: true },
): void {
  const title = options.run
    ? `event store contract: ${adapter}`
    : `event store contract: ${adapter} (not run: ${options.reason})`;
  describe.skipIf(!options.run)(title, () => {
    let store: EventStore;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ store, dispose } = await open());
    });
    afterAll(async () => {
      await dispose?.();
    });

    const metadata = (): EventMetadata => ({
      userId: null,
      correlationId: newId(),
      causationId: null,
      schemaVersion: 1,
    });
    const events = (n: number, type = 'Happened'): EventToAppend[] =>
      Array.from({ length: n }, (_, i) => ({
        id: newId(),
        type,
        data: { n: i, text: `event ${i}` },
        metadata: metadata(),
      }));
    const stream = () => `thing-${newId()}`;

    it('appends to a new stream and reads it back in order with revisions from 0', async () => {
      const id = stream();
      const batch = events(3);
      const result = await store.append(id, batch, { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(2);
      const read = await store.readStream(id);
      expect(read.map((e) => [e.id, e.revision, e.type, e.data])).toEqual(
        batch.map((e, i) => [e.id, i, e.type, e.data]),
      );
      expect(read[0]!.metadata).toEqual(batch[0]!.metadata);
      expect(read[0]!.streamId).toBe(id);
      expect(read[0]!.occurredAt).toBeInstanceOf(Date);
      expect(comparePositions(read[2]!.position, result.position)).toBe(0);
    });

    it('deletes a stream, which can then be started anew', async () => {
      const id = stream();
      await store.append(id, events(2), { expectedRevision: 'no_stream' });
      await store.deleteStream(id);
      expect(await store.readStream(id)).toEqual([]);
      await store.deleteStream(id);
      const fresh = events(1);
      await store.append(id, fresh, { expectedRevision: 'no_stream' });
      expect((await store.readStream(id)).map((e) => e.id)).toEqual([fresh[0]!.id]);
    });

    it('reads a missing stream as empty, and from a revision', async () => {
      expect(await store.readStream(stream())).toEqual([]);
      const id = stream();
      await store.append(id, events(4), { expectedRevision: 'no_stream' });
      expect((await store.readStream(id, { fromRevision: 2 })).map((e) => e.revision)).toEqual([2, 3]);
    });

    it('refuses an append at the wrong expected revision with a 409 ConcurrencyError', async () => {
      const id = stream();
      await store.append(id, events(2), { expectedRevision: 'no_stream' });
      const error = await store.append(id, events(1), { expectedRevision: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ status: 409, code: 'CONCURRENCY_CONFLICT', actual: 1 });
      await expect(store.append(id, events(1), { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      await expect(store.append(stream(), events(1), { expectedRevision: 'stream_exists' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      const next = await store.append(id, events(1), { expectedRevision: 1 });
      expect(next.nextExpectedRevision).toBe(2);
      expect((await store.append(id, events(1), { expectedRevision: 'any' })).nextExpectedRevision).toBe(3);
      expect((await store.readStream(id)).length).toBe(4);
    });

    it('lets exactly one of two concurrent writers at the same revision win', async () => {
      const id = stream();
      await store.append(id, events(1), { expectedRevision: 'no_stream' });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => store.append(id, events(1), { expectedRevision: 0 })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ConcurrencyError);
      expect((await store.readStream(id)).length).toBe(2);
    });

    it('treats a retried append of the same event ids as a no-op with the same result', async () => {
      const id = stream();
      const batch = events(2);
      const first = await store.append(id, batch, { expectedRevision: 'no_stream' });
      const again = await store.append(id, batch, { expectedRevision: 'no_stream' });
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect((await store.readStream(id)).length).toBe(2);
      // Stored ids under another expectation are a conflict, not a silent second copy.
      await expect(store.append(stream(), [batch[0]!], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
    });

    it('reads all events in global order, strictly after a position', async () => {
      const a = stream();
      const b = stream();
      const first = await store.append(a, events(2), { expectedRevision: 'no_stream' });
      await store.append(b, events(1), { expectedRevision: 'no_stream' });
      await store.append(a, events(1), { expectedRevision: 1 });
      const all = await readAllPages(store, first.position);
      const mine = all.filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => [e.streamId, e.revision])).toEqual([
        [b, 0],
        [a, 2],
      ]);
      for (let i = 1; i < all.length; i++) expect(comparePositions(all[i - 1]!.position, all[i]!.position)).toBe(-1);
    });

    it('subscribes to all events from a position: stored ones first, then live ones', async () => {
      const id = stream();
      const start = await store.append(id, events(1), { expectedRevision: 'no_stream' });
      await store.append(id, events(2), { expectedRevision: 0 });
      const controller = new AbortController();
      const seen: RecordedEvent[] = [];
      const done = (async () => {
        for await (const event of store.subscribeToAll({ after: start.position, signal: controller.signal })) {
          if (event.streamId === id) seen.push(event);
          if (seen.length === 4) controller.abort();
        }
      })();
      await store.append(id, events(2), { expectedRevision: 2 });
      await done;
      expect(seen.map((e) => e.revision)).toEqual([1, 2, 3, 4]);
    }, 10_000);
  });
}

async function readAllPages(store: EventStore, after: RecordedEvent['position']): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let position = after;
  for (;;) {
    const page = await store.readAll({ after: position, limit: 100 });
    out.push(...page);
    if (page.length < 100) return out;
    position = page.at(-1)!.position;
  }
}
