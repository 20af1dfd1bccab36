import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Who did it: every timeline entry carries its actor (the user whose request made it, and the API
 * token's name when one did), null for a platform's webhook and Shiplog's own checks; an import keeps
 * it, and a deleted member's entries stay on the team's timeline without their name.
 */
const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
});

interface Entry {
  eventType: string;
  details: string;
  actor: { userId: string; username: string | null; token: string | null } | null;
}

const timelineOf = async (client: Client, projectId: string) =>
  (await client.get(`/api/projects/${projectId}/activities`)).body as Entry[];

describe('who did it', () => {
  it('names the member, the token or nobody on every entry of a team project, as every member reads it', async () => {
    const ada = await backend.signUp('actorada');
    const bo = await backend.signUp('actorbo');
    const workspace = await ada.client.post('/api/workspaces', { name: 'Actors' });
    const invite = await ada.client.post(`/api/workspaces/${workspace.body.id}/invites`, {
      username: bo.username,
      role: 'member',
    });
    await waitUntil(async () => (await bo.client.get('/api/invites')).body.length === 1);
    expect((await bo.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
    const project = (await ada.client.post('/api/projects', { name: 'Shared', workspaceId: workspace.body.id })).body
      .id as string;
    await waitUntil(async () => (await bo.client.get(`/api/projects/${project}`)).status === 200);

    // Bo in the app; Ada's CI token; a platform through the deploy webhook.
    expect((await bo.client.post(`/api/projects/${project}/deployment`, { version: '1.4.0' })).status).toBe(201);
    const token = await ada.client.post('/api/tokens', { name: 'GitHub Actions', scope: 'write' });
    const ci = new Client(backend.url);
    const backup = await ci.request(
      'POST',
      `/api/projects/${project}/backup`,
      { notes: 'nightly' },
      { authorization: `Bearer ${token.body.token}` },
    );
    expect(backup.status).toBe(201);
    const hook = new URL((await ada.client.post(`/api/projects/${project}/deploy-hook`)).body.url).pathname;
    const delivered = await fetch(backend.url + hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'whk_actor_1',
        type: 'deployment.succeeded',
        createdAt: 1_795_000_000_000,
        payload: {
          deployment: { id: 'dpl_actor', url: 'shared.vercel.app', name: 'shared' },
          target: 'production',
          project: { id: 'prj_shared' },
        },
      }),
    });
    expect(delivered.status).toBe(201);

    const expected = [
      { eventType: 'deployment', details: 'Deployed to production: Shared', actor: null },
      {
        eventType: 'backup_created',
        actor: { userId: ada.id, username: ada.username, token: 'GitHub Actions' },
      },
      { eventType: 'deployment', details: 'Deployed to production: Shared', actor: { userId: bo.id, token: null } },
      { eventType: 'project_created', actor: { userId: ada.id, username: ada.username, token: null } },
    ];
    for (const reader of [ada.client, bo.client]) {
      await waitUntil(async () => (await timelineOf(reader, project)).length === 4);
      expect(await timelineOf(reader, project)).toMatchObject(expected);
    }
    const page = (await bo.client.get('/api/activities')).body as Entry[];
    expect(page.find((e) => e.eventType === 'backup_created')?.actor?.token).toBe('GitHub Actions');

    // Bo leaves Shiplog: what Bo did stays the team's, no longer with Bo's name.
    expect((await bo.client.request('DELETE', '/api/user')).status).toBe(200);
    await waitUntil(async () => {
      const entry = (await timelineOf(ada.client, project)).find((e) => e.actor?.userId === bo.id);
      return entry?.actor?.username === null;
    });
  });

  it('keeps the actor through an export and an import: the importer’s own entries, with their token’s name', async () => {
    const eve = await backend.signUp('actoreve');
    expect(
      (await admin.request('PUT', `/api/admin/users/${eve.id}/subscription`, { subscriptionStatus: 'active' })).status,
    ).toBe(200);
    const imported = await eve.client.post('/api/import', {
      format: 'shiplog-export',
      version: 1,
      projects: [
        { id: 'p1', name: 'Brought in', createdAt: '2025-12-01T10:00:00.000Z', updatedAt: '2025-12-01T10:00:00.000Z' },
      ],
      activities: [
        {
          id: 'a1',
          projectId: 'p1',
          eventType: 'deployment',
          action: 'deployed',
          details: 'Deployed: Brought in',
          timestamp: '2026-01-01T10:00:00.000Z',
          actor: { userId: 'someone', username: 'old name', token: 'CLI' },
        },
        {
          id: 'a2',
          projectId: 'p1',
          eventType: 'deployment',
          action: 'deployed',
          details: 'Deployed: Brought in',
          timestamp: '2026-01-02T10:00:00.000Z',
          actor: null,
        },
        {
          id: 'a3',
          projectId: 'p1',
          eventType: 'backup_created',
          action: 'created',
          details: 'Backup: Brought in',
          timestamp: '2026-01-03T10:00:00.000Z',
        },
      ],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const [project] = (await eve.client.get('/api/projects')).body as { id: string }[];
    const actors = (await timelineOf(eve.client, project!.id)).map((e) => e.actor);
    expect(actors).toEqual([null, null, { userId: eve.id, username: eve.username, token: 'CLI' }]);

    const exported = await eve.client.get('/api/export?format=json');
    expect(exported.status).toBe(200);
    const entries = exported.body.activities as Entry[];
    expect(entries.find((e) => e.actor?.token === 'CLI')?.actor).toEqual({
      userId: eve.id,
      username: eve.username,
      token: 'CLI',
    });
  });
});
