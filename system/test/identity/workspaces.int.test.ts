import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type SmtpStandIn, startSmtpStandIn } from '@shiplog/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Team workspaces over HTTP: created on the paid tier, members and roles, invites by username and by
 * email (through the SMTP stand-in, to a proven address only), and what an account's deletion does.
 */
const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let smtp: SmtpStandIn;
let admin: Client;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  backend = await startBackend({
    adminPassword: ADMIN_PASSWORD,
    env: { ...smtp.env, APP_URL: 'http://shiplog.test', WORKSPACE_MAX_MEMBERS: '3' },
  });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
  await smtp?.stop();
});

async function createWorkspace(client: Client, name = 'Acme') {
  const created = await client.post('/api/workspaces', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** Invites `username` and has them accept it (found in their list, as the app finds it). */
async function join(owner: Client, workspaceId: string, invitee: Client, username: string, role = 'member') {
  const sent = await owner.post(`/api/workspaces/${workspaceId}/invites`, { username, role });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  let listed: { id: string }[] = [];
  await waitUntil(async () => {
    listed = (await invitee.get('/api/invites')).body;
    return listed.some((invite) => invite.id === sent.body.id);
  });
  const accepted = await invitee.post(`/api/invites/${sent.body.id}/accept`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  expect(accepted.body).toMatchObject({ id: workspaceId, role });
  return sent.body.id as string;
}

describe('team workspaces', () => {
  it('are created on the trial or a subscription, with their creator as owner, and refused otherwise', async () => {
    const ada = await backend.signUp('ada');
    const created = await ada.client.post('/api/workspaces', { name: '  Acme  ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme', role: 'owner', memberCount: 1 });
    expect((await ada.client.get('/api/workspaces')).body).toEqual([created.body]);
    expect((await ada.client.get(`/api/workspaces/${created.body.id}`)).body).toEqual({
      ...created.body,
      readOnly: false,
    });

    for (const name of ['', '   ', 'x'.repeat(101), 42]) {
      const refused = await ada.client.post('/api/workspaces', { name });
      expect(refused.status, String(name)).toBe(400);
    }
    expect(
      (await admin.request('PUT', `/api/admin/users/${ada.id}/subscription`, { subscriptionStatus: 'canceled' }))
        .status,
    ).toBe(200);
    const lapsed = await ada.client.post('/api/workspaces', { name: 'Beta' });
    expect(lapsed.status).toBe(403);
    expect(lapsed.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect((await ada.client.get('/api/workspaces')).body).toHaveLength(1);
  });

  it('take members by username invite, with roles only owners and admins change, and tell non-members nothing', async () => {
    const owner = await backend.signUp('own');
    const member = await backend.signUp('mem');
    const outsider = await backend.signUp('out');
    const workspaceId = await createWorkspace(owner.client);
    await join(owner.client, workspaceId, member.client, member.username, 'viewer');

    const members = (await member.client.get(`/api/workspaces/${workspaceId}/members`)).body;
    expect(members.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      [owner.username, 'owner'],
      [member.username, 'viewer'],
    ]);
    // A viewer reads and changes nothing; a non-member learns nothing.
    expect((await member.client.request('PUT', `/api/workspaces/${workspaceId}`, { name: 'Mine' })).status).toBe(403);
    expect(
      (await member.client.post(`/api/workspaces/${workspaceId}/invites`, { username: outsider.username })).status,
    ).toBe(403);
    expect((await member.client.get(`/api/workspaces/${workspaceId}/invites`)).status).toBe(403);
    for (const [method, path] of [
      ['GET', `/api/workspaces/${workspaceId}`],
      ['GET', `/api/workspaces/${workspaceId}/members`],
      ['PUT', `/api/workspaces/${workspaceId}`],
      ['POST', `/api/workspaces/${workspaceId}/invites`],
      ['DELETE', `/api/workspaces/${workspaceId}/members/${member.id}`],
    ] as const) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { name: 'Taken', username: outsider.username };
      const answer = await outsider.client.request(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await owner.client.get(`/api/workspaces/${workspaceId}`)).body).toMatchObject({
      name: 'Acme',
      memberCount: 2,
    });

    // The owner makes the viewer an admin, who then renames it; the admin cannot touch the owner.
    const promoted = await owner.client.request('PUT', `/api/workspaces/${workspaceId}/members/${member.id}`, {
      role: 'admin',
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ userId: member.id, username: member.username, role: 'admin' });
    expect(
      (await member.client.request('PUT', `/api/workspaces/${workspaceId}`, { name: 'Acme Labs' })).body,
    ).toMatchObject({
      name: 'Acme Labs',
      role: 'admin',
    });
    expect((await member.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${owner.id}`)).status).toBe(
      403,
    );
    expect((await member.client.request('DELETE', `/api/workspaces/${workspaceId}`)).status).toBe(403);
    const lastOwner = await owner.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${owner.id}`);
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.code).toBe('LAST_OWNER');

    // The member leaves: it is no longer theirs to read.
    expect((await member.client.request('DELETE', `/api/workspaces/${workspaceId}/members/${member.id}`)).status).toBe(
      204,
    );
    expect((await member.client.get(`/api/workspaces/${workspaceId}`)).status).toBe(404);
    expect((await member.client.get('/api/workspaces')).body).toEqual([]);
  });

  it('holds at most its member limit, pending invites counted', async () => {
    const owner = await backend.signUp('full');
    const others = await Promise.all(['f1', 'f2', 'f3'].map((p) => backend.signUp(p)));
    const workspaceId = await createWorkspace(owner.client);
    for (const other of others.slice(0, 2))
      expect(
        (await owner.client.post(`/api/workspaces/${workspaceId}/invites`, { username: other.username })).status,
      ).toBe(201);
    const over = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, { username: others[2]!.username });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      code: 'WORKSPACE_FULL',
      message: 'A workspace has up to 3 members, pending invites included.',
    });
    const unknown = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
      username: 'nobody-has-this-name',
    });
    expect(unknown.status).toBe(404);
    expect((await owner.client.post(`/api/workspaces/${workspaceId}/invites`, { role: 'member' })).status).toBe(400);
    expect(
      (
        await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
          username: others[0]!.username,
          role: 'owner',
        })
      ).status,
    ).toBe(400);
  });

  it('invite by email: the link is mailed, shown once, previewed signed out, and taken only by the account that proved the address', async () => {
    const owner = await backend.signUp('mailer');
    const workspaceId = await createWorkspace(owner.client, 'Mailroom');
    const sent = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, {
      email: 'Joiner@Example.com',
      role: 'viewer',
    });
    expect(sent.status).toBe(201);
    const { id: inviteId, url } = sent.body as { id: string; url: string };
    expect(url).toMatch(new RegExp(`^http://shiplog\\.test/invite/${inviteId}#[\\w-]{64}$`));
    const toJoiner = () => smtp.received.find((m) => m.to.some((to) => to.toLowerCase() === 'joiner@example.com'));
    await waitUntil(() => toJoiner() !== undefined);
    const mail = toJoiner()!;
    expect(mail.raw).toContain(`/invite/${inviteId}#`);
    expect((await owner.client.get(`/api/workspaces/${workspaceId}/invites`)).body).toEqual([
      expect.objectContaining({ id: inviteId, role: 'viewer', to: 'j…@example.com', invitedBy: owner.username }),
    ]);

    // Signed out, the link says what it is for; a wrong secret learns nothing.
    const secret = url.split('#')[1]!;
    const stranger = new Client(backend.url);
    const preview = await stranger.post(`/api/invites/${inviteId}/preview`, { secret });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      workspace: { id: workspaceId, name: 'Mailroom' },
      role: 'viewer',
      invitedBy: owner.username,
    });
    expect(
      (await stranger.post(`/api/invites/${inviteId}/preview`, { secret: `${secret.slice(0, 60)}AAAA` })).status,
    ).toBe(404);

    // An account with the address unproven, or another address, cannot take it.
    const unproven = await backend.signUp('joiner', { email: 'joiner@example.com' });
    expect((await unproven.client.get('/api/invites')).body).toEqual([]);
    expect((await unproven.client.post(`/api/invites/${inviteId}/accept`)).status).toBe(404);
    // Proven (the link mailed at sign-up), it is theirs.
    await waitUntil(() =>
      smtp.received.some((m) => m.to.includes('joiner@example.com') && m.raw.includes('verify-email#')),
    );
    const proof = smtp.received
      .filter((m) => m.to.includes('joiner@example.com'))
      .map((m) => /verify-email#([\w-]{64})/.exec(m.raw)?.[1])
      .find(Boolean)!;
    expect((await unproven.client.post('/api/email-verification', { token: proof })).status).toBe(200);
    await waitUntil(async () => (await unproven.client.get('/api/invites')).body.length === 1);
    expect((await unproven.client.post(`/api/invites/${inviteId}/accept`)).body).toMatchObject({
      id: workspaceId,
      role: 'viewer',
    });
    // Used once.
    expect((await unproven.client.post(`/api/invites/${inviteId}/accept`)).status).toBe(404);
    expect((await stranger.post(`/api/invites/${inviteId}/preview`, { secret })).status).toBe(404);
  });

  it('lets an invite be declined or revoked, after which it is not taken', async () => {
    const owner = await backend.signUp('rev');
    const invitee = await backend.signUp('revd');
    const workspaceId = await createWorkspace(owner.client);
    const first = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, { username: invitee.username });
    expect(
      (await owner.client.request('DELETE', `/api/workspaces/${workspaceId}/invites/${first.body.id}`)).status,
    ).toBe(204);
    expect((await invitee.client.post(`/api/invites/${first.body.id}/accept`)).status).toBe(404);
    const second = await owner.client.post(`/api/workspaces/${workspaceId}/invites`, { username: invitee.username });
    // The second, not the first until its revocation reaches the invitee's list.
    await waitUntil(async () => {
      const listed = (await invitee.client.get('/api/invites')).body as { id: string }[];
      return listed.length === 1 && listed[0]!.id === second.body.id;
    });
    expect((await invitee.client.post(`/api/invites/${second.body.id}/decline`)).status).toBe(204);
    expect((await invitee.client.post(`/api/invites/${second.body.id}/accept`)).status).toBe(404);
    expect((await invitee.client.get('/api/workspaces')).body).toEqual([]);
  });

  it('pass to the longest-standing admin when their only owner deletes their account, and go when nobody else is in them', async () => {
    const owner = await backend.signUp('leaver');
    const admin1 = await backend.signUp('heir');
    const alone = await createWorkspace(owner.client, 'Solo');
    const shared = await createWorkspace(owner.client, 'Shared');
    await join(owner.client, shared, admin1.client, admin1.username, 'admin');
    const deleted = await owner.client.request('DELETE', '/api/user');
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(300);
    await waitUntil(async () => (await admin1.client.get(`/api/workspaces/${shared}/members`)).body.length === 1);
    expect((await admin1.client.get(`/api/workspaces/${shared}/members`)).body).toEqual([
      expect.objectContaining({ userId: admin1.id, role: 'owner' }),
    ]);
    expect((await admin1.client.get(`/api/workspaces/${alone}`)).status).toBe(404);
  });

  it('refuse the deletion of an account that alone owns a workspace with members and no admin, saying what to do', async () => {
    const owner = await backend.signUp('stuck');
    const viewer = await backend.signUp('stuckv');
    const workspaceId = await createWorkspace(owner.client, 'Stuck');
    await join(owner.client, workspaceId, viewer.client, viewer.username, 'viewer');
    const refused = await owner.client.request('DELETE', '/api/user');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'LAST_OWNER', message: expect.stringContaining('“Stuck”') });
    expect((await owner.client.get('/api/user')).status).toBe(200);
    expect((await viewer.client.get(`/api/workspaces/${workspaceId}`)).status).toBe(200);
  });
});
