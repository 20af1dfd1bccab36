import { comparePositions, type Position, parsePosition } from '@shiplog/events';
import type pg from 'pg';
import type { Statement } from './batch.ts';

/** The statement recording the positions a consumer's batch reached, per source (never moving one back). */
export function positionsStatement(schema: string, consumer: string, reached: Map<string, Position>): Statement {
  const entries = [...reached];
  return {
    text: `INSERT INTO ${schema}.consumer_positions (consumer, source, commit_position, prepare_position)
           SELECT $1, * FROM unnest($2::text[], $3::numeric[], $4::bigint[])
           ON CONFLICT (consumer, source) DO UPDATE
             SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position
             WHERE (consumer_positions.commit_position, consumer_positions.prepare_position)
                 < (EXCLUDED.commit_position, EXCLUDED.prepare_position)`,
    values: [
      consumer,
      entries.map(([source]) => source),
      entries.map(([, p]) => p.commit.toString()),
      entries.map(([, p]) => p.prepare.toString()),
    ],
  };
}

/** The pause before a wait's first look at the recorded positions, doubled after each up to `MAX_LOOK_MS`. */
const FIRST_LOOK_MS = 3;
const MAX_LOOK_MS = 25;

/**
 * How far a consumer has handled each source: what this process has seen it commit (positions only
 * grow, so "at or past the target here" is a safe yes without a query), else the recorded position,
 * which other replicas' progress reaches.
 */
export class ConsumerProgress {
  readonly #seen = new Map<string, Position>();
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #consumer: string;
  /** The waits under way: each is woken when this process sees the consumer commit. */
  readonly #waits = new Set<() => void>();

  constructor(pool: pg.Pool, schema: string, consumer: string) {
    this.#pool = pool;
    this.#schema = schema;
    this.#consumer = consumer;
  }

  remember(source: string, position: Position): void {
    const known = this.#seen.get(source);
    if (known && comparePositions(position, known) <= 0) return;
    this.#seen.set(source, position);
    for (const wake of this.#waits) wake();
  }

  hasReached(source: string, target: Position): boolean {
    const local = this.#seen.get(source);
    return local !== undefined && comparePositions(local, target) >= 0;
  }

  async recorded(source: string): Promise<Position | undefined> {
    const { rows } = await this.#pool.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position, prepare_position FROM ${this.#schema}.consumer_positions WHERE consumer = $1 AND source = $2`,
      [this.#consumer, source],
    );
    const row = rows[0];
    return row ? (parsePosition(`${row.commit_position}/${row.prepare_position}`) ?? undefined) : undefined;
  }

  /** How many waits (`waitFor`) are under way now: reads held until this consumer catches up. */
  get waiting(): number {
    return this.#waits.size;
  }

  /**
   * Resolves true once `source` is handled up to `target`, false after `timeoutMs`. Where this process
   * runs the consumer (its service's leader), its commit wakes the wait at once; elsewhere (a standby)
   * the wait reads the recorded positions, soon at first and then less often, so that a read kept
   * waiting by a lagging consumer does not load the database it waits on.
   */
  async waitFor(source: string, target: Position, timeoutMs: number): Promise<boolean> {
    if (this.hasReached(source, target)) return true;
    const deadline = Date.now() + timeoutMs;
    let wake: (() => void) | undefined;
    const woken = () => wake?.();
    this.#waits.add(woken);
    try {
      // A wake (a commit seen here, or another wait's look) is checked against what this process knows;
      // the recorded positions are read only when the pause is up, on its own schedule.
      for (let pause = FIRST_LOOK_MS, look = Date.now(); ; ) {
        const current = await this.recorded(source);
        if (current) this.remember(source, current);
        if (this.hasReached(source, target)) return true;
        if (Date.now() >= deadline) return false;
        look += pause;
        pause = Math.min(pause * 2, MAX_LOOK_MS);
        for (let left = Math.min(look, deadline) - Date.now(); left > 0; left = Math.min(look, deadline) - Date.now()) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (this.hasReached(source, target)) return true;
        }
      }
    } finally {
      this.#waits.delete(woken);
    }
  }
}
