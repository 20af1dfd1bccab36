/**
 * The yardstick for `GET /api/projects`: a bare single-process Node + pg server answering the same
 * query as the projects service, for one fixed user, with no session, gateway or service hop.
 */
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID;
const server = createServer(async (req, res) => {
  if (req.url !== '/api/projects') {
    res.writeHead(404).end();
    return;
  }
  const { rows } = await pool.query<{ list: string }>(
    `SELECT coalesce(json_agg(doc ORDER BY created_at DESC, id DESC), '[]')::text AS list
     FROM projects.project_list WHERE user_id = $1`,
    [userId],
  );
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(rows[0]!.list);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('bare server ready\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
