import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A team workspace's status page, `/w/{slug}/status`: the monitors of the workspace's public projects,
 * whoever on the team made them, signed out and with nothing private; its slug chosen by an admin,
 * unique, and a slug given up still leading there for 30 days.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const slugOf = (prefix: string) => `${prefix}-${uniqueUsername('s').toLowerCase()}`.slice(0, 40);

describe('a team’s status page', () => {
  it('shows the workspace’s public projects’ monitors signed out, by a slug its admins choose, and nothing private', async () => {
    const ada = await backend.signUp('statusada');
    const bo = await backend.signUp('statusbo');
    const cy = await backend.signUp('statuscy');
    const workspaceId = (await ada.client.post('/api/workspaces', { name: 'Status crew' })).body.id as string;
    const invite = await ada.client.post(`/api/workspaces/${workspaceId}/invites`, { username: bo.username });
    await waitUntil(async () => (await bo.client.get('/api/invites')).body.length === 1);
    expect((await bo.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);

    const slug = slugOf('crew');
    for (const bad of ['ab', 'Crew', '-crew', 'crew-', 'crew crew', 'x'.repeat(41)]) {
      const refused = await ada.client.request('PUT', `/api/workspaces/${workspaceId}`, { slug: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.fieldErrors.slug).toEqual([
        'Slug must be 3–40 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
      ]);
    }
    await waitUntil(async () => (await bo.client.get(`/api/workspaces/${workspaceId}`)).status === 200);
    expect((await bo.client.request('PUT', `/api/workspaces/${workspaceId}`, { slug })).status).toBe(403);
    const set = await ada.client.request('PUT', `/api/workspaces/${workspaceId}`, { slug });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ name: 'Status crew', slug });
    // Nobody else has it.
    const other = (await cy.client.post('/api/workspaces', { name: 'Other crew' })).body.id as string;
    const taken = await cy.client.request('PUT', `/api/workspaces/${other}`, { slug });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('SLUG_TAKEN');

    // Bo's public project and its monitor are on it; a private one's, and Ada's own public project's, are not.
    const shown = (await bo.client.post('/api/projects', { name: 'Crew API', workspaceId, isPublic: true })).body.id;
    const hidden = (await bo.client.post('/api/projects', { name: 'Crew Secret', workspaceId, isPublic: false })).body
      .id;
    const own = (await ada.client.post('/api/projects', { name: 'Ada Own', isPublic: true })).body.id;
    for (const [client, project, url] of [
      [bo.client, shown, 'https://api.crew.example.com/health?key=private-key'],
      [bo.client, hidden, 'https://secret.crew.example.com/'],
      [ada.client, own, 'https://ada.example.com/'],
    ] as const)
      expect((await client.post(`/api/projects/${project}/monitors`, { url })).status).toBe(201);

    const anonymous = new Client(backend.url);
    const read = (path: string) => anonymous.get(`/api/public/workspaces/${path}/status`);
    await waitUntil(async () => (await read(slug)).body?.monitors?.length === 1);
    const page = await read(slug);
    expect(page.status).toBe(200);
    expect(page.body.workspace).toEqual({ name: 'Status crew', slug });
    expect(page.body.projects).toEqual([{ id: shown, name: 'Crew API' }]);
    expect(page.body.monitors[0]).toMatchObject({ projectId: shown, origin: 'https://api.crew.example.com' });
    for (const secret of ['private-key', '/health', 'Crew Secret', 'secret.crew', 'Ada Own', ada.id, bo.id])
      expect(JSON.stringify(page.body)).not.toContain(secret);

    // A new slug: the old one still finds the workspace (and says the new one), and is nobody else's.
    const renamed = slugOf('ship');
    expect((await ada.client.request('PUT', `/api/workspaces/${workspaceId}`, { slug: renamed })).status).toBe(200);
    await waitUntil(async () => (await read(renamed)).status === 200);
    const old = await read(slug);
    expect(old.status).toBe(200);
    expect(old.body.workspace.slug).toBe(renamed);
    expect((await cy.client.request('PUT', `/api/workspaces/${other}`, { slug })).status).toBe(409);
    expect((await read(slugOf('nobody'))).status).toBe(404);

    // Deleted, the workspace's slugs lead nowhere, and are free.
    expect((await ada.client.request('DELETE', `/api/workspaces/${workspaceId}`)).status).toBe(204);
    await waitUntil(async () => (await read(renamed)).status === 404);
    expect((await read(slug)).status).toBe(404);
    expect((await cy.client.request('PUT', `/api/workspaces/${other}`, { slug: renamed })).status).toBe(200);
  });
});
