/**
 * The yardstick for `/api/projects`: a bare single-process Node + pg server, with no session, gateway,
 * service hop, validation or events. GET answers the same query as the projects service, for one fixed
 * user; POST inserts the created project's row (one INSERT, the same JSON document) into a table like
 * the project list, and answers it as the API does.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID;
await pool.query('CREATE SCHEMA IF NOT EXISTS bare');
await pool.query('CREATE TABLE IF NOT EXISTS bare.project_list (LIKE projects.project_list INCLUDING ALL)');

async function create(body: string): Promise<string> {
  const input = JSON.parse(body) as Record<string, unknown>;
  const now = new Date().toISOString();
  const doc = JSON.stringify({
    id: randomUUID(),
    name: input.name,
    description: input.description ?? '',
    status: input.status ?? 'planning',
    checklist: { databaseAdded: false, authenticationAdded: false, deployed: false, backedUp: false, hasTests: false },
    costEstimate: input.costEstimate ?? 0,
    replitId: null,
    isPublic: false,
    metadata: { socialLinks: {} },
    createdAt: now,
    updatedAt: now,
  });
  await pool.query('INSERT INTO bare.project_list (id, user_id, created_at, doc) VALUES ($1, $2, $3, $4)', [
    JSON.parse(doc).id,
    userId,
    now,
    doc,
  ]);
  return doc;
}

const server = createServer(async (req, res) => {
  if (req.url !== '/api/projects') {
    res.writeHead(404).end();
    return;
  }
  if (req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += chunk;
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' }).end(await create(body));
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
