/**
 * The dashboard and the alert rules read only metrics the processes export: every `shiplog_…` and
 * `process_…` name in their queries is one a process's registry holds (a histogram's `_bucket`,
 * `_count` and `_sum` included), so a renamed metric fails here, not on an operator's empty panel.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMetrics } from '@shiplog/telemetry/metrics';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildLayout, layouts } from '../k8s/layouts.ts';

const dir = import.meta.dirname;

async function exported(): Promise<Set<string>> {
  const metrics = createMetrics('test');
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (metric.type === 'histogram')
      for (const suffix of ['_bucket', '_count', '_sum']) names.add(metric.name + suffix);
  }
  return names;
}

const referenced = (expressions: string[]) =>
  [...new Set(expressions.flatMap((expr) => expr.match(/\b(?:shiplog|process|nodejs)_[a-z_]+/g) ?? []))].sort();

describe('deploy/observability', () => {
  it('queries in the Grafana dashboard name only exported metrics, and every panel has one', async () => {
    const dashboard = JSON.parse(readFileSync(join(dir, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const expressions = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(dashboard.panels.every((p) => p.targets.length > 0)).toBe(true);
    const names = await exported();
    expect(referenced(expressions).filter((name) => !names.has(name))).toEqual([]);
  });

  it('scrapes every Shiplog pod in Kubernetes, on the port its containers name, with the metrics token', () => {
    const containers = layouts
      .flatMap((layout) => buildLayout(layout))
      .filter((doc) => doc.kind === 'Deployment')
      .map((doc) => ({
        tier: doc.spec.template.metadata.labels['shiplog.dev/tier'] as string,
        port: doc.spec.template.spec.containers[0].ports[0] as { name?: string },
      }));
    const monitor = parse(readFileSync(join(dir, 'pod-monitor.yaml'), 'utf8'));
    expect(monitor.kind).toBe('PodMonitor');
    const tiers: string[] = monitor.spec.selector.matchExpressions[0].values;
    const [endpoint] = monitor.spec.podMetricsEndpoints;
    expect(endpoint).toMatchObject({
      path: '/metrics',
      authorization: { type: 'Bearer', credentials: { key: 'METRICS_TOKEN' } },
    });
    const policy = parse(readFileSync(join(dir, 'scrape-network-policy.yaml'), 'utf8'));
    const admitted = policy.spec.ingress[0].ports.map((p: { port: number | string }) => p.port);
    for (const { tier, port } of containers) {
      expect(tiers).toContain(tier);
      expect(port.name).toBe(endpoint.port);
      expect(admitted).toContain(port.name);
    }
    expect(containers.length).toBe(10);
  });

  it('alerts on lag, parked events, server errors, late reminders and a process down, each on exported metrics', async () => {
    const rules = (
      parse(readFileSync(join(dir, 'alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }
    ).groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'ShiplogConsumerLagging',
        'ShiplogEventParked',
        'ShiplogServerErrors',
        'ShiplogRemindersLate',
        'ShiplogProcessDown',
      ]),
    );
    const names = await exported();
    expect(referenced(rules.map((r) => r.expr)).filter((name) => !names.has(name))).toEqual([]);
  });
});
