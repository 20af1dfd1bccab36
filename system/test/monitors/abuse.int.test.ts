import { randomUUID } from 'node:crypto';
import { createAlertSender } from '@shiplog/monitors/alert-sender';
import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import type { MonitorsEnv } from '@shiplog/monitors/env';
import { testMessage } from '@shiplog/monitors/webhooks';
import { Outbound } from '@shiplog/outbound';
import { MAX_MONITORS } from '@shiplog/schemas';
import { createMailer, type ServiceContext } from '@shiplog/service-kit';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { startTargetStandIn, type TargetStandIn } from '@shiplog/testing/targets';
import { startWebhookStandIn, type WebhookStandIn } from '@shiplog/testing/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What one account can do to the others through monitors: more monitors than the cap by racing,
 * writes without end, targets and webhooks that never answer; and what a public page must not show.
 * The backend runs with its limits on (the harness turns them off), monitor writes at 50 an hour.
 */
let backend: Backend;
let site: TargetStandIn;
/** Alice's site: only her monitor checks it. */
let aliceSite: TargetStandIn;
let hooks: WebhookStandIn;
/** Servers that accept a connection and never answer, each its own host. */
let tarpits: TargetStandIn[];
const WRITES = 50;

beforeAll(async () => {
  [site, aliceSite, hooks, ...tarpits] = await Promise.all([
    startTargetStandIn(),
    startTargetStandIn(),
    startWebhookStandIn(),
    ...Array.from({ length: 6 }, () => startTargetStandIn()),
  ]);
  for (const tarpit of tarpits) tarpit.mode = 'hang';
  backend = await startBackend({
    env: {
      MONITOR_ALLOWED_HOSTS: [site.host, aliceSite.host, hooks.host, ...tarpits.map((t) => t.host)].join(','),
      RATE_LIMITS: 'on',
      RATE_LIMIT_MONITOR_WRITE: `${WRITES}/3600`,
    },
  });
});
afterAll(async () => {
  await backend?.stop();
  await Promise.all([site?.stop(), aliceSite?.stop(), hooks?.stop(), ...(tarpits ?? []).map((t) => t.stop())]);
});

/** The monitors service's context, its loops every 100 ms (they run on the test's clock). */
function monitorsContext(): ServiceContext<MonitorsEnv> {
  const context = backend.service('monitors').context as unknown as ServiceContext<MonitorsEnv>;
  return { ...context, config: { ...context.config, CHECKER_INTERVAL_MS: 100 } };
}

async function builder(prefix: string) {
  const user = await backend.signUp(prefix);
  const project = await user.client.post('/api/projects', { name: `${prefix} site` });
  expect(project.status).toBe(201);
  return { ...user, projectId: project.body.id as string };
}

