/**
 * Work claimed by this process and under way: the checks, and the alert sender's deliveries. A loop
 * claims only what it has room for (`room`), at most `perUser` of one account at once, and goes on
 * claiming while earlier work runs, so an account's slow targets (a server that never answers) hold
 * that account's own places only, never another's, nor the loop.
 */
export class InFlight {
  readonly #running = new Set<Promise<void>>();
  readonly #ofUser = new Map<string, number>();
  readonly #capacity: number;
  readonly #perUser: number;
  /** Aborted at `stop`: work under way ends without a result. */
  readonly #stopping = new AbortController();

  constructor(options: { capacity: number; perUser: number }) {
    this.#capacity = options.capacity;
    this.#perUser = options.perUser;
  }

  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  /**
   * How much may be claimed now: in all, and per account, given what each busy account has under way
   * (as parallel arrays, for a claim's SQL).
   */
  room(): { total: number; perUser: number; busyUsers: string[]; busyCounts: number[] } {
    return {
      total: this.#stopping.signal.aborted ? 0 : this.#capacity - this.#running.size,
      perUser: this.#perUser,
      busyUsers: [...this.#ofUser.keys()],
      busyCounts: [...this.#ofUser.values()],
    };
  }

  /** Starts `work` for `userId`, counted until it settles; what it throws is `onError`'s. */
  start(userId: string, work: () => Promise<unknown>, onError: (error: unknown) => void): Promise<void> {
    this.#ofUser.set(userId, (this.#ofUser.get(userId) ?? 0) + 1);
    const running: Promise<void> = work()
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => {
        this.#running.delete(running);
        const left = (this.#ofUser.get(userId) ?? 1) - 1;
        if (left > 0) this.#ofUser.set(userId, left);
        else this.#ofUser.delete(userId);
      });
    this.#running.add(running);
    return running;
  }

  /** Claims no more, aborts what runs, and waits for it to end. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all([...this.#running]);
  }
}
