import { type Backend, openLiveStream, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Who else has a team project's page open: its members see each other, anyone else finds nothing. */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

/** Ada's workspace with Bo in it (as `role`), and a project of it Bo can open. */
async function teamProject(prefix: string, role: 'viewer' | 'member') {
  const ada = await backend.signUp(`${prefix}ada`);
  const bo = await backend.signUp(`${prefix}bo`);
  const workspaceId = (await ada.client.post('/api/workspaces', { name: `${prefix} crew` })).body.id as string;
  const invite = await ada.client.post(`/api/workspaces/${workspaceId}/invites`, { username: bo.username, role });
  await waitUntil(async () => (await bo.client.get('/api/invites')).body.length === 1);
  expect((await bo.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
  const project = (await ada.client.post('/api/projects', { name: `${prefix} page`, workspaceId })).body.id as string;
  await waitUntil(async () => (await bo.client.get(`/api/projects/${project}`)).status === 200);
  return { ada, bo, project, workspaceId };
}

describe('presence on a project', () => {
  it('shows each member the others who have it open, until they leave or fall silent', async () => {
    const { ada, bo, project } = await teamProject('here', 'viewer');
    const stranger = await backend.signUp('herefar');
    const here = (who: typeof ada) => who.client.post(`/api/projects/${project}/presence`);

    expect((await here(ada)).body).toEqual([]);
    // A viewer may be present too, and sees Ada.
    expect((await here(bo)).body).toEqual([{ userId: ada.id, username: ada.username }]);
    expect((await here(ada)).body).toEqual([{ userId: bo.id, username: bo.username }]);
    expect((await stranger.client.post(`/api/projects/${project}/presence`)).status).toBe(404);

    // Bo leaves: Ada is alone again.
    expect((await bo.client.request('DELETE', `/api/projects/${project}/presence`)).status).toBe(204);
    expect((await here(ada)).body).toEqual([]);
    // Bo comes back, then says nothing for 45 s: gone.
    await here(bo);
    await backend
      .service('projects')
      .context.pool.query(
        "UPDATE projects.project_presence SET seen_at = seen_at - interval '46 seconds' WHERE user_id = $1",
        [bo.id],
      );
    expect((await here(ada)).body).toEqual([]);
  });

  it('tells the other members’ live streams at once when one arrives or leaves, and nobody else', async () => {
    const { ada, bo, project, workspaceId } = await teamProject('push', 'member');
    const eve = await backend.signUp('pusheve');
    const [adaStream, eveStream] = await Promise.all([
      openLiveStream(backend.url, ada.client),
      openLiveStream(backend.url, eve.client),
    ]);
    try {
      await Promise.all([adaStream.ready(), eveStream.ready()]);
      const presences = (stream: typeof adaStream) =>
        stream.messages.filter((m) => m.event === 'presence').map((m) => JSON.parse(m.data!));
      // Bo opens the page: Ada's stream hears it; saying so again (every 15 s) is no news.
      await bo.client.post(`/api/projects/${project}/presence`);
      await waitUntil(() => presences(adaStream).length === 1, 3000, 'the arrival');
      await bo.client.post(`/api/projects/${project}/presence`);
      // Bo leaves: heard too. A sentinel change after both shows nothing else came.
      expect((await bo.client.request('DELETE', `/api/projects/${project}/presence`)).status).toBe(204);
      await waitUntil(() => presences(adaStream).length === 2, 3000, 'the departure');
      await ada.client.post('/api/projects', { name: 'Sentinel', workspaceId });
      await adaStream.waitFor((change) => change.source === 'projects');
      expect(presences(adaStream)).toEqual([{ projectId: project }, { projectId: project }]);
      // Eve is in no workspace of it: told nothing.
      expect(presences(eveStream)).toEqual([]);
    } finally {
      await Promise.all([adaStream.close(), eveStream.close()]);
    }
  });
});
