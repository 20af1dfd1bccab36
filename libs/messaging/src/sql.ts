import type pg from 'pg';

/** Runs `work` in a transaction on a connection of its own: committed if it resolves, else rolled back. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Whether PostgreSQL can store the text: no NUL character, no half of a surrogate pair. */
export const isStorableText = (text: string): boolean => !text.includes('\u0000') && text.isWellFormed();
const badText = (text: string) => !isStorableText(text);

/** Whether an event's data holds such text anywhere (keys included). */
export function unstorable(value: unknown): boolean {
  if (typeof value === 'string') return badText(value);
  if (Array.isArray(value)) return value.some(unstorable);
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (badText(key) || unstorable(item)) return true;
  }
  return false;
}

/**
 * The data with such text made storable: NUL characters dropped, half surrogate pairs replaced
 * (U+FFFD). Services refuse it at their door (parseInput); this keeps an event stored before that
 * from stopping a projector for good, retried forever while every later event waits.
 */
export function storable(value: unknown): unknown {
  if (typeof value === 'string') return badText(value) ? value.replaceAll('\u0000', '').toWellFormed() : value;
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key), storable(item)]));
  }
  return value;
}
