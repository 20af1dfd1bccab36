import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, uniqueUsername } from '@shiplog/system';
import { createTestBusNamespace, createTestDatabase, freePort, processAlive, waitUntil } from '@shiplog/testing';
import { type OtlpStandIn, startOtlpStandIn } from '@shiplog/testing/otlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Launched, launchApp } from '../../../scripts/launch.ts';

/**
 * Traces as an operator gets them: the app as `npm start` runs it (each service and the gateway a
 * process, tracing's preload in each), sending to an OTLP/HTTP collector, the project's stand-in that
 * keeps what it is sent.
 */
let app: Launched;
let url: string;
let collector: OtlpStandIn;
const drops: (() => Promise<void>)[] = [];
/** Every process's log lines, at the production level (info). */
const logFile = join(mkdtempSync(join(tmpdir(), 'shiplog-trace-logs-')), 'app.log');

beforeAll(async () => {
  collector = await startOtlpStandIn();
  const db = await createTestDatabase('trace');
  const bus = createTestBusNamespace('trace');
  drops.push(db.drop, bus.drop);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // No SERVICE_PORT_BASE, and one of the usual service ports taken (as by another checkout's app):
  // the app starts on a free range all the same.
  const taken = createServer();
  await new Promise<void>((resolve) => {
    taken.once('error', () => resolve());
    taken.listen(4102, '127.0.0.1', () => resolve());
  });
  drops.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  app = await launchApp({
    ...collector.env,
    // Each service and the gateway a process of its own, each with its own tracer and service name.
    SHIPLOG_PROCESSES: 'each',
    PORT: String(port),
    DATABASE_URL: db.url,
    BUS_NAMESPACE: bus.namespace,
    SKIP_WEB_BUILD: '1',
    LOG_LEVEL: 'info',
    LOG_FILE: logFile,
    DATABASE_POOL_MAX: '5',
  });
  // Nine processes starting at once: launchApp's own limit (120 s, which says what the app printed)
  // rather than the hooks' 60 s, on a machine loaded by the other tests.
}, 150_000);
afterAll(async () => {
  await app?.stop();
  for (const drop of drops) await drop();
  await collector?.stop();
});

describe('tracing', () => {
  it('follows one request from the gateway through the service, its queries, the relay and the reactions', async () => {
    const client = new Client(url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('trace'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const sessionId = decodeURIComponent(client.sessionCookie!.split('=')[1]!);
    const created = await client.post('/api/projects', { name: 'Traced' });
    expect(created.status).toBe(201);

    const gatewaySpan = () =>
      collector.spans.find((s) => s.service === 'shiplog-gateway' && s.name === 'POST /api/projects');
    const inTrace = () => collector.spans.filter((s) => s.traceId === gatewaySpan()?.traceId);
    const named = (service: string, name: string) => inTrace().find((s) => s.service === service && s.name === name);
    // Each process exports its spans in its own batches: wait for every part to have come.
    await expect
      .poll(
        () =>
          [
            named('shiplog-projects', 'POST /projects'),
            named('shiplog-projects', 'publish ProjectCreated'),
            named('shiplog-activity', 'handle ProjectCreated'),
            named('shiplog-reminders', 'handle ProjectCreated'),
          ].every(Boolean),
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    expect([...collector.contentTypes]).toContain('application/json');
    const spans = inTrace();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const gateway = gatewaySpan()!;
    const service = named('shiplog-projects', 'POST /projects')!;
    const publish = named('shiplog-projects', 'publish ProjectCreated')!;

    // The gateway's call to the service is the instrumentation's client span, between the two.
    const call = byId.get(service.parentSpanId)!;
    expect(call).toMatchObject({ service: 'shiplog-gateway', parentSpanId: gateway.spanId });
    // The append is a query inside the service's request (the instrumentation's pg spans), and no
    // statement carries a value: placeholders only.
    const within = (span: (typeof spans)[number], ancestor: (typeof spans)[number]): boolean =>
      span.parentSpanId === ancestor.spanId ||
      (byId.has(span.parentSpanId) && within(byId.get(span.parentSpanId)!, ancestor));
    const queries = spans.filter((s) => s.service === 'shiplog-projects' && 'db.query.text' in s.attributes);
    const append = queries.find((q) => String(q.attributes['db.query.text']).includes('projects.append_events($1'));
    expect(append && within(append, service)).toBe(true);
    expect(queries.map((q) => String(q.attributes['db.query.text'])).join('\n')).not.toContain('Traced');
    // The relay's publish hangs off the request that appended the event (its handler's span, where the
    // append ran); each reaction off the publish.
    expect(within(publish, service)).toBe(true);
    for (const consumer of ['shiplog-activity', 'shiplog-reminders'])
      expect(named(consumer, 'handle ProjectCreated')!.parentSpanId).toBe(publish.spanId);
    // The gateway's Redis commands (the session it signed up, its rate limits) are spans of the requests
    // that made them, named by command: no key, so no session id.
    const registered = collector.spans.find((s) => s.service === 'shiplog-gateway' && s.name === 'POST /api/register');
    const redis = collector.spans.filter(
      (s) => s.traceId === registered?.traceId && s.attributes['db.system.name'] === 'redis',
    );
    expect(redis.length).toBeGreaterThan(0);
    expect(JSON.stringify(redis)).not.toContain(sessionId.split('.')[0]!.replace(/^s:/, ''));
    // No span is named by a raw path.
    expect(spans.filter((s) => s.name.includes(created.body.id as string))).toEqual([]);

    // The access log has the request's line in each process, each naming its own span of the trace.
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLine = (name: string, path: string) =>
      lines.find((l) => l.name === name && l.msg === 'request' && l.method === 'POST' && l.url === path);
    expect(requestLine('gateway', '/api/projects')).toMatchObject({
      level: 30,
      status: 201,
      trace_id: gateway.traceId,
      span_id: gateway.spanId,
    });
    expect(requestLine('projects', '/projects')).toMatchObject({
      level: 30,
      status: 201,
      trace_id: gateway.traceId,
      span_id: service.spanId,
    });
  });

  it('leaves no process behind when the app’s supervisor is killed outright', async () => {
    const supervisor = app.child.pid!;
    const parentOf = (pid: string) => {
      try {
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      } catch {
        return null;
      }
    };
    const children = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && parentOf(name) === supervisor)
      .map(Number);
    // The eight services and the gateway.
    expect(children.length).toBeGreaterThanOrEqual(9);
    app.child.kill('SIGKILL');
    await waitUntil(() => children.every((pid) => !processAlive(pid)), 15_000, 'every process of the app to end');
  });
});
