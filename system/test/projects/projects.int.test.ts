import { type Backend, Client, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let ada: { client: Client; id: string };
let eve: { client: Client; id: string };

async function createProject(client: Client, body: Record<string, unknown> = {}) {
  const response = await client.post('/api/projects', { name: 'Shiplog', ...body });
  expect(response.status).toBe(201);
  return response.body;
}

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  ada = await backend.signUp('ada');
  eve = await backend.signUp('eve');
});
afterAll(async () => {
  await backend?.stop();
});

describe('projects', () => {
  it('creates with the spec defaults and lists it at once', async () => {
    const project = await createProject(ada.client, { name: 'Launchpad', description: 'A rocket' });
    expect(project).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: ada.id,
      name: 'Launchpad',
      description: 'A rocket',
      status: 'planning',
      checklist: {
        databaseAdded: false,
        authenticationAdded: false,
        deployed: false,
        backedUp: false,
        hasTests: false,
      },
      costEstimate: null,
      replitId: null,
      isPublic: true,
      metadata: { socialLinks: {} },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      // Personal (no team workspace), and the maker's with every role.
      workspaceId: null,
      role: 'owner',
    });
    const list = await ada.client.get('/api/projects');
    expect(list.status).toBe(200);
    expect(list.body[0]).toEqual(project);
    expect((await ada.client.get(`/api/projects/${project.id}`)).body).toEqual(project);
  });

  it('lists a project just created even while the list projection lags (read-your-writes)', async () => {
    // Hold the project list's projector (its batch lock) so the new row cannot appear on its own.
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    try {
      const before = (await ada.client.get('/api/projects')).body.length;
      const project = await createProject(ada.client, { name: 'Lagging list' });
      // The session cookie alone carries no positions: that read does not wait, and misses it.
      const unaware = await new Client(backend.url).get('/api/projects', { cookie: ada.client.sessionCookie! });
      expect(unaware.body).toHaveLength(before);
      const read = ada.client.get('/api/projects');
      await held.untilReadWaits();
      await held.release();
      const list = await read;
      expect(list.status).toBe(200);
      expect(list.body[0].id).toBe(project.id);
    } finally {
      await held.release();
    }
  });

  it('changes a project just created while the list projection lags: the write waits longer than a read would, and never calls it not found', async () => {
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    try {
      const project = await createProject(ada.client, { name: 'Lagging change' });
      const changed = ada.client.request('PUT', `/api/projects/${project.id}`, {
        name: 'Lagging change',
        status: 'deployed',
      });
      await held.untilReadWaits();
      // Past the two seconds a read waits before answering with older data.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await held.release();
      const answer = await changed;
      expect([answer.status, answer.body.status]).toEqual([200, 'deployed']);
    } finally {
      await held.release();
    }
  });

  it('creates one project for a retried create with the same Idempotency-Key, per user', async () => {
    const { client } = await backend.signUp('retrier');
    const key = { 'idempotency-key': 'import-42' };
    const first = await client.request('POST', '/api/projects', { name: 'Once' }, key);
    const again = await client.request('POST', '/api/projects', { name: 'Once' }, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    expect((await client.get('/api/projects')).body).toHaveLength(1);
    // Another user's key of the same text is theirs alone.
    const other = await eve.client.request('POST', '/api/projects', { name: 'Once' }, key);
    expect(other.body.id).not.toBe(first.body.id);
    const bad = await client.request(
      'POST',
      '/api/projects',
      { name: 'Bad key' },
      { 'idempotency-key': 'x'.repeat(201) },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      'Idempotency-Key': ['Idempotency-Key must be 1 to 200 visible ASCII characters'],
    });
  });

  it('validates with the spec messages', async () => {
    const missing = await ada.client.post('/api/projects', { description: 'no name' });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ name: ['Project name is required'] });
    expect((await ada.client.post('/api/projects', { name: '   ' })).body.fieldErrors.name).toEqual([
      'Project name is required',
    ]);
    const bad = await ada.client.post('/api/projects', {
      name: 'x',
      status: 'shipped',
      costEstimate: -5,
      metadata: { socialLinks: { website: 'not a url at all' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      status: ['Status must be one of planning, development, deployed, blocked'],
      costEstimate: ['Cost estimate cannot be negative'],
      'metadata.socialLinks.website': ['Please enter a valid URL'],
    });
    expect(
      (await ada.client.post('/api/projects', { name: 'x', costEstimate: 12.5 })).body.fieldErrors.costEstimate,
    ).toEqual(['Cost estimate must be a whole number of cents']);
    expect((await ada.client.post('/api/projects', { name: 'x', costEstimate: '12' })).status).toBe(400);
    expect((await ada.client.post('/api/projects', 'not json', { 'content-type': 'application/json' })).status).toBe(
      400,
    );
  });

  it('stores cost in cents and normalises social links, dropping empty ones', async () => {
    const project = await createProject(ada.client, {
      costEstimate: 1999,
      metadata: {
        socialLinks: {
          github: 'github.com/ada/launchpad',
          twitter: '@ada',
          instagram: 'ada.codes',
          website: '',
          docs: 'https://docs.example.com',
        },
      },
    });
    expect(project.costEstimate).toBe(1999);
    expect(project.metadata.socialLinks).toEqual({
      github: 'https://github.com/ada/launchpad',
      twitter: 'https://twitter.com/ada',
      instagram: 'https://ada.codes',
      docs: 'https://docs.example.com',
    });
  });

  it('updates partially, and toggles the checklist with the five flags', async () => {
    const project = await createProject(ada.client);
    const renamed = await ada.client.request('PUT', `/api/projects/${project.id}`, {
      name: 'Shiplog Pro',
      status: 'development',
      costEstimate: null,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Shiplog Pro', status: 'development', description: null });
    const flags = { databaseAdded: true, authenticationAdded: false, deployed: false, backedUp: false, hasTests: true };
    const toggled = await ada.client.request('PUT', `/api/projects/${project.id}`, { id: project.id, ...flags });
    expect(toggled.status).toBe(200);
    expect(toggled.body.checklist).toEqual(flags);
    const nested = await ada.client.request('PUT', `/api/projects/${project.id}`, {
      checklist: { ...flags, hasTests: false },
    });
    expect(nested.body.checklist.hasTests).toBe(false);
    expect((await ada.client.get(`/api/projects/${project.id}`)).body).toMatchObject({
      name: 'Shiplog Pro',
      checklist: { ...flags, hasTests: false },
    });
    const mismatch = await ada.client.request('PUT', `/api/projects/${project.id}`, { id: eve.id, name: 'x' });
    expect(mismatch.status).toBe(400);
    expect((await ada.client.request('PUT', `/api/projects/${project.id}`, { status: 'done' })).status).toBe(400);
  });

  it("answers 404 for another user's project on every call", async () => {
    const project = await createProject(ada.client);
    const path = `/api/projects/${project.id}`;
    expect((await eve.client.get(path)).status).toBe(404);
    expect((await eve.client.request('PUT', path, { name: 'mine now' })).status).toBe(404);
    expect((await eve.client.request('DELETE', path)).status).toBe(404);
    expect((await eve.client.post(`${path}/backup`, {})).status).toBe(404);
    expect((await eve.client.post(`${path}/deployment`, {})).status).toBe(404);
    expect((await eve.client.post(`${path}/version`, { version: '1.0.0' })).status).toBe(404);
    expect((await eve.client.get(`${path}/activities`)).status).toBe(404);
    expect((await eve.client.get('/api/projects')).body.map((p: { id: string }) => p.id)).not.toContain(project.id);
    expect((await ada.client.get(path)).body.name).toBe('Shiplog');
    expect((await ada.client.get('/api/projects/not-a-uuid')).status).toBe(404);
    expect((await new Client(backend.url).get('/api/projects')).status).toBe(401);
  });
});

