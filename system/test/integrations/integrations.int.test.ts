import { createServer, type Server } from 'node:net';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { type DomainStandIn, standInDomains, startDomainStandIn } from '@shiplog/testing/domains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: DomainStandIn;
let backend: Backend;
/** A port on 127.0.0.1 that is not allowed: nothing may ever connect to it. */
let trap: Server;
let trapPort: number;
let trapConnections = 0;
/**
 * A port on an allowed host where nothing listens: tcpmux's. A port freed a moment before was taken by
 * another test's service in a full run (and answered with our own 404).
 */
const closedPort = 1;

beforeAll(async () => {
  api = await startDomainStandIn();
  trap = createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  trapPort = await new Promise<number>((resolve) =>
    trap.listen(0, '127.0.0.1', () => resolve((trap.address() as { port: number }).port)),
  );
  backend = await startBackend({
    env: {
      INTEGRATION_ALLOWED_HOSTS: `${api.host},127.0.0.1:${closedPort}`,
      INTEGRATION_TIMEOUT_MS: '1000',
      INTEGRATION_KEY_SECRET: 'an-integration-key-secret-for-the-tests-0123',
    },
  });
});
afterAll(async () => {
  await backend?.stop();
  await api?.stop();
  await new Promise((resolve) => trap?.close(resolve));
});

const form = (overrides: Record<string, unknown> = {}) => ({
  siteName: 'My Registrar',
  baseUrl: api.url,
  apiKey: api.apiKey,
  ...overrides,
});

async function saved(client: Client, overrides: Record<string, unknown> = {}) {
  const response = await client.post('/api/integrations', form(overrides));
  expect(response.status).toBe(201);
  return response.body as { id: string; siteName: string };
}

