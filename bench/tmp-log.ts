import pg from 'pg';
import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { signUp, startBenchApp, stop } from './app.ts';
const db = await createTestDatabase('bench_log');
const ns = createTestBusNamespace('bench_log');
const port = await freePort();
const app = await startBenchApp(db.url, ns.namespace, port, { SHIPLOG_PROCESSES: 'one' });
const url = `http://127.0.0.1:${port}`;
const reader = await signUp(url, `r${Date.now().toString(36)}`);
for (let i = 0; i < 3; i++) {
  const r = await fetch(`${url}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: reader.cookie }, body: JSON.stringify({ name: `Project ${i}` }) });
  reader.cookie = cookiesFrom(r, reader.cookie);
}
await new Promise((r) => setTimeout(r, 1500));
const admin = new pg.Client({ connectionString: db.url }); await admin.connect();
await admin.query("ALTER SYSTEM SET log_statement = 'all'"); await admin.query('SELECT pg_reload_conf()');
await new Promise((r) => setTimeout(r, 300));
console.log('MARK-START', new Date().toISOString());
await fetch(`${url}/api/projects`, { headers: { cookie: reader.cookie } });
await fetch(`${url}/api/projects`, { headers: { cookie: reader.cookie } });
console.log('MARK-END', new Date().toISOString());
await admin.query('ALTER SYSTEM RESET log_statement'); await admin.query('SELECT pg_reload_conf()'); await admin.end();
await stop(app); await ns.drop(); await db.drop();
