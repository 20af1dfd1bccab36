import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { signUp, startBenchApp, stop } from './app.ts';
const db = await createTestDatabase('bench_keep');
const ns = createTestBusNamespace('bench_keep');
const port = await freePort();
const app = await startBenchApp(db.url, ns.namespace, port, { SHIPLOG_PROCESSES: 'one' });
const url = `http://127.0.0.1:${port}`;
const reader = await signUp(url, `r${Date.now().toString(36)}`);
for (let i = 0; i < 20; i++) {
  const r = await fetch(`${url}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: reader.cookie }, body: JSON.stringify({ name: `Project ${i}`, description: 'A project with a description of ordinary length.', costEstimate: 1000 * i }) });
  reader.cookie = cookiesFrom(r, reader.cookie);
}
await new Promise((r) => setTimeout(r, 1000));
console.log(db.url, reader.id);
await stop(app); await ns.drop();
