import type {
  AppendOptions,
  AppendResult,
  EventStore,
  EventToAppend,
  ReadStreamOptions,
  RecordedEvent,
} from '@shiplog/event-store';
import type { Vault } from './index.ts';
import { type Queryable, SHREDDED } from './sealed-data.ts';

/**
 * The store services use: appends are sealed on the way in and a stream reads back opened, with a
 * forgotten user's events as `SHREDDED`. The global feeds (`readAll`, `subscribeToAll`) stay sealed:
 * they are what the relay publishes and rebuilds replay, and their readers open them (fresh).
 */
export class SealedEventStore implements EventStore {
  readonly inner: EventStore;
  readonly vault: Vault;

  constructor(inner: EventStore, vault: Vault) {
    this.inner = inner;
    this.vault = vault;
  }

  async append(streamId: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    return this.inner.append(streamId, await this.vault.seal(events), options);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const recorded = await this.inner.readStream(streamId, options);
    // In the caller's transaction, a key that is not cached is read there too.
    const client = options?.transaction as Queryable | undefined;
    const opened = await this.vault.open(recorded, client ? { client } : {});
    return opened.map((event, index) => event ?? { ...recorded[index]!, data: SHREDDED });
  }

  readAll(...args: Parameters<EventStore['readAll']>) {
    return this.inner.readAll(...args);
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>) {
    return this.inner.subscribeToAll(...args);
  }

  deleteStream(streamId: string): Promise<void> {
    return this.inner.deleteStream(streamId);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
