import { serviceDirectory } from '@shiplog/service-kit';
import type pg from 'pg';

/** The services whose schema holds `table` in this database (those that have run), in directory order. */
export async function serviceSchemasWith(pool: pg.Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ schema: string }>(
    `SELECT schema FROM unnest($1::text[]) WITH ORDINALITY AS s(schema, n)
     WHERE to_regclass(schema || '.' || $2) IS NOT NULL ORDER BY n`,
    [Object.keys(serviceDirectory), table],
  );
  return rows.map((r) => r.schema);
}
