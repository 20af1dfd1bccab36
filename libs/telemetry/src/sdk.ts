import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { pathTemplate } from './redaction.ts';

/**
 * OpenTelemetry's Node SDK for this process, one at most: spans go to the OTLP endpoint of the standard
 * settings (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_BSP_*`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_RESOURCE_ATTRIBUTES`, …), and the instrumentations make spans for what
 * the process calls: outgoing HTTP (node:http and undici's fetch), Express's routers and handlers,
 * PostgreSQL queries and Redis commands (by name only: a key can be a session's id). The requests a process serves are spans
 * of our own (service-kit's `requestSpans`: named by route template, and the gateway starts every
 * trace), so incoming HTTP is left to them. A URL is written into a span as its template, and a call
 * that leaves Shiplog by its origin alone (`outgoingUrl`): a path can hold a credential or a user's data.
 */
const instrumentations = () => [
  new HttpInstrumentation({
    disableIncomingRequestInstrumentation: true,
    startOutgoingSpanHook: (request) => {
      const origin = `${request.protocol ?? 'http:'}//${request.hostname ?? request.host ?? 'localhost'}${request.port ? `:${request.port}` : ''}`;
      return outgoingUrl(origin, String(request.path ?? '/'), request.headers);
    },
  }),
  new UndiciInstrumentation({
    requestHook: (span, request) => {
      for (const [name, value] of Object.entries(outgoingUrl(request.origin, request.path, request.headers)))
        span.setAttribute(name, value);
    },
  }),
  new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
  // Statements only, with their placeholders: never the values.
  new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
  new RedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
];

/** The header that marks a call between Shiplog's own processes (service-kit's INTERNAL_TOKEN_HEADER). */
const INTERNAL_HEADER = 'x-shiplog-internal-token';

/**
 * What a client span says of the URL it called. Between Shiplog's own processes (the call carries the
 * gateway's signed caller) the path as a template; a call that leaves Shiplog (a push service, an
 * alert's webhook, Stripe, a user's monitor) by its origin alone: its path can be a credential that
 * no template recognises (an FCM registration token, a Slack webhook's secret).
 */
export function outgoingUrl(origin: string, path: string, headers: unknown): Record<string, string> {
  const internal = headerNames(headers).includes(INTERNAL_HEADER);
  return {
    'url.full': internal ? `${origin}${pathTemplate(path)}` : origin,
    'url.path': internal ? pathTemplate(path) : '[redacted]',
    ...(path.includes('?') ? { 'url.query': '[redacted]' } : {}),
  };
}

/** The header names of a request as node:http (an object) or undici (a list or raw text) holds them. */
function headerNames(headers: unknown): string[] {
  if (typeof headers === 'string')
    return headers.split('\r\n').map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
  if (Array.isArray(headers)) return headers.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase());
  if (headers && typeof headers === 'object') return Object.keys(headers).map((name) => name.toLowerCase());
  return [];
}

interface Running {
  sdk: NodeSDK;
  users: number;
}
const key = Symbol.for('shiplog.telemetry.sdk');
const holder = globalThis as { [key]?: Running };

/** The process's SDK, started as `serviceName` when it is not running yet. */
function runningSdk(serviceName: string, endpoint?: string): Running {
  let running = holder[key];
  if (!running) {
    const sdk = new NodeSDK({
      serviceName,
      instrumentations: instrumentations(),
      ...(endpoint
        ? { traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }) }
        : {}),
    });
    sdk.start();
    running = { sdk, users: 0 };
    holder[key] = running;
  }
  return running;
}

/**
 * The preload's start (register.ts): before any module loads, with no user of its own, so the
 * process's tracing (`startTracing`, released at its stop) flushes and shuts it down.
 */
export function preloadSdk(serviceName: string): void {
  runningSdk(serviceName);
}

/**
 * Starts the SDK as `serviceName` if it is not running yet; each caller's `release` ends its use, and
 * the last one flushes and shuts it down. Instrumentations patch the modules loaded after the start:
 * started by the preload (`register.ts`), that is all of them. `endpoint`: a collector named by a
 * service's configuration rather than this process's environment (services started inside a test
 * process), sent OTLP/HTTP with JSON; otherwise the exporter follows the standard settings.
 */
export function startSdk(serviceName: string, endpoint?: string): { flush(): Promise<void>; release(): Promise<void> } {
  const running = runningSdk(serviceName, endpoint);
  running.users += 1;
  const current = running;
  let released = false;
  return {
    flush: async () => {
      const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
      await provider.getDelegate?.().forceFlush?.();
    },
    async release() {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0 || holder[key] !== current) return;
      delete holder[key];
      await current.sdk.shutdown();
      // So that a later start in this process registers anew (test processes start and stop many).
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
