import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;

const signUp = (prefix = 'member', email?: string) => backend.signUp(prefix, email ? { email } : {});

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
});

describe('admin routes', () => {
  it('answer 401 signed out and 403 to anyone but the administrator, decided by the services', async () => {
    const { client, id } = await signUp();
    const anonymous = new Client(backend.url);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/users/summary'],
      ['DELETE', `/api/admin/users/${id}`],
      ['PUT', `/api/admin/users/${id}/subscription`, { subscriptionStatus: 'active' }],
      ['POST', `/api/admin/users/${id}/extend-trial`, { days: 3 }],
      ['GET', '/api/admin/comments/all'],
      ['POST', '/api/admin/comments', { message: 'Hello' }],
      ['PUT', `/api/admin/comments/${id}`, { isActive: false }],
      ['DELETE', `/api/admin/comments/${id}`],
      ['GET', '/api/admin/contact-messages'],
      ['PUT', `/api/admin/contact-messages/${id}`, { handled: true }],
    ];
    for (const [method, path, body] of calls) {
      expect((await anonymous.request(method, path, body)).status, `${method} ${path}`).toBe(401);
      const refused = await client.request(method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe('ADMIN_REQUIRED');
    }
    // A client cannot make itself an administrator by what it sends.
    const forged = await client.request('GET', '/api/admin/users', undefined, {
      'x-shiplog-internal-token': 'forged',
      'x-shiplog-admin': 'true',
    });
    expect(forged.status).toBe(403);
  });
});

describe('user management', () => {
  it('lists users newest first with their plan, never a password hash, searched and paged on the server', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await signUp(`${tag}u${i}`, i === 0 ? `${tag}@example.com` : undefined));
    await admin.request('PUT', `/api/admin/users/${made[1]!.id}/subscription`, { subscriptionStatus: 'active' });
    await admin.request('PUT', `/api/admin/users/${made[2]!.id}/subscription`, { subscriptionStatus: 'unpaid' });

    // Other users' sign-ups reach the admin's table as soon as identity's and billing's events are projected.
    await waitUntil(
      async () => {
        const rows = (await admin.get(`/api/admin/users?q=${tag}&limit=10`)).body as { trialEndDate: string | null }[];
        return rows.length === 5 && rows.every((row) => row.trialEndDate);
      },
      5000,
      'the new users in the admin table',
    );
    const page = await admin.get(`/api/admin/users?q=${tag.toUpperCase()}&limit=2&page=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe('5');
    expect(page.body.map((u: { username: string }) => u.username)).toEqual([made[4]!.username, made[3]!.username]);
    expect(Object.keys(page.body[0]).sort()).toEqual([
      'createdAt',
      'email',
      'id',
      'subscriptionStatus',
      'trialEndDate',
      'trialStartDate',
      'username',
    ]);
    expect(page.text).not.toMatch(/password|hash|argon/i);
    const third = await admin.get(`/api/admin/users?q=${tag}&limit=2&page=3`);
    expect(third.body.map((u: { username: string }) => u.username)).toEqual([made[0]!.username]);
    const beyond = await admin.get(`/api/admin/users?q=${tag}&limit=2&page=9`);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total-count')).toBe('5');

    const all = (await admin.get(`/api/admin/users?q=${tag}&limit=10`)).body as { id: string }[];
    const byId = new Map(all.map((u) => [u.id, u]));
    expect(byId.get(made[1]!.id)).toMatchObject({ subscriptionStatus: 'active' });
    expect(byId.get(made[2]!.id)).toMatchObject({ subscriptionStatus: 'unpaid' });
    expect(byId.get(made[3]!.id)).toMatchObject({
      subscriptionStatus: 'trialing',
      trialStartDate: expect.stringMatching(/Z$/),
      trialEndDate: expect.stringMatching(/Z$/),
      createdAt: expect.stringMatching(/Z$/),
      email: null,
    });
    // The email is searched too; % and _ are literal.
    expect((await admin.get(`/api/admin/users?q=${tag}@example`)).body).toHaveLength(1);
    expect((await admin.get(`/api/admin/users?q=${tag}%25`)).body).toHaveLength(0);
    expect((await admin.get('/api/admin/users?limit=500')).status).toBe(400);
    expect((await admin.get('/api/admin/users?page=abc')).status).toBe(400);

    const counts = (await admin.get('/api/admin/users/summary')).body;
    expect(counts.totalUsers).toBeGreaterThanOrEqual(6);
    expect(counts.activeSubscriptions).toBeGreaterThanOrEqual(1);
    expect(counts.unpaidUsers).toBeGreaterThanOrEqual(1);
    expect(counts.trialUsers).toBeGreaterThanOrEqual(3);
  });

  it('deletes a user with everything they own, ends their sessions; never the admin, 404 for nobody', async () => {
    const doomed = await signUp('doomed');
    const project = await doomed.client.post('/api/projects', { name: 'Soon gone' });
    expect(project.status).toBe(201);
    const other = await signUp('stays');

    const deleted = await admin.request('DELETE', `/api/admin/users/${doomed.id}`);
    expect(deleted.status).toBe(204);
    expect((await doomed.client.get('/api/user')).status).toBe(401);
    expect((await doomed.client.get('/api/projects')).status).toBe(401);
    const signIn = await new Client(backend.url).post('/api/login', {
      username: doomed.username,
      password: 'secret-pass-1',
    });
    expect(signIn.status).toBe(401);
    expect((await admin.get(`/api/admin/users?q=${doomed.username}`)).body).toEqual([]);
    expect((await other.client.get('/api/user')).status).toBe(200);

    expect((await admin.request('DELETE', `/api/admin/users/${doomed.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', '/api/admin/users/not-an-id')).status).toBe(404);
    const me = (await admin.get('/api/user')).body;
    const self = await admin.request('DELETE', `/api/admin/users/${me.id}`);
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('ADMIN_ACCOUNT');
  });
});

