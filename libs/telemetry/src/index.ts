import {
  type Attributes,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * Traces (OpenTelemetry, exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT; unset → off). Spans
 * are made by hand where work crosses a boundary: the gateway's request, each service's request, and
 * each event a consumer handles. The W3C `traceparent` travels in the `traceparent` header and in
 * every event's metadata, so one trace runs from a click through the events it caused to the
 * reactions in other services.
 */
export interface Tracing {
  enabled: boolean;
  tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The W3C `traceparent` format: set once tracing starts; without it no span is made or carried. */
let propagator: TextMapPropagator | undefined;

export { SpanKind, SpanStatusCode };

/**
 * Tracing for a process. Everything beyond the API (the SDK, its exporter, the context manager and the
 * propagator) is loaded only when an endpoint is set: about 10 MB of a process's memory otherwise.
 */
export async function startTracing(service: string, endpoint: string | undefined): Promise<Tracing> {
  if (!endpoint) {
    return {
      enabled: false,
      tracer: trace.getTracer('shiplog'),
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
  }
  const [
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { BasicTracerProvider, BatchSpanProcessor },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  if (!propagator) {
    propagator = new W3CTraceContextPropagator();
    // The current span travels in OpenTelemetry's own context (one AsyncLocalStorage, the SDK's).
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `shiplog-${service}` }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }), {
        scheduledDelayMillis: 500,
      }),
    ],
  });
  return {
    enabled: true,
    tracer: provider.getTracer('shiplog'),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** A span, child of the W3C `traceparent` when one is given (else the start of a trace). */
export function startSpan(
  tracing: Tracing,
  name: string,
  kind: SpanKind,
  traceparent: string | undefined,
  attributes?: Attributes,
): Span {
  const parent =
    traceparent && propagator ? propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter) : ROOT_CONTEXT;
  return tracing.tracer.startSpan(name, { kind, attributes }, parent);
}

export function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {};
  propagator?.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  return carrier.traceparent;
}

/** Runs `work` inside the span: calls and events it makes carry the span as their parent. */
export function withSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(ROOT_CONTEXT, span), work);
}

/** The ids of the span the current work runs in, as log lines carry them; none when tracing is off. */
export function currentTraceIds(): { trace_id: string; span_id: string } | undefined {
  const ids = trace.getSpan(context.active())?.spanContext();
  return ids && isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : undefined;
}

/** The `traceparent` of the span the current work runs in, if any. */
export function currentTraceparent(): string | undefined {
  const span = trace.getSpan(context.active());
  return span ? traceparentOf(span) : undefined;
}

/** Runs a unit of work as a span that ends with it, marked failed if it throws. */
export async function inSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await withSpan(span, work);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
