import { createWorkspaceKeyShredder, WORKSPACE_KEY_GRACE_MS } from '@shiplog/identity/workspace-key-shredder';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { SHREDDED } from '@shiplog/vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A team workspace's projects: members reach them with their role on every route that declares one,
 * a viewer reads and changes nothing, anyone else learns nothing, and a removed member loses them at
 * their next request.
 */
const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});

const setPlan = async (userId: string, subscriptionStatus: string) =>
  expect((await admin.request('PUT', `/api/admin/users/${userId}/subscription`, { subscriptionStatus })).status).toBe(
    200,
  );
afterAll(async () => {
  await backend?.stop();
});

async function team() {
  const owner = await backend.signUp('lead');
  const member = await backend.signUp('dev');
  const viewer = await backend.signUp('look');
  const outsider = await backend.signUp('far');
  const workspace = await owner.client.post('/api/workspaces', { name: 'Ship crew' });
  expect(workspace.status).toBe(201);
  const workspaceId = workspace.body.id as string;
  for (const [person, role] of [
    [member, 'member'],
    [viewer, 'viewer'],
  ] as const) {
    const invite = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
      username: person.username,
      role,
    });
    expect(invite.status).toBe(201);
    await waitUntil(async () => (await person.client.get('/api/invites')).body.length === 1);
    expect((await person.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
  }
  return { owner, member, viewer, outsider, workspaceId };
}

