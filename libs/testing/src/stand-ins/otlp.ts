import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the collector received it. */
export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

/**
 * An OpenTelemetry collector stand-in: it speaks OTLP/HTTP with the JSON encoding (the SDK's, with
 * `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, which `env` sets), keeps every span, and every body exactly as it came, so a test can
 * search what a trace backend would be given.
 */
export async function startOtlpStandIn() {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.add(req.headers['content-type'] ?? '');
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const body = JSON.parse(text) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: {
              spans: (Omit<ReceivedSpan, 'service' | 'attributes'> & {
                attributes?: { key: string; value: Record<string, unknown> }[];
              })[];
            }[];
          }[];
        };
        for (const resourceSpans of body.resourceSpans) {
          const service =
            resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                service,
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]])),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    spans,
    bodies,
    contentTypes,
    /** The standard settings that send here: the JSON encoding, batches every 200 ms. */
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpStandIn = Awaited<ReturnType<typeof startOtlpStandIn>>;
