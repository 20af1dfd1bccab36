import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend, uniqueUsername } from './harness.ts';

/**
 * Traces reach an OTLP/HTTP collector: a local stand-in that speaks the protocol (JSON encoding) and
 * keeps what it is sent.
 */
interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

let backend: Backend;
let collector: Server;
const received: ReceivedSpan[] = [];
const contentTypes = new Set<string>();

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.add(req.headers['content-type'] ?? '');
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[];
          }[];
        };
        for (const resourceSpans of body.resourceSpans) {
          const service =
            resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans)
            for (const span of scope.spans)
              received.push({
                service,
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  backend = await startBackend({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` } });
});
afterAll(async () => {
  await backend?.stop();
  await new Promise((resolve) => collector?.close(resolve));
});

describe('tracing', () => {
  it('follows one request from the gateway through the service to the reactions to its events', async () => {
    const client = new Client(backend.url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('trace'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const created = await client.post('/api/projects', { name: 'Traced' });
    expect(created.status).toBe(201);

    const find = (service: string, name: string) => received.find((s) => s.service === service && s.name === name);
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
    expect([...contentTypes]).toContain('application/json');

    const gateway = find('shiplog-gateway', 'POST /api/projects')!;
    const service = find('shiplog-projects', 'POST /projects')!;
    expect(service).toMatchObject({ traceId: gateway.traceId, parentSpanId: gateway.spanId });
    // The activity timeline's projector and the project list handle the event inside the same trace.
    const reactions = received.filter((s) => s.name === 'handle ProjectCreated' && s.traceId === gateway.traceId);
    expect(reactions.map((s) => s.service)).toEqual(
      expect.arrayContaining(['shiplog-activity', 'shiplog-projects', 'shiplog-reminders']),
    );
    for (const reaction of reactions) expect(reaction.parentSpanId).toBe(service.spanId);
  });
});
