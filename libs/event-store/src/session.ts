import pg from 'pg';

export interface SessionConnectionOptions {
  connectionString: string;
  /** How the connection shows in `pg_stat_activity`. */
  applicationName: string;
  /** A query that does not answer in this time fails, and the connection is dropped (its host cut off). */
  queryTimeoutMs?: number;
  /** Hears a connection that failed (it is then dropped, and made again when next needed). */
  onError?: (error: Error) => void;
}

/** Hears what happens to a channel a session listens to: a notification, or the connection lost. */
export interface Listener {
  notified(): void;
  lost(error: Error): void;
}

/**
 * One PostgreSQL connection for what lives as long as a session: advisory locks (a service's leader
 * lock) and LISTEN (the event store's relay waking on appends). A process holds one, whatever number of
 * services it runs, so the leader locks and the relays' listeners of the one-process mode cost one
 * backend, and a service on its own one beside its pool.
 *
 * It connects when first needed. When the connection is lost (the server restarted, the backend was
 * terminated, a query timed out), everything held on it is gone: each `onLost` callback and every
 * listener hears so at once, and the next query makes a new connection, whose `generation` is one more.
 */
export class SessionConnection {
  readonly #options: SessionConnectionOptions;
  #client: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  #generation = 0;
  #ended = false;
  readonly #lostCallbacks = new Set<(error: Error) => void>();
  readonly #channels = new Map<string, Set<Listener>>();
  /** The end of the queries sent so far: each waits for the one before (see `#inTurn`). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SessionConnectionOptions) {
    this.#options = options;
  }

  /** Counts the connections made: a lock or a LISTEN taken on an earlier one is gone. */
  get generation(): number {
    return this.#generation;
  }

  /** A query on the session's connection, and the generation of the connection that answered it. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; generation: number }> {
    const client = await this.#connected();
    const generation = this.#generation;
    try {
      const { rows } = await this.#inTurn(() => client.query<R>(text, values));
      return { rows, generation };
    } catch (error) {
      // A statement that failed on a working connection (a syntax error) keeps it; one that timed out
      // or found the connection gone drops it, with all it held.
      if (!(error instanceof pg.DatabaseError)) this.#lose(client, error as Error);
      throw error;
    }
  }

  /** Calls `callback` each time the connection is lost; answers how to stop. */
  onLost(callback: (error: Error) => void): () => void {
    this.#lostCallbacks.add(callback);
    return () => this.#lostCallbacks.delete(callback);
  }

  /**
   * LISTEN to `channel` until the answer is called (or the connection is lost, which `listener` hears;
   * listen again then, on the new connection). Many may listen to one channel.
   */
  async listen(channel: string, listener: Listener): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
    const client = await this.#connected();
    let listeners = this.#channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
      try {
        await this.#inTurn(() => client.query(`LISTEN ${channel}`));
      } catch (error) {
        this.#channels.delete(channel);
        if (!(error instanceof pg.DatabaseError)) this.#lose(client, error as Error);
        throw error;
      }
    }
    listeners.add(listener);
    return async () => {
      const current = this.#channels.get(channel);
      // Gone with a lost connection already: nothing is listening on the new one.
      if (current !== listeners || !current.delete(listener) || current.size > 0) return;
      this.#channels.delete(channel);
      if (this.#client === client) await this.#inTurn(() => client.query(`UNLISTEN ${channel}`)).catch(() => undefined);
    };
  }

  /** Closes the connection; everything held on it is released by the server. */
  async end(): Promise<void> {
    this.#ended = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    this.#channels.clear();
    await client?.end().catch(() => undefined);
  }

  /**
   * Runs `work` (a query) once every query sent before it has been answered: the services of a process
   * share this connection (their leader locks, their relays' LISTEN), and pg asks that a client be
   * sent no query while another runs (a queue of its own, which it is dropping).
   */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#queue.then(work, work);
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  #connected(): Promise<pg.Client> {
    if (this.#ended) return Promise.reject(new Error('The session connection has ended'));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.#options.connectionString,
        keepAlive: true,
        application_name: this.#options.applicationName,
        ...(this.#options.queryTimeoutMs ? { query_timeout: this.#options.queryTimeoutMs } : {}),
      });
      client.on('error', (error) => this.#lose(client, error));
      client.on('end', () => this.#lose(client, new Error('The session connection ended')));
      client.on('notification', (message) => {
        for (const listener of this.#channels.get(message.channel) ?? []) listener.notified();
      });
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      this.#generation++;
      this.#client = client;
      return client;
    })().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /** `client` is gone: forget it and tell whoever held something on it. */
  #lose(client: pg.Client, error: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    const listeners = [...this.#channels.values()].flatMap((set) => [...set]);
    this.#channels.clear();
    void client.end().catch(() => undefined);
    if (this.#ended) return;
    this.#options.onError?.(error);
    for (const listener of listeners) listener.lost(error);
    for (const callback of this.#lostCallbacks) callback(error);
  }
}