describe('monitors under abuse', () => {
  it('never keeps more monitors than the cap, however many adds race', async () => {
    const racer = await builder('racer');
    // Expected runs: nothing is fetched for them.
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        racer.client.post(`/api/projects/${racer.projectId}/monitors`, { kind: 'backup', intervalSeconds: 86_400 }),
      ),
    );
    const made = answers.filter((a) => a.status === 201);
    expect(made).toHaveLength(MAX_MONITORS);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('MONITOR_LIMIT_REACHED');
    }
    // Thirty answers at once each set the read-your-writes cookie to their own write's position, the
    // last to arrive winning, which need not be the latest write: the list is read once it holds them.
    await waitUntil(async () => (await racer.client.get('/api/monitors')).body.length === MAX_MONITORS);
    expect((await racer.client.get('/api/monitors')).body).toHaveLength(MAX_MONITORS);

    // A removed monitor's slot is free at once.
    expect((await racer.client.request('DELETE', `/api/monitors/${made[0]!.body.id}`)).status).toBe(204);
    const again = await racer.client.post(`/api/projects/${racer.projectId}/monitors`, {
      kind: 'backup',
      intervalSeconds: 86_400,
    });
    expect(again.status).toBe(201);
  });

  it('limits adding and changing monitors per user, and another user is unaffected', async () => {
    const [busy, other] = [await builder('busy'), await builder('calm')];
    const missing = '0190a1b2-0000-7000-8000-0000000000b1';
    for (let i = 0; i < WRITES; i++)
      expect((await busy.client.request('PATCH', `/api/monitors/${missing}`, { intervalSeconds: 300 })).status).toBe(
        404,
      );
    const refused = await busy.client.post(`/api/projects/${busy.projectId}/monitors`, { url: site.url });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Reads are not counted.
    expect((await busy.client.get('/api/monitors')).status).toBe(200);
    expect((await other.client.post(`/api/projects/${other.projectId}/monitors`, { url: site.url })).status).toBe(201);
  });

  it('tells the cards that a server without a mail server sends no alert email', async () => {
    const { client } = await backend.signUp('nomail');
    expect((await client.get('/api/alert-channels/email')).body).toEqual({ sends: false });
  });

  it('shows no keyword on the public status page, where its owner sees it in full', async () => {
    const owner = await backend.signUp('open');
    expect(
      (await owner.client.post('/api/profile', { displayName: 'Open Builder', projectVisibility: 'public' })).status,
    ).toBe(200);
    const project = await owner.client.post('/api/projects', { name: 'Open site' });
    const monitor = await owner.client.post(`/api/projects/${project.body.id}/monitors`, {
      url: site.url,
      keyword: 'secret-string',
    });
    expect(monitor.status).toBe(201);
    await owner.client.get('/api/monitors');
    // Two checks a minute apart find the keyword missing: an incident.
    const checker = createChecker(monitorsContext(), checkOutbound({ allowedHosts: [site.host], timeoutMs: 1000 }));
    const start = Date.now();
    await checker.tick(() => new Date(start));
    await checker.tick(() => new Date(start + 61_000));
    await checker.stop();
    let owned: { cause: string }[] = [];
    await waitUntil(async () => {
      owned = (await owner.client.get(`/api/monitors/${monitor.body.id}/incidents`)).body;
      return owned.length > 0;
    });
    expect(owned[0]!.cause).toContain('secret-string');

    const page = await new Client(backend.url).get(`/api/public/users/${owner.username}/status`);
    expect(page.status).toBe(200);
    expect(page.body.incidents).toMatchObject([{ monitorId: monitor.body.id, cause: 'Expected content not found' }]);
    expect(page.text).not.toContain('secret-string');
  });

  it('keeps alert deliveries as long as raw check results, then drops them', async () => {
    const user = await backend.signUp('kept');
    const { pool } = backend.service('monitors').context;
    const now = Date.now();
    const day = 86_400_000;
    for (const age of [8 * day, 6 * day])
      await pool.query(
        `INSERT INTO monitors.alert_deliveries (delivery_id, alert_id, channel_id, user_id, channel_name, kind, message, state, next_at, created_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), $1, $1, 'Email', 'test', '{}', 'sent', $2, $2)`,
        [user.id, new Date(now - age)],
      );
    const checker = createChecker(monitorsContext(), checkOutbound({ allowedHosts: [], timeoutMs: 1000 }));
    await checker.prune(new Date(now));
    await checker.stop();
    const { rows } = await pool.query<{ created_at: Date }>(
      'SELECT created_at FROM monitors.alert_deliveries WHERE user_id = $1',
      [user.id],
    );
    expect(rows.map((r) => r.created_at.getTime())).toEqual([now - 6 * day]);
  });

  it('checks every other account on time while one account’s targets never answer', async () => {
    const mallory = await builder('mallory');
    const alice = await builder('alice');
    for (const tarpit of tarpits)
      expect(
        (await mallory.client.post(`/api/projects/${mallory.projectId}/monitors`, { url: tarpit.url })).status,
      ).toBe(201);
    const watched = await alice.client.post(`/api/projects/${alice.projectId}/monitors`, { url: aliceSite.url });
    expect(watched.status).toBe(201);
    // Both lists show them (the checker claims from the list).
    await mallory.client.get('/api/monitors');
    await alice.client.get('/api/monitors');

    let now = Date.now();
    const checker = createChecker(
      monitorsContext(),
      // Longer than the test: a tarpit's check ends only when the checker stops.
      checkOutbound({ allowedHosts: [site.host, aliceSite.host, ...tarpits.map((t) => t.host)], timeoutMs: 30_000 }),
      { now: () => new Date(now) },
    );
    const { config } = monitorsContext();
    const hung = () => tarpits.reduce((sum, t) => sum + t.hits, 0);
    try {
      checker.start();
      await waitUntil(() => aliceSite.hits === 1 && hung() >= config.CHECKER_PER_USER, 5000, 'the first checks');
      // A minute on: Alice's site is due again while Mallory's checks still hang.
      now += 61_000;
      await waitUntil(() => aliceSite.hits === 2, 5000, 'Alice’s next check');
      // Mallory never has more than her share under way.
      expect(hung()).toBe(config.CHECKER_PER_USER);
    } finally {
      await checker.stop();
    }
  });

  it('sends every other account’s alerts while one account’s webhooks never answer', async () => {
    const mallory = await builder('mallet');
    const alice = await builder('alicia');
    const channel = async (user: typeof alice, url: string) => {
      const made = await user.client.post('/api/alert-channels', { kind: 'webhook', name: `Hook ${url}`, url });
      expect(made.status, made.text).toBe(201);
      return made.body.id as string;
    };
    const tarpitChannels: string[] = [];
    for (const tarpit of tarpits) tarpitChannels.push(await channel(mallory, `${tarpit.url}hook`));
    const aliceChannel = await channel(alice, `${hooks.url}/alice`);

    const { pool } = backend.service('monitors').context;
    let now = Date.now();
    /** A delivery in the outbox, as the alert outbox writes one. */
    const deliver = (userId: string, channelId: string) =>
      pool.query(
        `INSERT INTO monitors.alert_deliveries (delivery_id, alert_id, channel_id, user_id, channel_name, kind, message, next_at, created_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), $1, $2, 'Hook', 'test', $3, $4, $4)`,
        [channelId, userId, testMessage(randomUUID(), 'Hook', 'https://shiplog.test', new Date(now)), new Date(now)],
      );
    for (const channelId of tarpitChannels) await deliver(mallory.id, channelId);

    const outbound = new Outbound({ allowedHosts: [hooks.host, ...tarpits.map((t) => t.host)], timeoutMs: 30_000 });
    const sender = createAlertSender(
      monitorsContext(),
      outbound,
      createMailer({ smtpUrl: undefined, from: 'Shiplog <alerts@shiplog.test>', logger: monitorsContext().logger }),
      { now: () => new Date(now) },
    );
    const hung = () => tarpits.reduce((sum, t) => sum + t.hits, 0);
    const hitsBefore = hung();
    try {
      sender.start();
      await waitUntil(() => hung() > hitsBefore, 5000, 'Mallory’s deliveries under way');
      // Alice's alert comes while Mallory's hang: it goes at the next tick.
      now += 1000;
      await deliver(alice.id, aliceChannel);
      await waitUntil(() => hooks.received.some((h) => h.path === '/alice'), 5000, 'Alice’s alert');
    } finally {
      await sender.stop();
      await outbound.close();
    }
  });
});
