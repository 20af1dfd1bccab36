import { type Backend, Client, openLiveStream, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

/** The app's live stream, as a browser opens it. */
const openStream = (client: Client, lastEventId?: string, after?: string) =>
  openLiveStream(backend.url, client, lastEventId, after);

/**
 * The changes of a stream the test made, without the trial that billing starts when an account signs
 * up: it is published a moment after the sign-up, before or after a stream opens.
 */
const ownChanges = (stream: { changes(): { source: string; type: string }[] }) =>
  stream.changes().filter((c) => c.source !== 'billing');

describe('the live feed (GET /api/events)', () => {
  it('tells each user of their own changes only, once the reads hold them', async () => {
    const ada = await backend.signUp('live-ada');
    const eve = await backend.signUp('live-eve');
    const adaStream = await openStream(ada.client);
    const eveStream = await openStream(eve.client);
    expect(adaStream.status).toBe(200);
    try {
      await Promise.all([adaStream.ready(), eveStream.ready()]);
      const project = await ada.client.post('/api/projects', { name: 'Seen live' });
      expect(project.status).toBe(201);
      const change = await adaStream.waitFor((c) => c.type === 'ProjectCreated');
      expect(JSON.parse(change.data!)).toEqual({ source: 'projects', type: 'ProjectCreated' });
      expect(Number(change.id)).toBeGreaterThan(0);
      // Another tab of Ada's, holding no position of her write, reads it at once when told.
      const otherTab = await new Client(backend.url).get('/api/projects', { cookie: ada.client.sessionCookie! });
      expect(otherTab.body.map((p: { id: string }) => p.id)).toContain(project.body.id);
      const timeline = await new Client(backend.url).get(`/api/projects/${project.body.id}/activities`, {
        cookie: ada.client.sessionCookie!,
      });
      expect(timeline.body.map((a: { eventType: string }) => a.eventType)).toContain('project_created');

      const eves = await eve.client.post('/api/projects', { name: 'Eve’s' });
      expect(eves.status).toBe(201);
      const reminder = { projectId: eves.body.id, title: 'Eve only', dueDate: tomorrow() };
      expect((await eve.client.post('/api/reminders', reminder)).status).toBe(201);
      await eveStream.waitFor((c) => c.type === 'ReminderAdded');
      // One more change each: the feed tells in the bus's order, so once each stream has its own, it
      // has had anything of the other's that came before.
      expect((await ada.client.post('/api/projects', { name: 'Ada again' })).status).toBe(201);
      expect((await eve.client.post('/api/projects', { name: 'Eve again' })).status).toBe(201);
      const created = (stream: typeof adaStream) => stream.changes().filter((c) => c.type === 'ProjectCreated').length;
      await waitUntil(() => created(adaStream) === 2 && created(eveStream) === 2, 3000, 'each user’s second project');
      // Nothing of one user reaches the other: Eve hears of her own projects and reminder, not of Ada's.
      expect(ownChanges(eveStream)).toEqual([
        { source: 'projects', type: 'ProjectCreated' },
        { source: 'reminders', type: 'ReminderAdded' },
        { source: 'projects', type: 'ProjectCreated' },
      ]);
      expect(ownChanges(adaStream)).toEqual([
        { source: 'projects', type: 'ProjectCreated' },
        { source: 'projects', type: 'ProjectCreated' },
      ]);
    } finally {
      await adaStream.close();
      await eveStream.close();
    }
  });

  it('tells of changes made elsewhere: a deploy webhook, an API token', async () => {
    const { client } = await backend.signUp('live-ci');
    const project = await client.post('/api/projects', { name: 'Deployed from CI' });
    expect(project.status).toBe(201);
    const made = await client.post(`/api/projects/${project.body.id}/deploy-hook`);
    expect(made.status).toBe(201);
    const hook = new URL(made.body.url).pathname;
    const created = await client.post('/api/tokens', { name: 'CI' });
    expect(created.status).toBe(201);
    const { token } = created.body;
    const stream = await openStream(client);
    try {
      await stream.ready();
      const delivered = await fetch(backend.url + hook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deploymentId: 'run-1', version: '1.0.0' }),
      });
      expect(delivered.status).toBe(201);
      await stream.waitFor((c) => c.type === 'DeploymentRecorded');
      const released = await fetch(`${backend.url}/api/projects/${project.body.id}/version`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ version: '1.0.0' }),
      });
      expect(released.status).toBe(201);
      await stream.waitFor((c) => c.type === 'VersionReleased');
    } finally {
      await stream.close();
    }
  });

  it('resumes after a dropped connection from the last event id, without a gap', async () => {
    const { client } = await backend.signUp('live-resume');
    const first = await openStream(client);
    await first.ready();
    const project = await client.post('/api/projects', { name: 'Before the drop' });
    expect(project.status).toBe(201);
    await first.waitFor((c) => c.type === 'ProjectCreated');
    const lastSeen = first.lastId()!;
    await first.close();

    // While no stream is open: two changes, and other users' changes in between.
    expect((await client.post('/api/projects', { name: 'Missed one' })).status).toBe(201);
    const noise = (await backend.signUp('live-noise')).client;
    expect((await noise.post('/api/projects', { name: 'Not mine' })).status).toBe(201);
    const missed = { projectId: project.body.id, title: 'Missed two', dueDate: tomorrow() };
    expect((await client.post('/api/reminders', missed)).status).toBe(201);

    const resumed = await openStream(client, lastSeen);
    try {
      await resumed.waitFor((c) => c.type === 'ReminderAdded');
      expect(ownChanges(resumed)).toEqual([
        { source: 'projects', type: 'ProjectCreated' },
        { source: 'reminders', type: 'ReminderAdded' },
      ]);
      // And then live again.
      expect((await client.post('/api/projects', { name: 'After' })).status).toBe(201);
      await resumed.waitFor((c) => c.type === 'ProjectCreated' && ownChanges(resumed).length === 3);
    } finally {
      await resumed.close();
    }
    // A new stream (no id) starts from now: it is told where it stands, and nothing from before.
    const fresh = await openStream(client);
    await fresh.ready();
    expect(ownChanges(fresh)).toEqual([]);
    expect(Number(fresh.lastId())).toBeGreaterThanOrEqual(Number(lastSeen));
    await fresh.close();
  });

  it('starts after where the app read its data, so it tells what changed since and nothing before', async () => {
    const { client } = await backend.signUp('live-after');
    // Both serving paths say where their answer stands: a service's read and the gateway's own.
    const [projects, user] = await Promise.all([client.get('/api/projects'), client.get('/api/user')]);
    expect([projects.status, user.status]).toEqual([200, 200]);
    const readAt = projects.headers.get('x-shiplog-seq')!;
    expect(readAt).toMatch(/^\d+$/);
    expect(user.headers.get('x-shiplog-seq')).toMatch(/^\d+$/);
    // Nobody signed out is told how far the system's events have come.
    expect((await fetch(`${backend.url}/api/user`)).headers.get('x-shiplog-seq')).toBeNull();

    // Made after that read, and announced (another tab's stream has it) before the app's stream opens:
    // the stream opened after the read tells of it.
    const otherTab = await openStream(client);
    let madeAt: number;
    try {
      await otherTab.ready();
      expect((await client.post('/api/projects', { name: 'Made before the stream' })).status).toBe(201);
      madeAt = Number((await otherTab.waitFor((c) => c.type === 'ProjectCreated')).id);
    } finally {
      await otherTab.close();
    }
    const behind = await openStream(client, undefined, readAt);
    try {
      expect(Number((await behind.waitFor((c) => c.type === 'ProjectCreated')).id)).toBe(madeAt);
    } finally {
      await behind.close();
    }

    // Read again now: that answer holds the project, and a stream opened after it has nothing to tell.
    const again = await client.get('/api/projects');
    expect(again.body.map((p: { name: string }) => p.name)).toContain('Made before the stream');
    const rereadAt = again.headers.get('x-shiplog-seq')!;
    expect(Number(rereadAt)).toBeGreaterThanOrEqual(madeAt);
    const current = await openStream(client, undefined, rereadAt);
    try {
      await current.ready();
      expect(Number(current.lastId())).toBeGreaterThanOrEqual(Number(rereadAt));
      expect(current.changes().filter((c) => c.type === 'ProjectCreated')).toEqual([]);
    } finally {
      await current.close();
    }
  });

  it('tells a team workspace’s members of each other’s changes to its projects, and a removed member nothing more', async () => {
    const lead = await backend.signUp('live-lead');
    const mate = await backend.signUp('live-mate');
    const workspace = (await lead.client.post('/api/workspaces', { name: 'Live crew' })).body;
    const invite = (await lead.client.post(`/api/workspaces/${workspace.id}/invites`, { username: mate.username }))
      .body;
    await waitUntil(async () => (await mate.client.get('/api/invites')).body.length === 1);
    expect((await mate.client.post(`/api/invites/${invite.id}/accept`)).status).toBe(200);
    const stream = await openStream(mate.client);
    try {
      await stream.ready();
      const project = (await lead.client.post('/api/projects', { name: 'Shared live', workspaceId: workspace.id }))
        .body;
      await stream.waitFor((c) => c.type === 'ProjectCreated');
      expect(
        (await lead.client.request('PUT', `/api/projects/${project.id}`, { description: 'Seen by the team' })).status,
      ).toBe(200);
      await stream.waitFor((c) => c.type === 'ProjectUpdated');
      // Removed: told so, and told nothing more of the workspace's projects.
      expect((await lead.client.request('DELETE', `/api/workspaces/${workspace.id}/members/${mate.id}`)).status).toBe(
        204,
      );
      await stream.waitFor((c) => c.type === 'WorkspaceMemberRemoved');
      const heard = stream.changes().length;
      expect(
        (await lead.client.request('PUT', `/api/projects/${project.id}`, { description: 'Not for you' })).status,
      ).toBe(200);
      // The lead's own stream hears it: by then the mate's would have too.
      const own = await openStream(lead.client, undefined, '0');
      await own.waitFor((c) => c.type === 'ProjectUpdated');
      await own.close();
      expect(
        stream
          .changes()
          .slice(heard)
          .filter((c) => c.source === 'projects'),
      ).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it('answers 401 signed out', async () => {
    const response = await fetch(`${backend.url}/api/events`);
    expect(response.status).toBe(401);
  });
});

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();