describe('integrations: save, list, delete', () => {
  it('validates the form with the spec’s messages and stores nothing on a bad one', async () => {
    const { client } = await backend.signUp('formfill');
    const bad = await client.post('/api/integrations', { siteName: 'ab', baseUrl: 'example.com', apiKey: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      siteName: ['Site name must be at least 3 characters'],
      baseUrl: ['Please enter a valid URL including http:// or https://'],
      apiKey: ['API key appears to be too short'],
    });
    for (const body of [null, [], 'text', { siteName: 3, baseUrl: {}, apiKey: [] }, { baseUrl: 'ftp://x.example' }]) {
      expect((await client.post('/api/integrations', body)).status).toBe(400);
    }
    expect((await client.get('/api/integrations')).body).toEqual([]);
  });

  it('lists the caller’s integrations without the key; a second one of the same name is 409', async () => {
    const { client, id } = await backend.signUp('lister');
    const integration = await saved(client);
    expect(integration).not.toHaveProperty('apiKey');
    const listed = await client.get('/api/integrations');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: integration.id,
        userId: id,
        siteName: 'My Registrar',
        baseUrl: api.url,
        isActive: true,
        lastUsed: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(listed.text).not.toContain(api.apiKey);
    const again = await client.post('/api/integrations', form({ siteName: 'my registrar' }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INTEGRATION_EXISTS');
  });

  it('answers 404 for another user’s integration on every route', async () => {
    const owner = await backend.signUp('owner');
    const integration = await saved(owner.client);
    const { client: other } = await backend.signUp('other');
    expect((await other.get('/api/integrations')).body).toEqual([]);
    expect((await other.get(`/api/integrations/${integration.id}/projects`)).status).toBe(404);
    expect((await other.post(`/api/integrations/${integration.id}/import`, { projectIds: ['1'] })).status).toBe(404);
    expect((await other.request('DELETE', `/api/integrations/${integration.id}`)).status).toBe(404);
    expect((await other.request('DELETE', '/api/integrations/not-an-id')).status).toBe(404);
    expect((await owner.client.get('/api/integrations')).body).toHaveLength(1);
    expect((await new Client(backend.url).get('/api/integrations')).status).toBe(401);
  });
});

describe('test connection and diagnostics', () => {
  it('reports success with the status, content type and the first 200 characters, storing nothing', async () => {
    const { client } = await backend.signUp('tester');
    const tested = await client.post('/api/integration/test', form());
    expect(tested.status).toBe(200);
    expect(tested.body.success).toBe(true);
    expect(tested.body.message).toMatch(/^Connection successful! Found 3 domains\./);
    expect(tested.body.message).toContain('Status: 200');
    expect(tested.body.message).toContain('Content-Type: application/json');
    expect(tested.body.debug).toEqual({
      statusCode: 200,
      contentType: 'application/json',
      responseData: JSON.stringify(api.domains).slice(0, 200),
    });
    for (const under of ['domains', 'data']) {
      const wrapped = await client.post(
        '/api/integration/test',
        form({ baseUrl: `${api.url}/wrapped?under=${under}` }),
      );
      expect(wrapped.body.success, under).toBe(true);
    }
    expect((await client.get('/api/integrations')).body).toEqual([]);
  });

  it('reports every failure in the body, and an upstream 401 never as our own 401', async () => {
    const { client } = await backend.signUp('failures');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ apiKey: 'not-the-right-key' }, /^Error 401: Unauthorized/],
      [{ baseUrl: `${api.url}/fail` }, /^Error 500: Internal Server Error/],
      [{ baseUrl: `${api.url}/html` }, /^Invalid JSON response: /],
      [{ baseUrl: `${api.url}/huge` }, /^Connection failed: The response is larger than 5 MB/],
      [{ baseUrl: `http://127.0.0.1:${closedPort}` }, /^Network error: /],
      [{ baseUrl: `${api.url}/slow` }, /^Network error: the API did not answer in time/],
    ];
    api.slowMs = 3000;
    for (const [overrides, message] of cases) {
      const tested = await client.post('/api/integration/test', form(overrides));
      expect(tested.status, String(message)).toBe(200);
      expect(tested.body.success).toBe(false);
      expect(tested.body.message).toMatch(message);
      expect(tested.text).not.toContain('not-the-right-key');
    }
    const unauthorized = await client.post('/api/integration/test', form({ apiKey: 'not-the-right-key' }));
    expect(unauthorized.body.debug).toMatchObject({ statusCode: 401, contentType: 'application/json' });
    expect(unauthorized.body.message).toContain('Response: {"error":"Invalid API key"}');
  });

  it('tries every way of sending the key and recommends the first that works', async () => {
    const { client } = await backend.signUp('diagnose');
    const diagnosed = await client.post('/api/integration/diagnostics', form({ baseUrl: `${api.url}/x-api-key` }));
    expect(diagnosed.status).toBe(200);
    expect(diagnosed.body.success).toBe(true);
    expect(
      diagnosed.body.results.map((r: { test: string; success: boolean; status: number }) => [
        r.test,
        r.success,
        r.status,
      ]),
    ).toEqual([
      ['Bearer token', false, 401],
      ['X-API-Key header', true, 200],
      ['Api-Key header', false, 401],
      ['api_key query parameter', false, 401],
    ]);
    expect(diagnosed.body.message).toBe('Recommended authentication method: X-API-Key header (X-API-Key: <key>).');
    expect(diagnosed.text).not.toContain(api.apiKey);
    const query = await client.post('/api/integration/diagnostics', form({ baseUrl: `${api.url}/query` }));
    expect(query.body.message).toMatch(/^Recommended authentication method: api_key query parameter/);
    const none = await client.post('/api/integration/diagnostics', form({ apiKey: 'wrong-key-123' }));
    expect(none.body).toMatchObject({
      success: false,
      message: expect.stringMatching(/^No authentication method worked/),
    });
  });
});

