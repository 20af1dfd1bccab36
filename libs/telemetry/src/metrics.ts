import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * A process's Prometheus metrics (prom-client), scraped at `/metrics` (docs/operations.md lists them;
 * deploy/observability has the dashboard and the alerts). Each process has its own registry, labelled
 * with its service's name, so several in one process (the tests) keep theirs apart. Routes are
 * labelled by template (`GET /projects/:id`), never by path, so a label holds no user's data and their
 * number stays that of the route table.
 */
export interface Metrics {
  registry: Registry;
  /** One answered request: its method, route template (`unmatched` when none matched), status and time. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One append to the event store, and how long it took. */
  appended(seconds: number): void;
  /** One call to an outside provider (`stripe`, `model`, `registrar`, `webhook`, …) and how it ended. */
  outbound(target: string, outcome: 'ok' | 'error' | 'refused'): void;
  /** How late a reminder went out after it was due. */
  reminderDelay(seconds: number): void;
  /**
   * How the consumers' backlog and parked events are read, at each scrape: by consumer name. A reader
   * that fails leaves its gauge empty for that scrape (the failure is the readiness check's to report).
   */
  readConsumers(readers: { pending: ConsumerReader; parked: ConsumerReader }): void;
}

/** A value per consumer (`activity-timeline`), read when Prometheus scrapes. */
export type ConsumerReader = () => Promise<Map<string, number>>;

const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'shiplog_http_requests_total',
    help: 'Requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'shiplog_http_request_duration_seconds',
    help: 'Time to answer a request, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: durationBuckets,
    registers: [registry],
  });
  const appends = new Histogram({
    name: 'shiplog_event_store_append_duration_seconds',
    help: 'Time to append one command’s events to the event store.',
    buckets: durationBuckets,
    registers: [registry],
  });
  const outbound = new Counter({
    name: 'shiplog_outbound_requests_total',
    help: 'Calls to outside providers, by target and outcome (refused: the address check said no).',
    labelNames: ['target', 'outcome'],
    registers: [registry],
  });
  const reminderDelay = new Histogram({
    name: 'shiplog_reminder_send_delay_seconds',
    help: 'How long after its due time a reminder was sent.',
    buckets: [1, 5, 15, 30, 60, 120, 300, 900, 3600],
    registers: [registry],
  });
  const readers: { pending?: ConsumerReader; parked?: ConsumerReader } = {};
  const perConsumer = (name: string, help: string, which: keyof typeof readers) =>
    new Gauge({
      name,
      help,
      labelNames: ['consumer'],
      registers: [registry],
      async collect() {
        this.reset();
        try {
          for (const [consumer, value] of (await readers[which]?.()) ?? []) this.set({ consumer }, value);
        } catch {
          // Left empty: a scrape never fails on one reader.
        }
      },
    });
  perConsumer(
    'shiplog_consumer_pending_events',
    'Events on the bus not yet handled by a consumer (delivered or not, unacknowledged).',
    'pending',
  );
  perConsumer(
    'shiplog_parked_events',
    'Events a consumer parked after their reaction kept failing (pnpm events:parked).',
    'parked',
  );
  return {
    registry,
    request(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
    },
    appended: (seconds) => appends.observe(seconds),
    outbound: (target, outcome) => outbound.inc({ target, outcome }),
    reminderDelay: (seconds) => reminderDelay.observe(seconds),
    readConsumers({ pending, parked }) {
      readers.pending = pending;
      readers.parked = parked;
    },
  };
}
