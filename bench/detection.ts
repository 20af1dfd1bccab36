/**
 * Detection benchmark: 100 monitors checked every 30 s, each against a local site of its own, with
 * every account's alerts also going to a webhook. All the sites go down at once, then come back. For
 * each of the 100 outages: from the site failing to its incident opening (target: within 2 check
 * periods + 5 s), and from the incident to its alert arriving at the webhook (within 5 s); the same
 * for the recoveries. The monitors service runs its own checker and alert sender, ticking every
 * second as in production, over real PostgreSQL and NATS.
 */
import { startTargetStandIn } from '@shiplog/testing/targets';
import { startWebhookStandIn } from '@shiplog/testing/webhooks';
import { percentile, startMonitorsStack } from './monitors-stack.ts';

const SITES = 100;
const INTERVAL_SECONDS = 30;

interface Series {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface DetectionResult {
  outages: number;
  intervalSeconds: number;
  /** From the sites going down to each incident opening. */
  down: Series;
  /** From each incident opening to its alert at the webhook. */
  downAlert: Series;
  /** From the sites coming back to each incident closing. */
  up: Series;
  upAlert: Series;
}

const series = (values: number[]): Series => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: Math.round(percentile(sorted, 50)),
    p99Ms: Math.round(percentile(sorted, 99)),
    maxMs: Math.round(sorted.at(-1) ?? Number.NaN),
  };
};

export async function runDetection(): Promise<DetectionResult> {
  const [hooks, ...sites] = await Promise.all([
    startWebhookStandIn(),
    ...Array.from({ length: SITES }, () => startTargetStandIn()),
  ]);
  const stack = await startMonitorsStack('bench_detection', {
    MONITOR_ALLOWED_HOSTS: [hooks!.host, ...sites.map((s) => s.host)].join(','),
  });
  const { pool } = stack.monitors.context;
  try {
    const tokens = await stack.addMonitors(
      sites.map((s) => s.url),
      INTERVAL_SECONDS,
    );
    for (const [i, token] of tokens.entries()) {
      const made = await stack.post(`${stack.monitors.url}/alert-channels`, token, {
        kind: 'webhook',
        name: 'Bench receiver',
        url: `${hooks!.url}/account-${i}`,
      });
      if (made.status !== 201) throw new Error(`adding an alert channel answered ${made.status}`);
    }
    // Every monitor checked and up before the outage.
    await until(
      async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(DISTINCT monitor_id)::int AS n FROM monitors.check_results WHERE ok`,
        );
        return rows[0]!.n >= SITES;
      },
      2 * INTERVAL_SECONDS * 1000 + 10_000,
    );

    const alerts = (type: string) =>
      hooks!.received
        .map((hook) => ({ hook, message: JSON.parse(hook.body) as { type: string; at: string } }))
        .filter(({ message }) => message.type === type);
    const outage = async (type: 'incident.opened' | 'incident.closed', mode: 'down' | 'up') => {
      const changedAt = Date.now();
      for (const site of sites) site.mode = mode;
      await until(async () => alerts(type).length >= SITES, 3 * INTERVAL_SECONDS * 1000 + 15_000);
      const received = alerts(type);
      return {
        detected: series(received.map(({ message }) => Date.parse(message.at) - changedAt)),
        alerted: series(received.map(({ hook, message }) => hook.receivedAt - Date.parse(message.at))),
      };
    };
    const down = await outage('incident.opened', 'down');
    const up = await outage('incident.closed', 'up');
    return {
      outages: SITES,
      intervalSeconds: INTERVAL_SECONDS,
      down: down.detected,
      downAlert: down.alerted,
      up: up.detected,
      upAlert: up.alerted,
    };
  } finally {
    await stack.stop();
    await Promise.all([hooks!.stop(), ...sites.map((s) => s.stop())]);
  }
}

async function until(done: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