describe('admin comments', () => {
  it('validates, defaults to normal, and lists every comment for the admin', async () => {
    const blank = await admin.post('/api/admin/comments', { message: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.fieldErrors).toEqual({ message: ['Message is required'] });
    const priority = await admin.post('/api/admin/comments', { message: 'Hi', priority: 'critical' });
    expect(priority.status).toBe(400);
    expect(priority.body.fieldErrors).toEqual({ priority: ['Priority must be normal, high or urgent'] });

    const created = await admin.post('/api/admin/comments', { message: 'Maintenance on Sunday' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ message: 'Maintenance on Sunday', priority: 'normal', isActive: true });
    const all = (await admin.get('/api/admin/comments/all')).body;
    expect(all[0]).toMatchObject({ id: created.body.id, adminUsername: 'admin', isActive: true });
  });

  it('edits, switches off and on, and deletes; a user sees the change at their very next read', async () => {
    const { client } = await signUp('reader');
    const { id } = (await admin.post('/api/admin/comments', { message: 'Version 2 is out', priority: 'high' })).body;
    const visible = async () =>
      ((await client.get('/api/admin/comments')).body as { id: string; message: string; priority: string }[]).find(
        (c) => c.id === id,
      );
    for (let round = 0; round < 10; round++) {
      const edited = await admin.request('PUT', `/api/admin/comments/${id}`, {
        id,
        message: `Version 2.${round} is out`,
        priority: round % 2 ? 'urgent' : 'normal',
      });
      expect(edited.status).toBe(200);
      expect(await visible()).toMatchObject({ message: `Version 2.${round} is out` });
      expect((await admin.request('PUT', `/api/admin/comments/${id}`, { id, isActive: false })).status).toBe(200);
      expect(await visible()).toBeUndefined();
      expect((await admin.request('PUT', `/api/admin/comments/${id}`, { id, isActive: true })).body.isActive).toBe(
        true,
      );
      expect(await visible()).toBeDefined();
    }
    expect(
      (await admin.request('PUT', `/api/admin/comments/${id}`, { id, message: '', priority: 'normal' })).body
        .fieldErrors,
    ).toEqual({ message: ['Message is required'] });
    expect((await admin.request('PUT', `/api/admin/comments/${id}`, {})).status).toBe(400);
    expect((await admin.request('DELETE', `/api/admin/comments/${id}`)).status).toBe(204);
    expect(await visible()).toBeUndefined();
    expect((await admin.get('/api/admin/comments/all')).body.some((c: { id: string }) => c.id === id)).toBe(false);
    expect((await admin.request('DELETE', `/api/admin/comments/${id}`)).status).toBe(404);
    expect((await admin.request('PUT', `/api/admin/comments/${id}`, { isActive: true })).status).toBe(404);
    expect((await admin.request('PUT', '/api/admin/comments/nope', { isActive: true })).status).toBe(404);
  });
});

describe('contact inbox', () => {
  it('shows users’ messages newest first with sender and time, and marks them handled', async () => {
    const { client, username } = await signUp('writer');
    for (const subject of ['First question', 'Second question'])
      expect((await client.post('/api/contact-admin', { subject, message: `About ${subject}` })).status).toBe(201);
    const inbox = async () =>
      (
        (await admin.get('/api/admin/contact-messages')).body as {
          username: string;
          subject: string;
          handled: boolean;
          id: string;
        }[]
      ).filter((m) => m.username === username);
    let messages: Awaited<ReturnType<typeof inbox>> = [];
    await waitUntil(
      async () => {
        messages = await inbox();
        return messages.length === 2;
      },
      5000,
      'both messages in the inbox',
    );
    expect(messages.map((m) => m.subject)).toEqual(['Second question', 'First question']);
    expect(messages[0]).toMatchObject({ handled: false, handledAt: null, createdAt: expect.stringMatching(/Z$/) });
    const marked = await admin.request('PUT', `/api/admin/contact-messages/${messages[0]!.id}`, { handled: true });
    expect(marked.status).toBe(200);
    expect((await inbox())[0]).toMatchObject({ handled: true, handledAt: expect.stringMatching(/Z$/) });
    expect(
      (await admin.request('PUT', `/api/admin/contact-messages/${messages[0]!.id}`, { handled: 'yes' })).status,
    ).toBe(400);
    expect(
      (
        await admin.request('PUT', '/api/admin/contact-messages/0193a1b2-0000-7000-8000-00000000dead', {
          handled: true,
        })
      ).status,
    ).toBe(404);
  });
});

describe('the administrator account', () => {
  it('is made with ADMIN_PASSWORD once: a password changed in the app stays changed through a restart', async () => {
    const changed = 'a-new-admin-secret-7';
    expect(
      (await admin.post('/api/user/change-password', { oldPassword: ADMIN_PASSWORD, newPassword: changed })).status,
    ).toBe(200);
    await backend.restart();
    const again = new Client(backend.url);
    expect((await again.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(401);
    expect((await again.post('/api/login', { username: 'admin', password: changed })).status).toBe(200);
    admin = again;
  });
});
