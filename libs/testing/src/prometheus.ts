// @ts-expect-error: the parser ships no types; its answer is described by `MetricFamily` below.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/**
 * One metric family as Prometheus's text format gives it (parse-prometheus-text-format's shape). The
 * parser keeps a histogram's buckets but not its labels, so a histogram per label set is read from the
 * text (`histogramCount`).
 */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string> }[];
}

export interface Scrape {
  families: MetricFamily[];
  text: string;
}

/**
 * A process's `/metrics`, read as Prometheus reads it: fetched (with `headers`, a bearer token say) and
 * parsed by a parser of the exposition format, so a malformed line fails the test.
 */
export async function scrapeMetrics(baseUrl: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  return { families: parsePrometheusTextFormat(text) as MetricFamily[], text };
}

/**
 * The sum over the counter's or gauge's samples of `name` whose labels include `labels`; for a
 * histogram, its observations (the `+Inf` buckets). Undefined when none matches.
 */
export function metricValue(scrape: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = scrape.families.find((f) => f.name === name);
  if (family?.type === 'HISTOGRAM') return family.metrics.reduce((sum, m) => sum + Number(m.buckets?.['+Inf'] ?? 0), 0);
  const matching = (family?.metrics ?? []).filter((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  if (matching.length === 0) return undefined;
  return matching.reduce((sum, m) => sum + Number(m.value ?? 0), 0);
}

/** A histogram's observations for one label set, from its `_count` line (labels in any order). */
export function histogramCount(scrape: Scrape, name: string, labels: Record<string, string>): number | undefined {
  const line = scrape.text
    .split('\n')
    .find(
      (l) =>
        l.startsWith(`${name}_count{`) &&
        Object.entries(labels).every(([key, value]) => l.includes(`${key}=${JSON.stringify(value)}`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
