import {
  type Attributes,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * Traces (OpenTelemetry, exported over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT; unset → off). The
 * instrumentations (sdk.ts) make spans of what a process calls (HTTP out, Express, PostgreSQL, Redis);
 * spans are made by hand where work crosses our own boundaries: the gateway's request, each service's
 * request, each event the relay publishes and each event a consumer handles. The W3C `traceparent`
 * travels in the `traceparent` header, in every event's metadata and in the bus message's headers, so
 * one trace runs from a click through the events it caused to the reactions in other services.
 */
export interface Tracing {
  enabled: boolean;
  tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export { type Span, SpanKind, SpanStatusCode };

/**
 * Tracing for a process: OpenTelemetry's Node SDK (sdk.ts), started by the preload (register.ts) when
 * an OTLP endpoint is configured, or here if it was not (a test process, where only what loads later
 * is instrumented). Without an endpoint nothing beyond the API is loaded: about 10 MB of a process's
 * memory otherwise.
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
  const { startSdk } = await import('./sdk.ts');
  // The environment's settings when they name the endpoint (a process of the app); else this one.
  const fromEnvironment =
    (process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT) === endpoint;
  const sdk = startSdk(`shiplog-${service}`, fromEnvironment ? undefined : endpoint);
  return {
    enabled: true,
    tracer: trace.getTracer('shiplog'),
    flush: () => sdk.flush(),
    async shutdown() {
      await sdk.release();
    },
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
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter) : ROOT_CONTEXT;
  return tracing.tracer.startSpan(name, { kind, attributes }, parent);
}

export function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
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
