/**
 * Monitors benchmark: 1,000 monitors checked every 60 s against a local target, for three periods.
 * Reports how far each check strays from its schedule (the time between a monitor's consecutive
 * checks, against 60 s: p50 / p99), how many checks ran, the CPU each cost this process (the
 * identity, projects and monitors services and the checker all run here) and the process's RSS.
 * Real PostgreSQL and NATS; the checker ticking every second, as in production.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { identityService } from '@shiplog/identity';
import { monitorsService } from '@shiplog/monitors';
import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import { projectsService } from '@shiplog/projects';
import { MAX_MONITORS } from '@shiplog/schemas';
import { createMailer, signInternalToken, startService } from '@shiplog/service-kit';
import { createTestBusNamespace, createTestDatabase, natsUrl } from '@shiplog/testing';

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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function runMonitors(count = 1000, periods = 3): Promise<MonitorsResult> {
  const intervalSeconds = 60;
  const db = await createTestDatabase('bench_monitors');
  const ns = createTestBusNamespace('bench_monitors');
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
  const secret = 'bench-internal-secret-bench-internal-secret';
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    BUS_NAMESPACE: ns.namespace,
    INTERNAL_TOKEN_SECRET: secret,
    VAULT_KEY_SECRET: secret,
    SERVICE_PORT: '0',
    LOG_LEVEL: 'silent',
    CHECKER_ENABLED: 'false',
    MONITOR_ALLOWED_HOSTS: host,
  };
  const identity = await startService(identityService, env);
  const projects = await startService(projectsService, env);
  const monitors = await startService(monitorsService, env);
  const post = (url: string, token: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shiplog-internal-token': token },
      body: JSON.stringify(body),
    });
  try {
    // An account keeps up to MAX_MONITORS: as many users as that takes, each with one project.
    const anonymous = signInternalToken(secret, { userId: null, username: null, isAdmin: false });
    const users = Math.ceil(count / MAX_MONITORS);
    const run = Date.now().toString(36);
    let made = 0;
    await Promise.all(
      Array.from({ length: users }, async (_, u) => {
        const registered = await post(`${identity.url}/register`, anonymous, {
          username: `bench${run}u${u}`,
          password: 'bench-password',
        });
        const user = (await registered.json()) as { id: string; username: string };
        const token = signInternalToken(secret, { userId: user.id, username: user.username, isAdmin: false });
        const project = (await (await post(`${projects.url}/projects`, token, { name: `Site ${u}` })).json()) as {
          id: string;
        };
        for (let m = 0; m < MAX_MONITORS && made < count; m++) {
          const n = made++;
          for (;;) {
            const response = await post(`${monitors.url}/projects/${project.id}/monitors`, token, {
              url: `http://${host}/m${n}`,
              intervalSeconds,
            });
            if (response.status === 201) break;
            // The monitors service learns of the project from the bus a moment after it is created.
            if (response.status !== 404) throw new Error(`add monitor answered ${response.status}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }),
    );
    const { pool } = monitors.context;
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors.monitor_list');
      if (rows[0]!.n >= count) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const checker = createChecker(
      monitors.context,
      createMailer({ smtpUrl: undefined, from: 'Shiplog <bench@shiplog.test>', logger: monitors.context.logger }),
      checkOutbound({ allowedHosts: [host], timeoutMs: 10_000 }),
    );
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
    await monitors.stop();
    await projects.stop();
    await identity.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
    await ns.drop();
    await db.drop();
  }
}