const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe('a team workspace’s projects', () => {
  it('are made by a member, listed for every member with their role, and nobody else’s', async () => {
    const { owner, member, viewer, outsider, workspaceId } = await team();
    const made = await member.client.post('/api/projects', { name: 'Shared site', workspaceId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ workspaceId, role: 'member', userId: member.id });
    const project = made.body.id as string;
    for (const [person, role] of [
      [owner, 'owner'],
      [member, 'member'],
      [viewer, 'viewer'],
    ] as const) {
      // Made by someone else: each member reaches it once the project list and every service that decides
      // from its own view (the timeline's among them) have it.
      await waitUntil(async () => ids((await person.client.get('/api/projects')).body).includes(project));
      await person.client.untilReaches(project);
      const list = (await person.client.get('/api/projects')).body as { id: string; role: string }[];
      expect(
        list.find((p) => p.id === project),
        person.username,
      ).toMatchObject({ workspaceId, role });
      expect((await person.client.get(`/api/projects/${project}`)).body).toMatchObject({ id: project, role });
      expect((await person.client.get(`/api/projects/${project}/activities`)).status).toBe(200);
    }
    expect(ids((await outsider.client.get('/api/projects')).body)).not.toContain(project);
    expect((await outsider.client.get(`/api/projects/${project}`)).status).toBe(404);
    // A viewer, or someone outside, makes nothing there.
    const refused = await viewer.client.post('/api/projects', { name: 'Not allowed', workspaceId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await outsider.client.post('/api/projects', { name: 'Not mine', workspaceId })).status).toBe(404);
    expect((await owner.client.get('/api/projects')).body).toHaveLength(1);
  });

  it('are changed by members on every route, and a viewer’s attempt changes nothing', async () => {
    const { owner, member, viewer, outsider, workspaceId } = await team();
    const project = (await owner.client.post('/api/projects', { name: 'Team app', workspaceId })).body.id as string;
    // The member works on the owner's project: fields, records, reminders, monitors.
    await member.client.untilReaches(project);
    await viewer.client.untilReaches(project);
    expect(
      (await member.client.request('PUT', `/api/projects/${project}`, { description: 'By the team' })).status,
    ).toBe(200);
    expect((await member.client.post(`/api/projects/${project}/deployment`, { version: '1.0.0' })).status).toBe(201);
    const reminder = await member.client.post('/api/reminders', {
      projectId: project,
      title: 'Renew the domain',
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    const monitor = await member.client.post(`/api/projects/${project}/monitors`, { url: 'https://team.example.com/' });
    expect(monitor.status).toBe(201);
    await waitUntil(async () => (await owner.client.get(`/api/projects/${project}/activities`)).body.length >= 2);
    await waitUntil(async () => (await owner.client.get(`/api/reminders/project/${project}`)).body.length === 1);
    await waitUntil(async () => (await owner.client.get(`/api/projects/${project}/monitors`)).body.length === 1);

    const before = {
      project: (await owner.client.get(`/api/projects/${project}`)).body,
      reminders: (await owner.client.get(`/api/reminders/project/${project}`)).body,
      monitors: (await owner.client.get(`/api/projects/${project}/monitors`)).body,
      timeline: (await owner.client.get(`/api/projects/${project}/activities`)).body,
    };
    expect(before.reminders).toHaveLength(1);
    expect(before.monitors).toHaveLength(1);
    const writes: [string, string, unknown?][] = [
      ['PUT', `/api/projects/${project}`, { name: 'Viewer was here' }],
      ['DELETE', `/api/projects/${project}`],
      ['POST', `/api/projects/${project}/backup`, {}],
      ['POST', `/api/projects/${project}/deployment`, { version: '6.6.6' }],
      ['POST', `/api/projects/${project}/version`, { version: '6.6.6', changes: ['no'] }],
      ['POST', '/api/reminders', { projectId: project, title: 'Not mine', dueDate: new Date(Date.now() + 86_400_000) }],
      ['PATCH', `/api/reminders/${reminder.body.id}`, { title: 'Viewer was here' }],
      ['POST', `/api/reminders/${reminder.body.id}/complete`],
      ['DELETE', `/api/reminders/${reminder.body.id}`],
      ['POST', `/api/projects/${project}/monitors`, { url: 'https://viewer.example.com/' }],
      ['PATCH', `/api/monitors/${monitor.body.id}`, { paused: true }],
      ['DELETE', `/api/monitors/${monitor.body.id}`],
      ['POST', `/api/projects/${project}/deploy-hook`],
      ['POST', `/api/projects/${project}/ping`],
    ];
    for (const [method, path, body] of writes) {
      const asViewer = await viewer.client.request(method, path, body);
      expect(asViewer.status, `viewer ${method} ${path}`).toBe(403);
      expect(asViewer.body.code).toBe('FORBIDDEN');
      const asOutsider = await outsider.client.request(method, path, body);
      expect(asOutsider.status, `outsider ${method} ${path}`).toBe(404);
    }
    // The viewer reads them all.
    expect((await viewer.client.get(`/api/reminders/${reminder.body.id}`)).status).toBe(200);
    expect((await viewer.client.get(`/api/projects/${project}/monitors`)).body).toHaveLength(1);
    expect({
      project: (await owner.client.get(`/api/projects/${project}`)).body,
      reminders: (await owner.client.get(`/api/reminders/project/${project}`)).body,
      monitors: (await owner.client.get(`/api/projects/${project}/monitors`)).body,
      timeline: (await owner.client.get(`/api/projects/${project}/activities`)).body,
    }).toEqual(before);
  });

  it('fill every member’s timeline, dashboard and monitor list, whoever made the entries, and nobody else’s', async () => {
    const { owner, member, outsider, workspaceId } = await team();
    const mine = (await member.client.post('/api/projects', { name: 'My own', status: 'deployed' })).body.id as string;
    const project = (
      await owner.client.post('/api/projects', { name: 'Crew site', status: 'development', workspaceId })
    ).body.id as string;
    expect((await owner.client.post(`/api/projects/${project}/deployment`, { version: '3.0.0' })).status).toBe(201);
    const monitor = await owner.client.post(`/api/projects/${project}/monitors`, { url: 'https://crew.example.com/' });
    expect(monitor.status).toBe(201);

    type Entry = { projectId: string | null; userId: string; eventType: string };
    const timeline = async (person: typeof member) => {
      const page = await person.client.get('/api/activities?page=1&limit=50');
      expect(page.status).toBe(200);
      return { entries: page.body as Entry[], total: Number(page.headers.get('x-total-count')) };
    };
    const teamEntries = (entries: Entry[]) => entries.filter((e) => e.projectId === project);
    const counters = async (person: typeof member) => {
      const answer = await person.client.post('/api/graphql', {
        query: '{ dashboard { counters { totalProjects activeProjects completedProjects totalChange } } }',
      });
      expect(answer.body.errors).toBeUndefined();
      return answer.body.data.dashboard.counters;
    };
    const monitors = async (person: typeof member) =>
      ((await person.client.get('/api/monitors')).body as { id: string; projectId: string }[]).map((m) => m.id);

    // The owner made them: each reaches the member within the bus's delay.
    await waitUntil(async () => teamEntries((await timeline(member)).entries).length === 3);
    const seen = await timeline(member);
    expect(teamEntries(seen.entries).map((e) => [e.eventType, e.userId])).toEqual([
      ['monitor_added', owner.id],
      ['deployment', owner.id],
      ['project_created', owner.id],
    ]);
    // Their own entries are there too, and the total counts both.
    expect(seen.entries.filter((e) => e.projectId === mine).map((e) => e.eventType)).toEqual(['project_created']);
    expect(seen.total).toBe(seen.entries.length);
    await waitUntil(async () => (await counters(member)).totalProjects === 2);
    expect(await counters(member)).toEqual({
      totalProjects: 2,
      activeProjects: 1,
      completedProjects: 1,
      totalChange: 2,
    });
    await waitUntil(async () => (await monitors(member)).includes(monitor.body.id));
    expect(await monitors(member)).toEqual([monitor.body.id]);

    // Someone outside the workspace sees none of it, now that the services have it.
    const outside = await timeline(outsider);
    expect(outside).toEqual({ entries: [], total: 0 });
    expect(await counters(outsider)).toMatchObject({ totalProjects: 0 });
    expect(await monitors(outsider)).toEqual([]);
  });

  it('are gone for a removed member at their next request, and for everyone when the workspace is deleted', async () => {
    const { owner, member, workspaceId } = await team();
    const project = (await owner.client.post('/api/projects', { name: 'Short-lived', workspaceId })).body.id as string;
    await member.client.untilReaches(project);
    const hook = await member.client.post(`/api/projects/${project}/deploy-hook`);
    expect(hook.status).toBe(201);
    const deliver = (deploymentId: string) =>
      fetch(`${backend.url}${new URL(hook.body.url).pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deploymentId, version: '1.0.0' }),
      });
    expect((await deliver('before')).status).toBe(201);
    expect((await owner.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${member.id}`)).status).toBe(
      204,
    );
    // Removed by someone else: the member's next requests no longer reach it (within the bus's delay).
    await waitUntil(async () => (await member.client.get(`/api/projects/${project}`)).status === 404);
    expect(ids((await member.client.get('/api/projects')).body)).not.toContain(project);
    expect((await member.client.request('PUT', `/api/projects/${project}`, { name: 'Still mine?' })).status).toBe(404);
    // The webhook URL they made records nothing more.
    expect((await deliver('after')).status).toBe(404);

    expect((await owner.client.request('DELETE', `/api/workspaces/${workspaceId}`)).status).toBe(204);
    await waitUntil(async () => (await owner.client.get(`/api/projects/${project}`)).status === 404);
    expect((await owner.client.get('/api/projects')).body).toEqual([]);

    // A day later its key is destroyed: every event sealed with it, its projects' among them, is gone.
    const shredder = createWorkspaceKeyShredder(backend.service('identity').context);
    // The project's events as stored, opened with the keys the vault holds now (no process's cache).
    const projectEvents = async () => {
      const { pool, vault } = backend.service('projects').context;
      const { rows } = await pool.query<{ id: string; type: string; data: unknown }>(
        'SELECT event_id AS id, type, data FROM projects.events WHERE stream_id = $1',
        [`project-${project}`],
      );
      return (await vault.open(rows, { fresh: true })).map((event) => event ?? { data: SHREDDED });
    };
    expect((await projectEvents()).every((event) => event.data !== SHREDDED)).toBe(true);
    expect(await shredder.tick(new Date(Date.now() + WORKSPACE_KEY_GRACE_MS - 60_000))).toBe(0);
    await waitUntil(async () => (await shredder.tick(new Date(Date.now() + WORKSPACE_KEY_GRACE_MS + 60_000))) === 1);
    expect(await backend.service('identity').context.vault.isForgotten(workspaceId)).toBe(true);
    const shredded = await projectEvents();
    expect(shredded.length).toBeGreaterThanOrEqual(2);
    expect(shredded.every((event) => event.data === SHREDDED)).toBe(true);
    // Nothing of it is made again: a write for the workspace finds no key.
    expect(await shredder.tick(new Date(Date.now() + 2 * WORKSPACE_KEY_GRACE_MS))).toBe(0);
  });

  it('stay with the team when their maker deletes their account', async () => {
    const { owner, member, workspaceId } = await team();
    const project = (await member.client.post('/api/projects', { name: 'Outlives its maker', workspaceId })).body
      .id as string;
    expect((await member.client.post(`/api/projects/${project}/deployment`, { version: '2.0.0' })).status).toBe(201);
    await owner.client.untilReaches(project);
    await waitUntil(async () => (await owner.client.get(`/api/projects/${project}/activities`)).body.length >= 2);
    expect((await member.client.request('DELETE', '/api/user')).status).toBe(200);
    await waitUntil(async () => (await owner.client.get(`/api/workspaces/${workspaceId}/members`)).body.length === 2);
    const kept = await owner.client.get(`/api/projects/${project}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ name: 'Outlives its maker', workspaceId });
    expect((await owner.client.request('PUT', `/api/projects/${project}`, { description: 'Carried on' })).status).toBe(
      200,
    );
    const timeline = (await owner.client.get(`/api/projects/${project}/activities`)).body as { eventType: string }[];
    expect(timeline.map((a) => a.eventType)).toContain('deployment');
  });
  it('keep the reminders their maker wrote when the maker deletes their account, readable and changeable by the team', async () => {
    const { owner, member, workspaceId } = await team();
    const project = (await owner.client.post('/api/projects', { name: 'Kept reminders', workspaceId })).body
      .id as string;
    await member.client.untilReaches(project);
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const theirs = await member.client.post('/api/reminders', {
      projectId: project,
      title: 'Renew the domain',
      dueDate: due,
    });
    const given = await member.client.post('/api/reminders', {
      projectId: project,
      title: 'Pay the host',
      dueDate: due,
      assigneeId: owner.id,
    });
    expect([theirs.status, given.status]).toEqual([201, 201]);
    await waitUntil(async () => (await owner.client.get(`/api/reminders/project/${project}`)).body.length === 2);
    // One they wrote on a personal project of theirs, then moved into the team as its admin: stated again
    // under the team's key with the move, it stays too.
    expect(
      (await owner.client.request('PUT', `/api/workspaces/${workspaceId}/members/${member.id}`, { role: 'admin' }))
        .status,
    ).toBe(200);
    const own = (await member.client.post('/api/projects', { name: 'Brought in' })).body.id as string;
    const written = await member.client.post('/api/reminders', { projectId: own, title: 'Renew it', dueDate: due });
    expect(written.status).toBe(201);
    expect((await member.client.post(`/api/projects/${own}/move`, { workspaceId })).status).toBe(200);
    await owner.client.untilReaches(own);
    await waitUntil(
      async () =>
        (
          await backend.pool.query('SELECT 1 FROM reminders.reminder_list WHERE id = $1 AND stated_in_workspace = $2', [
            written.body.id,
            workspaceId,
          ])
        ).rowCount === 1,
      10_000,
      'the moved reminder stated under the team',
    );

    expect((await member.client.request('DELETE', '/api/user')).status).toBe(200);
    await waitUntil(async () => (await owner.client.get(`/api/workspaces/${workspaceId}/members`)).body.length === 2);
    const listed = async () =>
      (await owner.client.get(`/api/reminders/project/${project}`)).body as {
        title: string;
        assigneeName: string | null;
      }[];
    const titles = async () => (await listed()).map((r) => r.title).sort();
    // Until reminders has forgotten the member (the one given to them no longer names them)…
    await waitUntil(
      async () => (await listed()).some((r) => r.title === 'Renew the domain' && r.assigneeName === null),
      10_000,
      'the member forgotten by reminders',
    );
    expect(await titles()).toEqual(['Pay the host', 'Renew the domain']);
    expect((await owner.client.get(`/api/reminders/project/${own}`)).body).toMatchObject([{ title: 'Renew it' }]);
    expect((await owner.client.post(`/api/reminders/${written.body.id}/complete`)).status).toBe(200);
    // Their events were sealed with the team's key, not the deleted member's: the team changes them.
    const completed = await owner.client.post(`/api/reminders/${given.body.id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ title: 'Pay the host', isCompleted: true });
    const renamed = await owner.client.request('PATCH', `/api/reminders/${theirs.body.id}`, {
      title: 'Renew the domain for two years',
      assigneeId: owner.id,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Renew the domain for two years', assigneeId: owner.id });
    await waitUntil(async () => (await titles()).includes('Renew the domain for two years'));
    expect((await owner.client.get('/api/reminders')).body.map((r: { id: string }) => r.id).sort()).toEqual(
      [given.body.id, theirs.body.id, written.body.id].sort(),
    );
  });

  it('keep the monitors and the runs their maker recorded when the maker deletes their account, changeable by the team', async () => {
    const { owner, member, workspaceId } = await team();
    const project = (await owner.client.post('/api/projects', { name: 'Kept monitors', workspaceId })).body
      .id as string;
    await member.client.untilReaches(project);
    const expecting = await member.client.post(`/api/projects/${project}/monitors`, {
      kind: 'backup',
      intervalSeconds: 86_400,
    });
    expect(expecting.status, JSON.stringify(expecting.body)).toBe(201);
    // One they added on a personal project of theirs, then moved into the team as its admin: stated again
    // under the team's key with the move, it stays too.
    expect(
      (await owner.client.request('PUT', `/api/workspaces/${workspaceId}/members/${member.id}`, { role: 'admin' }))
        .status,
    ).toBe(200);
    const theirs = (await member.client.post('/api/projects', { name: 'Brought in' })).body.id as string;
    const brought = await member.client.post(`/api/projects/${theirs}/monitors`, {
      kind: 'deployment',
      intervalSeconds: 86_400,
    });
    expect(brought.status, JSON.stringify(brought.body)).toBe(201);
    expect((await member.client.post(`/api/projects/${theirs}/move`, { workspaceId })).status).toBe(200);
    await owner.client.untilReaches(theirs);
    await waitUntil(
      async () =>
        (
          await backend.pool.query(
            'SELECT 1 FROM monitors.monitor_list WHERE monitor_id = $1 AND stated_in_workspace = $2',
            [brought.body.id, workspaceId],
          )
        ).rowCount === 1,
      10_000,
      'the moved monitor stated under the team',
    );
    const ping = await member.client.post(`/api/projects/${project}/ping`);
    expect(ping.status).toBe(201);
    const pingUrl = `${backend.url}${new URL(ping.body.url).pathname}`;
    expect((await fetch(pingUrl)).status).toBe(200);
    const monitors = async () => (await owner.client.get(`/api/projects/${project}/monitors`)).body as { id: string }[];
    await waitUntil(async () => (await monitors()).length === 1);

    expect((await member.client.request('DELETE', '/api/user')).status).toBe(200);
    // Until monitors has forgotten the member.
    await waitUntil(
      async () =>
        (await backend.pool.query('SELECT 1 FROM monitors.users WHERE user_id = $1', [member.id])).rowCount === 0,
      10_000,
      'the member forgotten by monitors',
    );
    expect(ids(await monitors())).toEqual([expecting.body.id]);
    expect(ids((await owner.client.get(`/api/projects/${theirs}/monitors`)).body)).toEqual([brought.body.id]);
    const paused = await owner.client.request('PATCH', `/api/monitors/${brought.body.id}`, { paused: true });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    // The ping URL they made went with them (it acts as its maker); the run it recorded is the team's.
    expect((await fetch(pingUrl)).status).toBe(404);
    expect((await owner.client.get(`/api/projects/${project}/ping`)).body).toMatchObject({
      active: false,
      runs: [{ outcome: 'ok' }],
    });
    // Its events were sealed with the team's key, not the deleted member's: the team changes it, and
    // removes it, though no slot of the member's is left to free.
    const changed = await owner.client.request('PATCH', `/api/monitors/${expecting.body.id}`, {
      intervalSeconds: 3_600,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ id: expecting.body.id, intervalSeconds: 3_600 });
    expect((await owner.client.request('DELETE', `/api/monitors/${expecting.body.id}`)).status).toBe(204);
    await waitUntil(async () => (await monitors()).length === 0);
  });

  it('move between a personal space and a team by an owner or admin of both sides, with what they hold, and each side’s log says so', async () => {
    const { owner, member, viewer, outsider, workspaceId } = await team();
    const made = await owner.client.post('/api/projects', { name: 'Side thing', costEstimate: 700 });
    const project = made.body.id as string;
    expect((await owner.client.post(`/api/projects/${project}/deployment`, { version: '1.0.0' })).status).toBe(201);
    const reminder = await owner.client.post('/api/reminders', {
      projectId: project,
      title: 'Renew it',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    expect(
      (await owner.client.post(`/api/projects/${project}/monitors`, { url: 'https://side.example.com/' })).status,
    ).toBe(201);

    // Bad input, and sides the caller is not an owner or admin of: refused, and nothing moves.
    expect((await owner.client.post(`/api/projects/${project}/move`, { workspaceId: 'crew' })).status).toBe(400);
    expect((await owner.client.post(`/api/projects/${project}/move`, {})).status).toBe(400);
    const foreign = (await outsider.client.post('/api/workspaces', { name: 'Elsewhere' })).body.id as string;
    const notThere = await owner.client.post(`/api/projects/${project}/move`, { workspaceId: foreign });
    expect(notThere).toMatchObject({ status: 404, body: { code: 'WORKSPACE_NOT_FOUND' } });
    const own = (await member.client.post('/api/projects', { name: 'Member’s own' })).body.id as string;
    const asMember = await member.client.post(`/api/projects/${own}/move`, { workspaceId });
    expect(asMember).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect((await outsider.client.post(`/api/projects/${project}/move`, { workspaceId: foreign })).status).toBe(404);
    expect((await owner.client.get(`/api/projects/${project}`)).body.workspaceId).toBeNull();

    const moved = await owner.client.post(`/api/projects/${project}/move`, { workspaceId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: project, workspaceId, role: 'owner', costEstimate: 700, userId: owner.id });
    // The team's now: its members reach it, its reminder and monitor, and its timeline with the move.
    await member.client.untilReaches(project);
    // Each service learns of the move from the bus: the member's reads wait for the owner's change there.
    await waitUntil(async () => (await member.client.get(`/api/reminders/project/${project}`)).body.length === 1);
    await waitUntil(async () => (await member.client.get(`/api/projects/${project}/monitors`)).body.length === 1);
    await waitUntil(async () =>
      (await member.client.get(`/api/projects/${project}/activities`)).body.some(
        (a: { action: string }) => a.action === 'moved',
      ),
    );
    const timeline = (await member.client.get(`/api/projects/${project}/activities`)).body as { details: string }[];
    expect(timeline.map((a) => a.details)).toEqual(
      expect.arrayContaining(['Moved to a team workspace: Side thing', 'Created project: Side thing']),
    );
    expect((await member.client.request('PUT', `/api/projects/${project}`, { description: 'Ours' })).status).toBe(200);
    // Moved twice: moved once; and the same move sent twice at once (a double click) is no conflict.
    expect((await owner.client.post(`/api/projects/${project}/move`, { workspaceId })).status).toBe(200);
    const twice = await Promise.all(
      [0, 1].map(() => owner.client.post(`/api/projects/${project}/move`, { workspaceId: null })),
    );
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await owner.client.post(`/api/projects/${project}/move`, { workspaceId })).status).toBe(200);
    await member.client.untilReaches(project);

    // Out of the team: only an owner or admin of it may; it becomes the mover's, and the team loses it.
    for (const person of [member, viewer]) {
      const refused = await person.client.post(`/api/projects/${project}/move`, { workspaceId: null });
      expect(refused).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    }
    const back = await owner.client.post(`/api/projects/${project}/move`, { workspaceId: null });
    expect(back.body).toMatchObject({ workspaceId: null, description: 'Ours', role: 'owner' });
    await waitUntil(async () => (await member.client.get(`/api/projects/${project}`)).status === 404);
    expect(ids((await member.client.get('/api/projects')).body)).not.toContain(project);
    await waitUntil(async () => {
      const log = (await owner.client.get(`/api/workspaces/${workspaceId}/audit`)).body as { kind: string }[];
      return log.some((e) => e.kind === 'project.moved_out');
    });
    const kinds = ((await owner.client.get(`/api/workspaces/${workspaceId}/audit`)).body as { kind: string }[]).map(
      (e) => e.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(['project.moved_in', 'project.moved_out']));
  });

  it('moved into a team, stay whole when their maker deletes their account', async () => {
    const { owner, workspaceId } = await team();
    const admin = await backend.signUp('second');
    const invite = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
      username: admin.username,
      role: 'admin',
    });
    await waitUntil(async () => (await admin.client.get('/api/invites')).body.length === 1);
    expect((await admin.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
    const project = (await admin.client.post('/api/projects', { name: 'Brought along', description: 'Before' })).body
      .id as string;
    expect((await admin.client.post(`/api/projects/${project}/version`, { version: '0.1.0' })).status).toBe(201);
    expect((await admin.client.post(`/api/projects/${project}/move`, { workspaceId })).status).toBe(200);
    await owner.client.untilReaches(project);
    expect((await admin.client.request('DELETE', '/api/user')).status).toBe(200);
    await waitUntil(async () => (await owner.client.get(`/api/workspaces/${workspaceId}/members`)).body.length === 3);
    // Its events before the move were sealed with the maker's key, now destroyed: the move holds it all.
    const kept = await owner.client.get(`/api/projects/${project}`);
    expect(kept.body).toMatchObject({ name: 'Brought along', description: 'Before', workspaceId });
    expect((await owner.client.request('PUT', `/api/projects/${project}`, { description: 'After' })).status).toBe(200);
    expect((await owner.client.get(`/api/projects/${project}`)).body.description).toBe('After');
  });

  it('are read-only for everyone while no owner has a plan, and the Quick Update is the owners’ plan’s', async () => {
    const { owner, member, workspaceId } = await team();
    const project = (await owner.client.post('/api/projects', { name: 'On the owner’s plan', workspaceId })).body
      .id as string;
    await member.client.untilReaches(project);
    // The member has no subscription of their own: the owner's decides for the team's project.
    await setPlan(owner.id, 'active');
    expect((await member.client.post('/api/activities', { projectId: project, notes: 'Shipped it' })).status).toBe(201);
    expect((await member.client.get(`/api/workspaces/${workspaceId}`)).body.readOnly).toBe(false);
    await setPlan(owner.id, 'canceled');
    // Its page says so, to every member, as the refusals do.
    expect((await member.client.get(`/api/workspaces/${workspaceId}`)).body.readOnly).toBe(true);
    const refused = await member.client.request('PUT', `/api/projects/${project}`, { description: 'Lapsed' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'SUBSCRIPTION_REQUIRED',
      message: expect.stringContaining('read-only'),
    });
    expect((await owner.client.post(`/api/projects/${project}/deployment`, { version: '1.0.0' })).status).toBe(403);
    expect((await member.client.get(`/api/projects/${project}`)).body.description).toBeNull();
    expect((await member.client.post('/api/projects', { name: 'New in a lapsed team', workspaceId })).status).toBe(403);
    // Their own personal projects are theirs to change, whatever the team's plan.
    const own = (await member.client.post('/api/projects', { name: 'Mine' })).body.id as string;
    expect((await member.client.request('PUT', `/api/projects/${own}`, { description: 'Still mine' })).status).toBe(
      200,
    );
    await setPlan(owner.id, 'paid');
    expect((await member.client.get(`/api/workspaces/${workspaceId}`)).body.readOnly).toBe(false);
    expect((await member.client.request('PUT', `/api/projects/${project}`, { description: 'Back' })).status).toBe(200);
  });
  it('are the team’s, not carried off in one member’s export', async () => {
    const { owner, workspaceId } = await team();
    const team_ = (await owner.client.post('/api/projects', { name: 'The team’s', workspaceId })).body.id as string;
    const own = (await owner.client.post('/api/projects', { name: 'Only mine' })).body.id as string;
    await owner.client.post('/api/reminders', {
      projectId: team_,
      title: 'Team reminder',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await setPlan(owner.id, 'active');
    const file = await owner.client.get('/api/export?format=json');
    expect(file.status).toBe(200);
    expect(ids(file.body.projects)).toEqual([own]);
    expect(file.body.reminders).toEqual([]);
  });
  it('reach a member at once when they accept an invite (read-your-writes), 8 times in a row', async () => {
    const owner = await backend.signUp('rywlead');
    const workspaceId = (await owner.client.post('/api/workspaces', { name: 'At once' })).body.id as string;
    const project = (await owner.client.post('/api/projects', { name: 'Open me', workspaceId })).body.id as string;
    // The owner's own read waits for the list to hold it.
    expect((await owner.client.get(`/api/projects/${project}`)).status).toBe(200);
    for (let round = 0; round < 8; round++) {
      const joiner = await backend.signUp(`ryw${round}`);
      const invite = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
        username: joiner.username,
        role: 'viewer',
      });
      await waitUntil(async () => (await joiner.client.get('/api/invites')).body.length === 1);
      expect((await joiner.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
      // No wait: the acceptance's position goes with the next request.
      expect((await joiner.client.get(`/api/projects/${project}`)).status, `round ${round}`).toBe(200);
      expect(ids((await joiner.client.get('/api/projects')).body)).toContain(project);
      expect((await owner.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${joiner.id}`)).status).toBe(
        204,
      );
    }
  });
});
