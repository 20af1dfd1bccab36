import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type DomainStandIn, startDomainStandIn } from '@shiplog/testing/domains';
import { startWebhookStandIn, type WebhookStandIn } from '@shiplog/testing/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Answer = Awaited<ReturnType<Client['request']>>;

/**
 * Every create the web app makes, sent twice with one `Idempotency-Key` (a double click, a retry after
 * no answer): one record. One after the other, and both at once.
 */
const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;
let domains: DomainStandIn;
let hooks: WebhookStandIn;

beforeAll(async () => {
  [domains, hooks] = await Promise.all([startDomainStandIn(), startWebhookStandIn()]);
  backend = await startBackend({
    adminPassword: ADMIN_PASSWORD,
    env: {
      INTEGRATION_ALLOWED_HOSTS: domains.host,
      INTEGRATION_KEY_SECRET: 'an-integration-key-secret-for-the-tests-0123',
      MONITOR_ALLOWED_HOSTS: hooks.host,
    },
  });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
  await Promise.all([domains?.stop(), hooks?.stop()]);
});

type User = Awaited<ReturnType<Backend['signUp']>> & { projectId: string };

interface Create {
  /** The call, with its body for the `n`th key (bodies differ where a name must be unique). */
  send: (user: User, n: number, headers: Record<string, string>) => Promise<Answer>;
  /** How many records of its kind the user's account holds now (once it shows at least `atLeast`). */
  count: (user: User, atLeast?: number) => Promise<number>;
  /** What a repeat answers, when not the first answer again. */
  repeat?: number;
}

const length = async (answer: Promise<Answer>) => {
  const { status, body } = await answer;
  expect(status).toBe(200);
  return (body as unknown[]).length;
};
const timeline = (user: User, eventType: string) =>
  user.client
    .get(`/api/projects/${user.projectId}/activities`)
    .then(({ body }) => (body as { eventType: string }[]).filter((a) => a.eventType === eventType).length);

const creates: Record<string, Create> = {
  project: {
    send: (user, n, headers) => user.client.request('POST', '/api/projects', { name: `Side project ${n}` }, headers),
    count: (user) => length(user.client.get('/api/projects')),
  },
  reminder: {
    send: (user, n, headers) =>
      user.client.request(
        'POST',
        '/api/reminders',
        { projectId: user.projectId, title: `Renew ${n}`, dueDate: '2027-03-01T12:00:00.000Z', frequency: 'weekly' },
        headers,
      ),
    count: (user) => length(user.client.get('/api/reminders')),
  },
  backup: {
    send: (user, n, headers) =>
      user.client.request('POST', `/api/projects/${user.projectId}/backup`, { version: `1.${n}` }, headers),
    count: (user) => timeline(user, 'backup_created'),
  },
  deployment: {
    send: (user, n, headers) =>
      user.client.request('POST', `/api/projects/${user.projectId}/deployment`, { version: `1.${n}` }, headers),
    count: (user) => timeline(user, 'deployment'),
  },
  release: {
    send: (user, n, headers) =>
      user.client.request(
        'POST',
        `/api/projects/${user.projectId}/version`,
        { version: `1.${n}.0`, changes: ['Faster'] },
        headers,
      ),
    count: (user) => timeline(user, 'version_release'),
  },
  'quick update': {
    send: (user, n, headers) =>
      user.client.request('POST', '/api/activities', { projectId: user.projectId, notes: `Note ${n}` }, headers),
    count: (user) => timeline(user, 'project_updated'),
  },
  monitor: {
    send: (user, _n, headers) =>
      user.client.request(
        'POST',
        `/api/projects/${user.projectId}/monitors`,
        { kind: 'backup', intervalSeconds: 86_400 },
        headers,
      ),
    count: (user) => length(user.client.get(`/api/projects/${user.projectId}/monitors`)),
  },
  'alert channel': {
    send: (user, n, headers) =>
      user.client.request(
        'POST',
        '/api/alert-channels',
        { kind: 'slack', name: `Team ${n}`, url: `${hooks.url}/slack/${n}` },
        headers,
      ),
    count: (user) => length(user.client.get('/api/alert-channels')),
  },
  integration: {
    send: (user, n, headers) =>
      user.client.request(
        'POST',
        '/api/integrations',
        { siteName: `Registrar ${n}`, baseUrl: domains.url, apiKey: domains.apiKey },
        headers,
      ),
    count: (user) => length(user.client.get('/api/integrations')),
  },
  'API token': {
    send: (user, n, headers) => user.client.request('POST', '/api/tokens', { name: `CI ${n}` }, headers),
    count: (user) => length(user.client.get('/api/tokens')),
    // Its text is kept only as a hash: it cannot be answered twice.
    repeat: 409,
  },
  'admin comment': {
    send: (_user, n, headers) =>
      admin.request('POST', '/api/admin/comments', { message: `Maintenance window ${n}`, priority: 'normal' }, headers),
    count: async () =>
      (await admin.get('/api/admin/comments/all')).body.filter((c: { message: string }) =>
        c.message.startsWith('Maintenance window'),
      ).length,
  },
  'contact message': {
    send: (user, n, headers) =>
      user.client.request(
        'POST',
        '/api/contact-admin',
        { subject: `Help ${n}`, message: 'My import stopped.' },
        headers,
      ),
    // The administrator's inbox, read in another session: what the user's sends reached is waited for.
    count: async (user, atLeast = 0) => {
      const count = async () =>
        (await admin.get('/api/admin/contact-messages')).body.filter(
          (m: { username: string }) => m.username === user.username,
        ).length;
      await waitUntil(async () => (await count()) >= atLeast, 5000, 'the inbox');
      return count();
    },
  },
};