describe('quick update', () => {
  it('requires an active or paid subscription, as billing holds it at that moment', async () => {
    const { client, id } = await backend.signUp('quick');
    const project = await createProject(client, { name: 'Quickie' });
    const body = { projectId: project.id, notes: 'Shipped the fix', redeployed: true, backedUp: true };
    const refused = await client.post('/api/activities', body);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'Quick updates require an active subscription. Please upgrade to use this feature.',
      code: 'SUBSCRIPTION_REQUIRED',
    });
    expect((await client.post('/api/activities', { ...body, notes: 'ok' })).body.fieldErrors).toEqual({
      notes: ['Notes must be at least 3 characters'],
    });

    // Only an admin can change a subscription.
    expect(
      (await client.request('PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'active' })).status,
    ).toBe(403);
    const admin = new Client(backend.url);
    expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect(
      (await admin.request('PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'bogus' })).status,
    ).toBe(400);
    const changed = await admin.request('PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'active' });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('active');
    expect((await client.get('/api/user')).body.subscriptionStatus).toBe('active');

    // The gate reads billing's word at once: the very next request is accepted.
    const accepted = await client.post('/api/activities', body);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({
      projectId: project.id,
      notes: 'Shipped the fix',
      redeployed: true,
      backedUp: true,
    });
    expect((await client.get(`/api/projects/${project.id}`)).body.checklist).toMatchObject({
      deployed: true,
      backedUp: true,
    });
    const [latest] = (await client.get('/api/activities?limit=1')).body;
    // Both ticked: the deployment wins.
    expect(latest).toMatchObject({
      eventType: 'deployment',
      action: 'redeployed',
      details: 'Quick update: Quickie',
      status: 'success',
    });
    expect(latest.metadata).toMatchObject({ notes: 'Shipped the fix', redeployed: true, backedUp: true });

    const backedUp = await client.post('/api/activities', {
      projectId: project.id,
      details: 'Nightly backup',
      metadata: { backedUp: true },
    });
    expect(backedUp.status).toBe(201);
    expect((await client.get('/api/activities?limit=1')).body[0]).toMatchObject({
      eventType: 'backup_created',
      action: 'backed up',
    });
    await client.post('/api/activities', { projectId: project.id, notes: 'Just notes' });
    expect((await client.get('/api/activities?limit=1')).body[0]).toMatchObject({
      eventType: 'project_updated',
      action: 'updated',
    });
    // Someone else's project is a 404 whatever the caller's plan: ownership is decided first.
    expect((await eve.client.post('/api/activities', { ...body, projectId: project.id })).status).toBe(404);
  });
});
