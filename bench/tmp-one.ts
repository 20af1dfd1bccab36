import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { launch, load, signUp, startBenchApp, stop } from './app.ts';
const db = await createTestDatabase('bench_one');
const ns = createTestBusNamespace('bench_one');
const port = await freePort();
const app = await startBenchApp(db.url, ns.namespace, port, { SHIPLOG_PROCESSES: process.argv[2] ?? 'one' });
const url = `http://127.0.0.1:${port}`;
const reader = await signUp(url, `r${Date.now().toString(36)}`);
for (let i = 0; i < 20; i++) {
  const r = await fetch(`${url}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: reader.cookie }, body: JSON.stringify({ name: `Project ${i}`, description: 'A project with a description of ordinary length.', costEstimate: 1000 * i }) });
  reader.cookie = cookiesFrom(r, reader.cookie);
}
const barePort = await freePort();
const bare = await launch(['bench/bare-server.ts'], { DATABASE_URL: db.url, BENCH_USER_ID: reader.id, PORT: String(barePort) }, 'bare server ready');
const t = { bare: { url: `http://127.0.0.1:${barePort}/api/projects` }, gw: { url: `${url}/api/projects`, headers: { cookie: reader.cookie } } };
await load({ ...t.bare, duration: 5 }); await load({ ...t.gw, duration: 5 });
for (let i = 0; i < 2; i++) {
  const b = await load(t.bare); const g = await load(t.gw);
  console.log('bare', b.requestsPerSecond, JSON.stringify(b.cpuMicrosPerRequest), 'gateway', g.requestsPerSecond, 'ratio', (g.requestsPerSecond / b.requestsPerSecond).toFixed(2), JSON.stringify(g.cpuMicrosPerRequest));
}
await stop(bare); await stop(app); await ns.drop(); await db.drop();