async function userWithProject(prefix: string): Promise<User> {
  const user = await backend.signUp(prefix);
  const subscribed = await admin.request('PUT', `/api/admin/users/${user.id}/subscription`, {
    subscriptionStatus: 'active',
  });
  expect(subscribed.status).toBe(200);
  const project = await user.client.post('/api/projects', { name: 'Weather API' });
  expect(project.status).toBe(201);
  return { ...user, projectId: project.body.id };
}

describe('a create sent twice with one Idempotency-Key', () => {
  it.each(Object.keys(creates))('makes one %s', async (kind) => {
    const create = creates[kind]!;
    const user = await userWithProject(kind.replace(/\W/g, '').slice(0, 8));
    const before = await create.count(user);

    // One after the other: a retry after an answer that never arrived.
    const key = { 'idempotency-key': `submit-${kind.replace(/\W/g, '-')}-1` };
    const first = await create.send(user, 1, key);
    expect([first.status, first.body]).toEqual([201, expect.anything()]);
    const again = await create.send(user, 1, key);
    expect([again.status, again.body]).toEqual([create.repeat ?? 201, expect.anything()]);
    if (!create.repeat && first.body && typeof first.body === 'object' && 'id' in first.body)
      expect(again.body.id).toBe(first.body.id);
    expect(await create.count(user, before + 1)).toBe(before + 1);

    // Both at once: a double click whose requests cross.
    const both = { 'idempotency-key': `submit-${kind.replace(/\W/g, '-')}-2` };
    const answers = await Promise.all([create.send(user, 2, both), create.send(user, 2, both)]);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    expect(answers.map((a) => a.status)).toContain(201);
    expect(await create.count(user, before + 2)).toBe(before + 2);

    // Another key is another record.
    expect((await create.send(user, 3, { 'idempotency-key': `submit-${kind.replace(/\W/g, '-')}-3` })).status).toBe(
      201,
    );
    // The sentinel: with it counted, a second record of either key would be too.
    expect(await create.count(user, before + 3)).toBe(before + 3);
  });
});