describe('private addresses', () => {
  it('refuses every private address on save, test and diagnostics, and by redirect, with nothing sent there', async () => {
    const { client } = await backend.signUp('ssrf');
    const privateUrls = [
      `http://127.0.0.1:${trapPort}`,
      `http://localhost:${trapPort}`,
      `http://127.1:${trapPort}`,
      `http://2130706433:${trapPort}`,
      `http://0x7f000001:${trapPort}`,
      `http://0.0.0.0:${trapPort}`,
      `http://[::1]:${trapPort}`,
      `http://[::ffff:127.0.0.1]:${trapPort}`,
      'http://169.254.169.254',
      'http://10.0.0.1',
    ];
    for (const baseUrl of privateUrls) {
      for (const path of ['/api/integrations', '/api/integration/test', '/api/integration/diagnostics']) {
        const refused = await client.post(path, form({ baseUrl, siteName: `Private ${privateUrls.indexOf(baseUrl)}` }));
        expect(refused.status, `${path} ${baseUrl}`).toBe(400);
        expect(refused.body.fieldErrors.baseUrl[0]).toMatch(/^Refused: .* is a private, loopback or reserved address/);
      }
    }
    api.redirectTo = `http://127.0.0.1:${trapPort}/api/domains`;
    const redirected = await client.post('/api/integration/test', form({ baseUrl: `${api.url}/redirect` }));
    expect(redirected.body).toMatchObject({ success: false });
    expect(redirected.body.message).toMatch(/^Network error: Refused: 127\.0\.0\.1 is a private/);
    expect((await client.get('/api/integrations')).body).toEqual([]);
    expect(trapConnections).toBe(0);
  });
});

