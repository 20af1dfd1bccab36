import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OtlpStandIn, startOtlpStandIn } from '@shiplog/testing/otlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend, uniqueUsername } from './harness.ts';

/** Traces reach an OTLP/HTTP collector: the project's stand-in, which keeps what it is sent. */
let backend: Backend;
let collector: OtlpStandIn;
/** Every process's log lines, at the production level (info). */
const logFile = join(mkdtempSync(join(tmpdir(), 'shiplog-trace-logs-')), 'backend.log');

beforeAll(async () => {
  collector = await startOtlpStandIn();
  backend = await startBackend({ env: { ...collector.env, LOG_LEVEL: 'info', LOG_FILE: logFile } });
});
afterAll(async () => {
  await backend?.stop();
  await collector?.stop();
});

describe('tracing', () => {
  it('follows one request from the gateway through the service to the reactions to its events', async () => {
    const client = new Client(backend.url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('trace'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const created = await client.post('/api/projects', { name: 'Traced' });
    expect(created.status).toBe(201);

    const find = (service: string, name: string) =>
      collector.spans.find((s) => s.service === service && s.name === name);
    await expect
      .poll(
        () => {
          // Each process exports its spans in its own batches: wait for all three kinds to have come.
          return (
            find('shiplog-gateway', 'POST /api/projects') !== undefined &&
            find('shiplog-projects', 'POST /projects') !== undefined &&
            ['shiplog-activity', 'shiplog-projects', 'shiplog-reminders'].every(
              (service) => find(service, 'handle ProjectCreated') !== undefined,
            )
          );
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    expect([...collector.contentTypes]).toContain('application/json');

    const gateway = find('shiplog-gateway', 'POST /api/projects')!;
    const service = find('shiplog-projects', 'POST /projects')!;
    expect(service).toMatchObject({ traceId: gateway.traceId, parentSpanId: gateway.spanId });
    // The activity timeline's projector and the project list handle the event inside the same trace.
    const reactions = collector.spans.filter(
      (s) => s.name === 'handle ProjectCreated' && s.traceId === gateway.traceId,
    );
    expect(reactions.map((s) => s.service)).toEqual(
      expect.arrayContaining(['shiplog-activity', 'shiplog-projects', 'shiplog-reminders']),
    );
    for (const reaction of reactions) expect(reaction.parentSpanId).toBe(service.spanId);

    // The access log has the request's line in each process, each naming its own span of the trace.
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLine = (name: string, url: string) =>
      lines.find((l) => l.name === name && l.msg === 'request' && l.method === 'POST' && l.url === url);
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
});
