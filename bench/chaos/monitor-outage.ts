/**
 * An outage under faults: a monitored site goes down while the monitors service is killed (`kill -9`),
 * and comes back while NATS is killed. The site is a team workspace's project, and the webhook is the
 * workspace's alert channel (decision 050). Whatever the faults, the webhook gets exactly one "down"
 * alert and one "up again" alert (decision 034): each alert's id once, however many tries it took. The
 * app runs as `npm start` runs it (processes.ts), with a local site and a local webhook receiver.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@shiplog/system';
import { freePort, freeServicePortBase, uniqueName } from '@shiplog/testing';
import { startTargetStandIn } from '@shiplog/testing/targets';
import { startWebhookStandIn } from '@shiplog/testing/webhooks';
import { startFleet } from './processes.ts';
import { chaosSecrets } from './run.ts';

export interface MonitorOutageResult {
  /** Distinct alerts of each kind at the webhook, and the deliveries (tries) that brought them. */
  downAlerts: number;
  upAlerts: number;
  deliveries: number;
  /** From the site failing (the monitors service killed at once) to the down alert at the webhook. */
  downAlertSeconds: number;
  /** From the site answering again (NATS killed at once) to the up alert at the webhook. */
  upAlertSeconds: number;
  crashes: string[];
}

export const monitorOutagePassed = (r: MonitorOutageResult) =>
  r.downAlerts === 1 && r.upAlerts === 1 && r.crashes.length === 0;

const INTERVAL_SECONDS = 30;

export async function runMonitorOutage(log: (line: string) => void = () => {}): Promise<MonitorOutageResult> {
  const [site, hooks] = await Promise.all([startTargetStandIn(), startWebhookStandIn()]);
  const ports = {
    postgres: await freePort(),
    nats: await freePort(),
    redis: await freePort(),
    gateway: await freePort(),
    serviceBase: await freeServicePortBase(),
  };
  const fleet = await startFleet({
    ports,
    env: {
      ...chaosSecrets,
      BUS_NAMESPACE: uniqueName('chaosmon').toLowerCase(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      MONITOR_ALLOWED_HOSTS: `${site.host},${hooks.host}`,
    },
  });
  try {
    const client = new Client(fleet.gatewayUrl, { timeoutMs: 10_000 });
    const registered = await client.post('/api/register', {
      username: uniqueName('watcher'),
      password: 'chaos-pass-123',
    });
    if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
    const workspace = await client.post('/api/workspaces', { name: 'Watchers' });
    if (workspace.status !== 201) throw new Error(`workspace answered ${workspace.status}`);
    const project = await client.post('/api/projects', { name: 'Watched Site', workspaceId: workspace.body.id });
    const monitor = await client.post(`/api/projects/${project.body.id}/monitors`, {
      url: site.url,
      intervalSeconds: INTERVAL_SECONDS,
      failureThreshold: 1,
    });
    const channel = await client.post(`/api/workspaces/${workspace.body.id}/alert-channels`, {
      kind: 'webhook',
      name: 'Receiver',
      url: `${hooks.url}/alerts`,
    });
    if (monitor.status !== 201 || channel.status !== 201)
      throw new Error(`monitor ${monitor.status}, channel ${channel.status}`);
    const state = async () =>
      ((await client.get('/api/monitors')).body as { id: string; state: string }[]).find(
        (m) => m.id === monitor.body.id,
      )?.state;
    await until(async () => (await state()) === 'up', 30_000, 'the first check');

    const alerts = (type: string) =>
      hooks.received
        .map((hook) => ({ hook, message: JSON.parse(hook.body) as { id: string; type: string } }))
        .filter(({ message }) => message.type === type);
    const fault = async (name: string) => {
      const part = fleet.byName(name);
      await part.kill();
      await sleep(3000);
      await part.restart();
    };

    log('the site goes down; kill -9 monitors');
    const downAt = Date.now();
    site.mode = 'down';
    await fault('monitors');
    await until(async () => alerts('incident.opened').length > 0, 3 * INTERVAL_SECONDS * 1000, 'the down alert');
    const downAlertSeconds = (alerts('incident.opened')[0]!.hook.receivedAt - downAt) / 1000;

    log('the site is back; kill -9 nats');
    const upAt = Date.now();
    site.mode = 'up';
    await fault('nats');
    await until(async () => alerts('incident.closed').length > 0, 3 * INTERVAL_SECONDS * 1000, 'the up alert');
    const upAlertSeconds = (alerts('incident.closed')[0]!.hook.receivedAt - upAt) / 1000;
    // One more check period, for anything sent twice to arrive.
    await sleep((INTERVAL_SECONDS + 5) * 1000);
    const distinct = (type: string) => new Set(alerts(type).map(({ message }) => message.id)).size;
    return {
      downAlerts: distinct('incident.opened'),
      upAlerts: distinct('incident.closed'),
      deliveries: hooks.received.length,
      downAlertSeconds: Math.round(downAlertSeconds * 10) / 10,
      upAlertSeconds: Math.round(upAlertSeconds * 10) / 10,
      crashes: fleet.crashes.map((c) => `${c.name} (${c.exit})`),
    };
  } finally {
    await fleet.stop();
    await Promise.all([site.stop(), hooks.stop()]);
  }
}

async function until(done: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(250);
  }
}
