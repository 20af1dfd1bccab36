import { createAuditExpiry } from '@shiplog/activity/audit-expiry';
import { type Backend, type Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A team workspace's audit log: every kind of entry, written from the domain events, with who acted,
 * when and from where; read by owners and admins only, paged and filtered, and exported as CSV and JSON.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

interface Entry {
  id: string;
  at: string;
  actor: { userId: string; username: string | null } | null;
  kind: string;
  target: string | null;
  details: Record<string, unknown>;
  address: string | null;
}

async function invite(owner: Client, workspaceId: string, person: { client: Client; username: string }, role: string) {
  const sent = await owner.post(`/api/workspaces/${workspaceId}/invites`, { username: person.username, role });
  expect(sent.status).toBe(201);
  await waitUntil(async () =>
    (await person.client.get('/api/invites')).body.some((i: { id: string }) => i.id === sent.body.id),
  );
  return sent.body.id as string;
}

describe('the audit log', () => {
  it('records every kind of change with its actor, time and address, for owners and admins alone', async () => {
    const [ada, bo, cy, dee, stranger] = [
      await backend.signUp('auditada'),
      await backend.signUp('auditbo'),
      await backend.signUp('auditcy'),
      await backend.signUp('auditdee'),
      await backend.signUp('auditfar'),
    ];
    const workspaceId = (await ada.client.post('/api/workspaces', { name: 'Audited crew' })).body.id as string;
    const audit = (client: Client, query = '') => client.get(`/api/workspaces/${workspaceId}/audit${query}`);

    expect(
      (await bo.client.post(`/api/invites/${await invite(ada.client, workspaceId, bo, 'member')}/accept`)).status,
    ).toBe(200);
    expect(
      (await cy.client.post(`/api/invites/${await invite(ada.client, workspaceId, cy, 'viewer')}/accept`)).status,
    ).toBe(200);
    expect(
      (await dee.client.post(`/api/invites/${await invite(ada.client, workspaceId, dee, 'member')}/decline`)).status,
    ).toBe(204);
    const emailed = await ada.client.post(`/api/workspaces/${workspaceId}/invites`, {
      email: 'ops@example.com',
      role: 'member',
    });
    expect(
      (await ada.client.request('DELETE', `/api/workspaces/${workspaceId}/invites/${emailed.body.id}`)).status,
    ).toBe(204);

    // A member and a viewer may not read it; someone outside learns nothing.
    await waitUntil(async () => (await bo.client.get(`/api/workspaces/${workspaceId}`)).status === 200);
    for (const [client, status] of [
      [bo.client, 403],
      [cy.client, 403],
      [stranger.client, 404],
    ] as const) {
      const refused = await audit(client);
      expect(refused.status).toBe(status);
      expect(refused.body.code).toBe(status === 403 ? 'FORBIDDEN' : 'WORKSPACE_NOT_FOUND');
    }

    expect(
      (await ada.client.request('PUT', `/api/workspaces/${workspaceId}/members/${bo.id}`, { role: 'admin' })).status,
    ).toBe(200);
    expect((await ada.client.request('PUT', `/api/workspaces/${workspaceId}`, { name: 'Audited ship' })).status).toBe(
      200,
    );
    const project = (await ada.client.post('/api/projects', { name: 'Audited', workspaceId })).body.id as string;
    const monitor = (await ada.client.post(`/api/projects/${project}/monitors`, { url: 'https://audited.example.com' }))
      .body.id as string;
    expect(
      (await ada.client.request('PATCH', `/api/monitors/${monitor}`, { url: 'https://audited.example.com/health' }))
        .status,
    ).toBe(200);
    expect((await ada.client.request('DELETE', `/api/monitors/${monitor}`)).status).toBe(204);
    await waitUntil(async () => (await bo.client.get(`/api/projects/${project}`)).status === 200);
    expect((await bo.client.request('DELETE', `/api/projects/${project}`)).status).toBe(204);
    // Where its alerts go, and the tokens limited to it: by name, never their URL or text.
    const channel = await ada.client.post(`/api/workspaces/${workspaceId}/alert-channels`, {
      kind: 'slack',
      name: 'Crew Slack',
      url: 'https://hooks.slack.example.com/services/T1/B2/secret-path',
    });
    expect(channel.status).toBe(201);
    expect(
      (await ada.client.request('DELETE', `/api/workspaces/${workspaceId}/alert-channels/${channel.body.id}`)).status,
    ).toBe(204);
    const token = await bo.client.post('/api/tokens', { name: 'Crew CI', scope: 'read', workspaceId });
    expect(token.status).toBe(201);
    expect((await bo.client.request('DELETE', `/api/tokens/${token.body.id}`)).status).toBe(204);
    // A token of every space is its user's alone: not in the workspace's log.
    const own = await bo.client.post('/api/tokens', { name: 'Everywhere', scope: 'read' });
    expect((await bo.client.request('DELETE', `/api/tokens/${own.body.id}`)).status).toBe(204);
    expect((await cy.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${cy.id}`)).status).toBe(204);

    const kinds = [
      'member.left',
      'api_token.revoked',
      'api_token.created',
      'alert_channel.removed',
      'alert_channel.added',
      'project.deleted',
      'monitor.removed',
      'monitor.changed',
      'monitor.added',
      'project.created',
      'workspace.renamed',
      'member.role_changed',
      'invite.revoked',
      'member.invited',
      'invite.declined',
      'member.invited',
      'member.joined',
      'member.invited',
      'member.joined',
      'member.invited',
      'workspace.created',
    ];
    await waitUntil(async () => (await audit(bo.client, '?limit=100')).body.length === kinds.length);
    const read = await audit(bo.client, '?limit=100');
    expect(read.status).toBe(200);
    expect(read.headers.get('x-total-count')).toBe(String(kinds.length));
    const entries = read.body as Entry[];
    expect(entries.map((e) => e.kind)).toEqual(kinds);
    const byKind = (kind: string) => entries.find((e) => e.kind === kind)!;
    expect(byKind('member.left')).toMatchObject({
      actor: { userId: cy.id, username: cy.username },
      target: cy.username,
    });
    expect(byKind('project.deleted')).toMatchObject({ actor: { userId: bo.id }, target: 'Audited' });
    expect(byKind('monitor.changed')).toMatchObject({
      target: 'Audited',
      details: { monitorId: monitor, changed: ['url'] },
    });
    expect(byKind('member.role_changed')).toMatchObject({
      actor: { userId: ada.id },
      target: bo.username,
      details: { role: 'admin' },
    });
    expect(byKind('workspace.renamed').target).toBe('Audited ship');
    expect(byKind('invite.declined')).toMatchObject({ actor: { userId: dee.id }, target: dee.username });
    expect(byKind('alert_channel.added')).toMatchObject({
      actor: { userId: ada.id },
      target: 'Crew Slack',
      details: { kind: 'slack' },
    });
    expect(byKind('api_token.created')).toMatchObject({
      actor: { userId: bo.id },
      target: 'Crew CI',
      details: { scope: 'read' },
    });
    expect(byKind('api_token.revoked')).toMatchObject({ actor: { userId: bo.id }, target: 'Crew CI' });
    expect(JSON.stringify(entries)).not.toContain('secret-path');
    expect(entries.filter((e) => e.kind === 'member.invited').map((e) => e.target)).toContain('o…@example.com');
    // From the client's address, as the gateway saw it: on every entry a member's request made.
    for (const kind of [
      'member.left',
      'project.deleted',
      'project.created',
      'workspace.created',
      'monitor.added',
      'monitor.changed',
      'monitor.removed',
      'alert_channel.added',
      'alert_channel.removed',
      'api_token.created',
      'api_token.revoked',
    ])
      expect(byKind(kind).address, kind).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    expect(entries.every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true);

    // Paged and filtered.
    const second = await audit(ada.client, '?page=2&limit=5');
    expect(second.body.map((e: Entry) => e.id)).toEqual(entries.slice(5, 10).map((e) => e.id));
    const bos = (await audit(ada.client, `?actor=${bo.id}`)).body as Entry[];
    expect(bos.map((e) => e.kind)).toEqual([
      'api_token.revoked',
      'api_token.created',
      'project.deleted',
      'member.joined',
    ]);
    const joined = await audit(ada.client, '?kind=member.joined');
    expect(joined.headers.get('x-total-count')).toBe('2');
    for (const bad of ['?kind=everything', '?actor=bo', '?limit=500', '?page=0'])
      expect((await audit(ada.client, bad)).status, bad).toBe(400);

    // Exported whole, as JSON and as CSV.
    const json = await ada.client.get(`/api/workspaces/${workspaceId}/audit.json`);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(entries);
    const csv = await ada.client.get(`/api/workspaces/${workspaceId}/audit.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,actor,actorId,kind,target,address,details');
    expect(lines).toHaveLength(kinds.length + 1);
    expect(lines[1]).toContain(',member.left,');
    expect((await cy.client.get(`/api/workspaces/${workspaceId}/audit.csv`)).status).toBe(404);
  });

  it('records a team project’s deploy webhook and ping URLs made, replaced and turned off, never their secret', async () => {
    const ada = await backend.signUp('audithook');
    const workspaceId = (await ada.client.post('/api/workspaces', { name: 'Hooked crew' })).body.id as string;
    const project = (await ada.client.post('/api/projects', { name: 'Hooked', workspaceId })).body.id as string;
    const personal = (await ada.client.post('/api/projects', { name: 'Mine alone' })).body.id as string;
    const urls: string[] = [];
    for (const id of [project, project, personal]) {
      const made = await ada.client.post(`/api/projects/${id}/deploy-hook`, {});
      expect(made.status).toBe(201);
      urls.push(made.body.url);
    }
    expect((await ada.client.request('DELETE', `/api/projects/${project}/deploy-hook`)).status).toBe(204);
    // Turned off again: there is none, and nothing more is recorded.
    expect((await ada.client.request('DELETE', `/api/projects/${project}/deploy-hook`)).status).toBe(204);
    await waitUntil(async () => (await ada.client.get(`/api/projects/${project}/ping`)).status === 200);
    const ping = await ada.client.post(`/api/projects/${project}/ping`, {});
    expect(ping.status).toBe(201);
    urls.push(ping.body.url);
    expect((await ada.client.request('DELETE', `/api/projects/${project}/ping`)).status).toBe(204);

    const kinds = [
      'ping_url.turned_off',
      'ping_url.made',
      'deploy_hook.turned_off',
      'deploy_hook.made',
      'deploy_hook.made',
      'project.created',
      'workspace.created',
    ];
    await waitUntil(
      async () => (await ada.client.get(`/api/workspaces/${workspaceId}/audit`)).body.length === kinds.length,
    );
    const entries = (await ada.client.get(`/api/workspaces/${workspaceId}/audit`)).body as Entry[];
    expect(entries.map((e) => e.kind)).toEqual(kinds);
    expect(entries.slice(0, 5).map((e) => [e.target, e.details.replaced])).toEqual([
      ['Hooked', undefined],
      ['Hooked', false],
      ['Hooked', undefined],
      ['Hooked', true],
      ['Hooked', false],
    ]);
    for (const entry of entries.slice(0, 5)) {
      expect(entry.actor).toEqual({ userId: ada.id, username: ada.username });
      expect(entry.address).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    }
    const written = JSON.stringify(entries);
    for (const url of urls) expect(written).not.toContain(url.split('/').at(-1));
    // Nor on the project's timeline: a credential beside it, not a change of it.
    const timeline = (await ada.client.get(`/api/projects/${project}/activities`)).body as { eventType: string }[];
    expect(timeline.map((a) => a.eventType)).toEqual(['project_created']);
  });

  it('goes with its workspace, and forgets a deleted member’s address but not what they did', async () => {
    const ada = await backend.signUp('auditgo');
    const bo = await backend.signUp('auditgone');
    const workspaceId = (await ada.client.post('/api/workspaces', { name: 'Short lived' })).body.id as string;
    expect(
      (await bo.client.post(`/api/invites/${await invite(ada.client, workspaceId, bo, 'member')}/accept`)).status,
    ).toBe(200);
    expect((await bo.client.request('DELETE', '/api/user')).status).toBe(200);
    await waitUntil(async () => {
      const joined = (
        (await ada.client.get(`/api/workspaces/${workspaceId}/audit?kind=member.joined`)).body as Entry[]
      )[0];
      return joined?.actor?.userId === bo.id && joined.actor.username === null && joined.address === null;
    });
    expect((await ada.client.request('DELETE', `/api/workspaces/${workspaceId}`, { name: 'Short lived' })).status).toBe(
      204,
    );
    const after = await ada.client.get(`/api/workspaces/${workspaceId}/audit`);
    expect(after.status).toBe(404);
  });

  // Last: the expiry takes every entry this file made.
  it('keeps a year: an entry older than that is read by nobody and then taken away', async () => {
    const ada = await backend.signUp('auditold');
    const workspaceId = (await ada.client.post('/api/workspaces', { name: 'Long lived' })).body.id as string;
    await waitUntil(async () => (await ada.client.get(`/api/workspaces/${workspaceId}/audit`)).body.length === 1);
    const expiry = createAuditExpiry(backend.service('activity').context);
    expect(await expiry.tick(new Date(Date.now() + 364 * 86_400_000))).toBe(0);
    expect(await expiry.tick(new Date(Date.now() + 366 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await ada.client.get(`/api/workspaces/${workspaceId}/audit`)).body).toEqual([]);
  });
});
