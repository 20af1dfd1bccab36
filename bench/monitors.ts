/**
 * Monitors benchmark: 1,000 monitors checked every 60 s against a local target, for three periods.
 * Reports how far each check strays from its schedule (the time between a monitor's consecutive
 * checks, against 60 s: p50 / p99), how many checks ran, the CPU each cost this process (the
 * identity, billing, projects and monitors services and the checker all run here) and the process's
 * RSS. Real PostgreSQL and NATS; the checker ticking every second, as in production.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import { percentile, startMonitorsStack } from './monitors-stack.ts';

export interface MonitorsResult {
  monitors: number;
  intervalSeconds: number;
  seconds: number;
  checks: number;
  /** |time between a monitor's consecutive checks − its interval|, in ms. */
  driftP50Ms: number;
  driftP99Ms: number;
  driftMaxMs: number;
  cpuPerCheckUs: number;
  rssMiB: number;
}

export async function runMonitors(count = 1000, periods = 3): Promise<MonitorsResult> {
  const intervalSeconds = 60;
  // The target: a site that answers at once, noting when each monitor's check arrived.
  const hits = new Map<string, number[]>();
  const target = createServer((req, res) => {
    const key = req.url ?? '/';
    const list = hits.get(key) ?? [];
    list.push(performance.now());
    hits.set(key, list);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  const stack = await startMonitorsStack('bench_monitors', { CHECKER_ENABLED: 'false', MONITOR_ALLOWED_HOSTS: host });
  const { monitors } = stack;
  try {
    await stack.addMonitors(
      Array.from({ length: count }, (_, n) => `http://${host}/m${n}`),
      intervalSeconds,
    );
    const checker = createChecker(monitors.context, checkOutbound({ allowedHosts: [host], timeoutMs: 10_000 }));
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    checker.start();
    await new Promise((r) => setTimeout(r, periods * intervalSeconds * 1000 + 2000));
    await checker.stop();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const checks = [...hits.values()].reduce((sum, list) => sum + list.length, 0);
    const drifts = [...hits.values()]
      .flatMap((list) => list.slice(1).map((at, i) => Math.abs(at - list[i]! - intervalSeconds * 1000)))
      .sort((a, b) => a - b);
    return {
      monitors: count,
      intervalSeconds,
      seconds: Math.round(seconds),
      checks,
      driftP50Ms: Math.round(percentile(drifts, 50)),
      driftP99Ms: Math.round(percentile(drifts, 99)),
      driftMaxMs: Math.round(drifts.at(-1) ?? Number.NaN),
      cpuPerCheckUs: Math.round((cpu.user + cpu.system) / Math.max(1, checks)),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    };
  } finally {
    await stack.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  }
}
