/**
 * Admin users benchmark: `GET /api/admin/users` through the gateway with 10,000 users, the
 * first page and a search, p99 at 8 connections; target ≤ 50 ms. The app runs as `npm start` runs it.
 *
 * The 10,000 accounts are written straight into the table registrations and trials leave behind
 * (`identity.admin_users`): registering them through the API would spend most of an hour hashing
 * passwords (argon2id) and measures nothing this benchmark is about.
 */
import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import pg from 'pg';
import { load, startBenchApp, stop } from './app.ts';

const USERS = 10_000;
const ADMIN_PASSWORD = 'bench-admin-password';

export interface AdminUsersResult {
  users: number;
  firstPage: Awaited<ReturnType<typeof load>>;
  search: Awaited<ReturnType<typeof load>> & { matches: number };
  summary: Awaited<ReturnType<typeof load>>;
}

export async function runAdminUsers(): Promise<AdminUsersResult> {
  const db = await createTestDatabase('bench_admin');
  const ns = createTestBusNamespace('bench_admin');
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port, { ADMIN_PASSWORD });
  const url = `http://127.0.0.1:${port}`;
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  try {
    const statuses = ['trialing', 'trialing', 'trialing', 'active', 'paid', 'past_due', 'unpaid', 'canceled'];
    await pool.query(
      `INSERT INTO identity.admin_users (user_id, username, email, created_at, subscription_status, trial_start, trial_end)
       SELECT gen_random_uuid(), 'builder' || i, CASE WHEN i % 3 = 0 THEN 'builder' || i || '@example.com' END,
              now() - make_interval(mins => i), ($2::text[])[1 + i % 8],
              now() - make_interval(mins => i), now() - make_interval(mins => i) + interval '30 days'
       FROM generate_series(1, $1::int) AS i`,
      [USERS, statuses],
    );
    await pool.query('ANALYZE identity.admin_users');
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`admin login answered ${login.status}`);
    const headers = { cookie: cookiesFrom(login) };
    const search = '/api/admin/users?q=builder12&page=1&limit=25';
    const matches = Number((await fetch(`${url}${search}`, { headers })).headers.get('x-total-count'));
    if (matches < 100) throw new Error(`the search found only ${matches} users`);
    const options = { connections: 8, duration: 10, headers };
    // Warm the paths once, then measure each.
    await load({ ...options, duration: 3, url: `${url}/api/admin/users` });
    const firstPage = await load({ ...options, url: `${url}/api/admin/users` });
    const searched = await load({ ...options, url: `${url}${search}` });
    const summary = await load({ ...options, url: `${url}/api/admin/users/summary` });
    return { users: USERS, firstPage, search: { ...searched, matches }, summary };
  } finally {
    await stop(app);
    await pool.end();
    await ns.drop();
    await db.drop();
  }
}