describe('domains and import', () => {
  it('lists the domains, marks lastUsed, and imports the selected ones once each, with renewal reminders', async () => {
    api.domains = standInDomains(3);
    const { client } = await backend.signUp('importer');
    const integration = await saved(client);
    const domains = await client.get(`/api/integrations/${integration.id}/projects`);
    expect(domains.status).toBe(200);
    expect(
      domains.body.map((d: { id: string; domainName: string; imported: boolean }) => [d.id, d.domainName, d.imported]),
    ).toEqual([
      ['1', 'project-1.example.com', false],
      ['2', 'project-2.example.com', false],
      ['3', 'project-3.example.com', false],
    ]);
    expect((await client.get('/api/integrations')).body[0].lastUsed).toEqual(expect.any(String));

    const empty = await client.post(`/api/integrations/${integration.id}/import`, { projectIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors.projectIds).toEqual(['Select at least one domain to import']);

    const first = await client.post(`/api/integrations/${integration.id}/import`, {
      projectIds: [1, '2'],
      renewalReminders: true,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: 'Imported 2 of 2 domains', alreadyImported: 0, remindersCreated: 2 });
    // Read-your-writes across services: the dashboard, the timeline and the reminders show them at once.
    const projects = (await client.get('/api/projects')).body as { id: string; name: string; description: string }[];
    expect(projects.map((p) => p.name).sort()).toEqual(['project-1.example.com', 'project-2.example.com']);
    const one = projects.find((p) => p.name === 'project-1.example.com')!;
    expect(one.description).toBe(
      `Imported from My Registrar. Hosting: Netlify Status: active Expires: ${api.domains[0]!.expiryDate.slice(0, 10)}`,
    );
    const timeline = (await client.get('/api/activities')).body as { eventType: string; projectId: string }[];
    expect(
      timeline
        .filter((a) => a.eventType === 'project_created')
        .map((a) => a.projectId)
        .sort(),
    ).toEqual(projects.map((p) => p.id).sort());
    const reminders = (await client.get('/api/reminders')).body as {
      title: string;
      projectId: string;
      dueDate: string;
    }[];
    expect(reminders.map((r) => r.title).sort()).toEqual([
      'Renew project-1.example.com',
      'Renew project-2.example.com',
    ]);
    // 30 days before the expiry; one that expires sooner is due within the hour.
    const two = projects.find((p) => p.name === 'project-2.example.com')!;
    const dueOf = (projectId: string) => new Date(reminders.find((r) => r.projectId === projectId)!.dueDate).getTime();
    expect(dueOf(two.id)).toBe(new Date(api.domains[1]!.expiryDate).getTime() - 30 * 86_400_000);
    expect(dueOf(one.id) - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(dueOf(one.id) - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    const second = await client.post(`/api/integrations/${integration.id}/import`, {
      projectIds: ['1', '2', '3', '99'],
    });
    expect(second.body).toMatchObject({ message: 'Imported 1 of 4 domains', alreadyImported: 2 });
    expect((await client.get('/api/projects')).body).toHaveLength(3);
    const marked = await client.get(`/api/integrations/${integration.id}/projects`);
    expect(marked.body.every((d: { imported: boolean }) => d.imported)).toBe(true);

    // A project deleted frees its domain: it shows as not imported, and imports again.
    const third = ((await client.get('/api/projects')).body as { id: string; name: string }[]).find(
      (p) => p.name === 'project-3.example.com',
    )!;
    expect((await client.request('DELETE', `/api/projects/${third.id}`)).status).toBe(204);
    const importedNow = async () =>
      ((await client.get(`/api/integrations/${integration.id}/projects`)).body as { id: string; imported: boolean }[])
        .filter((d) => d.imported)
        .map((d) => d.id);
    await expect.poll(importedNow, { timeout: 5000 }).toEqual(['1', '2']);
    const again = await client.post(`/api/integrations/${integration.id}/import`, { projectIds: ['3'] });
    expect(again.body).toMatchObject({ message: 'Imported 1 of 1 domains', alreadyImported: 0 });
    expect(await importedNow()).toEqual(['1', '2', '3']);
    // Deleting a project that came from no domain changes nothing here.
    const own = (await client.post('/api/projects', { name: 'Hand-made' })).body as { id: string };
    expect((await client.request('DELETE', `/api/projects/${own.id}`)).status).toBe(204);

    // Deleting the integration keeps what it imported.
    expect((await client.request('DELETE', `/api/integrations/${integration.id}`)).status).toBe(204);
    expect((await client.get('/api/integrations')).body).toEqual([]);
    expect((await client.get('/api/projects')).body).toHaveLength(3);
  });

  it('reads the domains of an API that wants its key another way, and answers 502 when the API fails', async () => {
    const { client } = await backend.signUp('otherauth');
    const byHeader = await saved(client, { baseUrl: `${api.url}/x-api-key` });
    expect((await client.get(`/api/integrations/${byHeader.id}/projects`)).body).toHaveLength(api.domains.length);
    const broken = await saved(client, { siteName: 'Broken API', baseUrl: `${api.url}/fail` });
    const failed = await client.get(`/api/integrations/${broken.id}/projects`);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({
      code: 'INTEGRATION_UPSTREAM_FAILED',
      message: 'Error 500: Internal Server Error',
    });
    const wrongKey = await saved(client, { siteName: 'Wrong key', apiKey: 'wrong-key-123' });
    expect((await client.get(`/api/integrations/${wrongKey.id}/projects`)).status).toBe(502);
  });
});

describe('keys at rest', () => {
  it('never stores, publishes or answers a key in clear, and account deletion removes the integrations', async () => {
    const key = `secret-key-${Date.now().toString(36)}-never-in-clear`;
    api.apiKey = key;
    try {
      const { client, id } = await backend.signUp('keyholder');
      const integration = await saved(client, { apiKey: key });
      const tested = await client.post('/api/integration/test', form({ apiKey: key }));
      expect(tested.body.success).toBe(true);
      const diagnosed = await client.post(
        '/api/integration/diagnostics',
        form({ apiKey: key, baseUrl: `${api.url}/query` }),
      );
      expect(diagnosed.body.success).toBe(true);
      const imported = await client.post(`/api/integrations/${integration.id}/import`, { projectIds: ['1'] });
      expect(imported.body.message).toBe('Imported 1 of 1 domains');
      for (const answer of [tested, diagnosed, imported]) expect(answer.text).not.toContain(key);

      const rows = await backend.everyRow();
      for (const [table, values] of rows) {
        for (const row of values) expect(row, table).not.toContain(key);
      }
      expect(
        (await backend.pool.query('SELECT 1 FROM integrations.api_integrations WHERE user_id = $1', [id])).rowCount,
      ).toBe(1);
      for (const message of await backend.everyBusMessage()) expect(message).not.toContain(key);

      expect((await client.request('DELETE', '/api/user')).status).toBe(200);
      await expect
        .poll(
          async () =>
            (await backend.pool.query('SELECT 1 FROM integrations.api_integrations WHERE user_id = $1', [id])).rowCount,
        )
        .toBe(0);
    } finally {
      api.apiKey = 'stand-in-domain-key-0123456789';
    }
  });
});
