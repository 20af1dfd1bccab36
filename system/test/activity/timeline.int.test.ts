import { signInternalToken } from '@shiplog/service-kit';
import { type Backend, type Client, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let ada: { client: Client; id: string };

async function createProject(client: Client, body: Record<string, unknown> = {}) {
  const response = await client.post('/api/projects', { name: 'Shiplog', ...body });
  expect(response.status).toBe(201);
  return response.body;
}

/** The activity service's counters, asked as the gateway would (GraphQL composes them for the dashboard). */
async function counters(userId: string) {
  const token = signInternalToken(backend.internalTokenSecret, {
    userId,
    username: 'x',
    isAdmin: false,
  });
  const response = await fetch(`${backend.service('activity').url}/dashboard/counters`, {
    headers: { 'x-shiplog-internal-token': token },
  });
  return response.json();
}

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  ada = await backend.signUp('ada');
});
afterAll(async () => {
  await backend?.stop();
});

describe('recorded events and the timeline', () => {
  it('records a backup, a deployment and a release, each on the timeline at once', async () => {
    const project = await createProject(ada.client, { name: 'Timeline App' });
    const path = `/api/projects/${project.id}`;
    expect((await ada.client.post(`${path}/version`, { notes: 'no version' })).body.fieldErrors).toEqual({
      version: ['Version is required'],
    });
    expect((await ada.client.post(`${path}/deployment`, { url: 'nope' })).body.fieldErrors).toEqual({
      url: ['Please enter a valid URL'],
    });
    expect((await ada.client.post(`${path}/deployment`, { environment: 'moon' })).status).toBe(400);

    const backup = await ada.client.post(`${path}/backup`, {
      version: '0.9.0',
      notes: 'nightly',
      backupDetails: { location: 's3://b', size: '2 GB' },
    });
    expect(backup.status).toBe(201);
    const deployment = await ada.client.post(`${path}/deployment`, {
      version: '1.0.0',
      url: 'https://app.example.com',
      deploymentDetails: { method: 'CI' },
    });
    expect(deployment.status).toBe(201);
    expect(deployment.body).toMatchObject({ environment: 'production', url: 'https://app.example.com', method: 'CI' });
    const release = await ada.client.post(`${path}/version`, {
      version: '1.0.0',
      notes: 'First!',
      changes: ['Login', '  ', 'Dashboard'],
    });
    expect(release.status).toBe(201);
    expect(release.body.changes).toEqual(['Login', 'Dashboard']);

    // Recording a deployment and a backup ticks those checklist items.
    expect((await ada.client.get(path)).body.checklist).toMatchObject({ deployed: true, backedUp: true });

    const timeline = await ada.client.get(`${path}/activities`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.map((a: { eventType: string; action: string }) => [a.eventType, a.action])).toEqual([
      ['version_release', 'released'],
      ['deployment', 'deployed'],
      ['backup_created', 'created'],
      ['project_created', 'created'],
    ]);
    const [releaseRow, deploymentRow] = timeline.body;
    expect(releaseRow).toMatchObject({
      projectId: project.id,
      userId: ada.id,
      version: '1.0.0',
      status: 'success',
      metadata: { changes: ['Login', 'Dashboard'] },
    });
    expect(deploymentRow.metadata).toMatchObject({
      environment: 'production',
      deploymentUrl: 'https://app.example.com',
    });
    for (const row of timeline.body) expect(row.details.split(': ')[1]).toBe('Timeline App');
  });

  it('pages the activity history by 10', async () => {
    const { client } = await backend.signUp('pager');
    const project = await createProject(client, { name: 'Pager' });
    for (let i = 0; i < 11; i++)
      await client.request('PUT', `/api/projects/${project.id}`, { description: `take ${i}` });
    const first = await client.get('/api/activities?page=1&limit=10');
    expect(first.body).toHaveLength(10);
    expect(first.body[0]).toMatchObject({
      eventType: 'project_updated',
      action: 'updated',
      details: 'Updated project: Pager',
    });
    const second = await client.get('/api/activities?page=2&limit=10');
    expect(second.body.map((a: { eventType: string }) => a.eventType)).toEqual(['project_updated', 'project_created']);
    // The whole timeline's size, as the admin's user list gives its own.
    expect(first.headers.get('x-total-count')).toBe('12');
    expect(second.headers.get('x-total-count')).toBe('12');
    expect((await client.get('/api/activities')).body).toHaveLength(10);
    expect((await client.get('/api/activities?page=0')).status).toBe(400);
    expect((await client.get('/api/activities?limit=abc')).status).toBe(400);
  });

  it('keeps a deleted project’s activities, unlinked, and forgets the project', async () => {
    const project = await createProject(ada.client, { name: 'Doomed' });
    await ada.client.post(`/api/projects/${project.id}/backup`, {});
    const deleted = await ada.client.request('DELETE', `/api/projects/${project.id}`);
    expect(deleted.status).toBe(204);
    expect((await ada.client.get(`/api/projects/${project.id}`)).status).toBe(404);
    expect((await ada.client.request('DELETE', `/api/projects/${project.id}`)).status).toBe(404);
    expect((await ada.client.get('/api/projects')).body.map((p: { id: string }) => p.id)).not.toContain(project.id);
    const history = (await ada.client.get('/api/activities?limit=100')).body.filter((a: { details: string }) =>
      a.details.endsWith(': Doomed'),
    );
    expect(history.map((a: { eventType: string; projectId: string | null }) => [a.eventType, a.projectId])).toEqual([
      ['project_deleted', null],
      ['backup_created', null],
      ['project_created', null],
    ]);
  });
});

describe('dashboard counters', () => {
  it('counts total, active (development) and completed (deployed), with this week’s additions, at once', async () => {
    const { client, id } = await backend.signUp('counter');
    expect(await counters(id)).toEqual({
      totalProjects: 0,
      activeProjects: 0,
      completedProjects: 0,
      totalChange: 0,
      activeChange: 0,
      completedChange: 0,
    });
    await createProject(client, { status: 'development' });
    const done = await createProject(client, { status: 'development' });
    await client.request('PUT', `/api/projects/${done.id}`, { status: 'deployed' });
    const doomed = await createProject(client);
    await client.request('DELETE', `/api/projects/${doomed.id}`);
    // Read through the gateway's read-your-writes positions: the counters include every write above.
    const token = signInternalToken(backend.internalTokenSecret, {
      userId: id,
      username: 'x',
      isAdmin: false,
    });
    const after = (await client.get('/api/activities?limit=1')).status;
    expect(after).toBe(200);
    const response = await fetch(`${backend.service('activity').url}/dashboard/counters`, {
      headers: { 'x-shiplog-internal-token': token },
    });
    expect(await response.json()).toEqual({
      totalProjects: 2,
      activeProjects: 1,
      completedProjects: 1,
      totalChange: 2,
      activeChange: 1,
      completedChange: 1,
    });
  });
});
