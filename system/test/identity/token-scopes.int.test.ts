import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * API tokens scoped to what they may do: a read-only token changes nothing, a token limited to one
 * space finds nothing else, and a viewer's token for their workspace reads only. The same policy on
 * every route that takes a token (the gateway's role matrix tries the rest).
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A token of `client`'s, made as Settings makes one, and a client that calls with it alone. */
async function tokenOf(client: Client, body: Record<string, unknown>) {
  const made = await client.post('/api/tokens', { name: 'scoped', ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const anonymous = new Client(backend.url);
  return {
    view: made.body as { scope: string; workspaceId: string | null },
    call: (method: string, path: string, body?: unknown) =>
      anonymous.request(method, path, body, bearer(made.body.token)),
  };
}

/** A user with a personal project, a workspace with a project, and a viewer of that workspace. */
async function setting() {
  const owner = await backend.signUp('scopes');
  const viewer = await backend.signUp('scopeview');
  const workspace = await owner.client.post('/api/workspaces', { name: 'Scoped crew' });
  expect(workspace.status).toBe(201);
  const workspaceId = workspace.body.id as string;
  const invite = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
    username: viewer.username,
    role: 'viewer',
  });
  expect(invite.status).toBe(201);
  await waitUntil(async () => (await viewer.client.get('/api/invites')).body.length === 1);
  expect((await viewer.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
  const personal = (await owner.client.post('/api/projects', { name: 'Mine alone' })).body.id as string;
  const team = (await owner.client.post('/api/projects', { name: 'The crew’s', workspaceId })).body.id as string;
  await waitUntil(async () => (await viewer.client.get(`/api/projects/${team}`)).status === 200);
  return { owner, viewer, workspaceId, personal, team };
}

const ids = (list: { id: string }[]) => list.map((p) => p.id).sort();

describe('API token scopes', () => {
  it('a read-only token reads, and every write it tries answers 403 TOKEN_SCOPE and changes nothing', async () => {
    const { owner, personal } = await setting();
    const token = await tokenOf(owner.client, { scope: 'read' });
    expect(token.view).toMatchObject({ scope: 'read', workspaceId: null });
    expect((await token.call('GET', `/api/projects/${personal}`)).status).toBe(200);
    expect((await token.call('GET', '/api/activities')).status).toBe(200);
    const before = {
      projects: (await owner.client.get('/api/projects')).body,
      timeline: (await owner.client.get(`/api/projects/${personal}/activities`)).body,
    };
    for (const [method, path, body] of [
      ['POST', '/api/projects', { name: 'Not by a reader' }],
      ['PUT', `/api/projects/${personal}`, { name: 'Renamed' }],
      ['DELETE', `/api/projects/${personal}`, undefined],
      ['POST', `/api/projects/${personal}/deployment`, { version: '1.0.0' }],
      ['POST', `/api/projects/${personal}/backup`, { notes: 'no' }],
      ['POST', `/api/projects/${personal}/version`, { version: '1.0.0', changes: ['x'] }],
      ['POST', '/api/activities', { projectId: personal, notes: 'no' }],
    ] as const) {
      const refused = await token.call(method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe('TOKEN_SCOPE');
      expect(refused.body.message).toBe(
        'This API token is read-only: make a read-and-write token in Settings to change data.',
      );
    }
    expect((await owner.client.get('/api/projects')).body).toEqual(before.projects);
    expect((await owner.client.get(`/api/projects/${personal}/activities`)).body).toEqual(before.timeline);
  });

  it('a token limited to a workspace finds nothing else, and makes its projects there', async () => {
    const { owner, workspaceId, personal, team } = await setting();
    const token = await tokenOf(owner.client, { scope: 'write', workspaceId });
    expect(token.view).toMatchObject({ scope: 'write', workspaceId });
    expect(ids((await token.call('GET', '/api/projects')).body)).toEqual([team]);
    expect((await token.call('GET', `/api/projects/${personal}`)).status).toBe(404);
    expect((await token.call('GET', `/api/projects/${personal}/activities`)).status).toBe(404);
    expect((await token.call('POST', `/api/projects/${personal}/deployment`, { version: '9.9.9' })).status).toBe(404);
    const timeline = (await token.call('GET', '/api/activities')).body as { projectId: string | null }[];
    expect(timeline.length).toBeGreaterThan(0);
    expect(timeline.every((entry) => entry.projectId === team)).toBe(true);
    // Made in its workspace unless told otherwise; never elsewhere.
    const made = await token.call('POST', '/api/projects', { name: 'From CI' });
    expect(made.status).toBe(201);
    expect(made.body.workspaceId).toBe(workspaceId);
    const other = await owner.client.post('/api/workspaces', { name: 'Other crew' });
    expect((await token.call('POST', '/api/projects', { name: 'Elsewhere', workspaceId: other.body.id })).status).toBe(
      404,
    );
    // The account's export is its own data, not the workspace's.
    const exported = await token.call('GET', '/api/export');
    expect(exported.status).toBe(403);
    expect(exported.body.code).toBe('TOKEN_SCOPE');
    expect((await owner.client.get(`/api/projects/${personal}/activities`)).body).toHaveLength(1);
  });

  it('a token of the personal space finds none of the workspace’s projects', async () => {
    const { owner, workspaceId, personal, team } = await setting();
    const token = await tokenOf(owner.client, { scope: 'write', workspaceId: 'personal' });
    expect(ids((await token.call('GET', '/api/projects')).body)).toEqual([personal]);
    expect((await token.call('GET', `/api/projects/${team}`)).status).toBe(404);
    expect((await token.call('POST', '/api/projects', { name: 'In the crew', workspaceId })).status).toBe(404);
    const timeline = (await token.call('GET', '/api/activities')).body as { projectId: string | null }[];
    expect(timeline.some((entry) => entry.projectId === team)).toBe(false);
    expect(timeline.some((entry) => entry.projectId === personal)).toBe(true);
  });

  it('a viewer makes only read-only tokens for their workspace; nobody makes one for a workspace not theirs', async () => {
    const { owner, viewer, workspaceId, team } = await setting();
    const refused = await viewer.client.post('/api/tokens', { name: 'w', scope: 'write', workspaceId });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('A viewer can only make read-only tokens for this workspace.');
    expect(await viewer.client.get('/api/tokens')).toMatchObject({ body: [] });
    const reader = await tokenOf(viewer.client, { scope: 'read', workspaceId });
    expect(ids((await reader.call('GET', '/api/projects')).body)).toEqual([team]);
    const stranger = await backend.signUp('scopestranger');
    const notTheirs = await stranger.client.post('/api/tokens', { name: 'x', scope: 'read', workspaceId });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.code).toBe('WORKSPACE_NOT_FOUND');
    for (const bad of [{ scope: 'admin' }, { workspaceId: 'everywhere' }]) {
      const invalid = await owner.client.post('/api/tokens', { name: 'bad', ...bad });
      expect(invalid.status, JSON.stringify(bad)).toBe(400);
    }
    // A viewer's write token of every space still changes nothing of the workspace's: their role holds.
    const everywhere = await tokenOf(viewer.client, { scope: 'write' });
    expect((await everywhere.call('PUT', `/api/projects/${team}`, { name: 'No' })).status).toBe(403);
  });

  it('lists each token with what it may do; one made without saying reads and writes everywhere, as tokens always did', async () => {
    const { owner } = await setting();
    await tokenOf(owner.client, {});
    const listed = (await owner.client.get('/api/tokens')).body as { scope: string; workspaceId: string | null }[];
    expect(listed.map(({ scope, workspaceId }) => ({ scope, workspaceId }))).toEqual([
      { scope: 'write', workspaceId: null },
    ]);
  });
});
