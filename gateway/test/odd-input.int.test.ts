import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend, uniqueUsername } from './harness.ts';

/**
 * Bad input gets a clear 4xx with the error body, never a 5xx: every call of the /api surface, with
 * bodies of the wrong shape, type, size and depth, odd ids and odd query strings.
 */
let backend: Backend;
let user: Client;
let admin: Client;
let projectId: string;
let reminderId: string;
const ADMIN_PASSWORD = 'admin-secret-1';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  user = new Client(backend.url);
  expect((await user.post('/api/register', { username: uniqueUsername('odd'), password: 'secret1' })).status).toBe(201);
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
  projectId = (await user.post('/api/projects', { name: 'Odd inputs' })).body.id;
  const reminder = await user.post('/api/reminders', {
    projectId,
    title: 'Odd reminder',
    dueDate: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(reminder.status).toBe(201);
  reminderId = reminder.body.id;
});
afterAll(async () => {
  await backend?.stop();
});

const nested = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
const bodies = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '123',
  '{}',
  '{"name":null,"title":{},"notes":[],"version":1,"status":"nope","costEstimate":-1}',
  '{"name":"x","costEstimate":1e308,"checklist":"yes","metadata":{"socialLinks":"x"}}',
  '{"projectId":"not-a-uuid","dueDate":"2026-02-30","notes":"hello","redeployed":"yes"}',
  '{"changes":[1,{},null],"url":"javascript:alert(1)","notificationTimes":[1e9,-1]}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  `{"name":"${'x'.repeat(20_000)}","message":"${'y'.repeat(200_000)}"}`,
  // Deeper than JSON.stringify can write back; each under the gateway's 100 kB limit.
  `{"name":${nested},"title":"Odd","username":"odd"}`,
  `{"username":${nested},"password":"secret1"}`,
  `{"currentPassword":${nested},"newPassword":"secret2"}`,
  `{"query":"${'{ a '.repeat(3000)}${'}'.repeat(3000)}"}`,
  // Dates a timestamp column cannot hold.
  '{"title":"Odd date","dueDate":"-010000-01-01T00:00:00.000Z","projectId":"PROJECT_ID","message":"Odd date","expiresAt":"-010000-01-01T00:00:00.000Z"}',
  // Text PostgreSQL cannot hold (a NUL, half a surrogate pair) in every text field a call may take.
  ...['\\u0000', '\\ud800'].map(
    (bad) =>
      `{"name":"a${bad}b","description":"${bad}","title":"Odd ${bad}","notes":"notes ${bad} here","version":"1.0${bad}",` +
      `"message":"Hello ${bad}","subject":"Hi ${bad}","email":"a${bad}@example.com","displayName":"${bad}","bio":"${bad}",` +
      `"username":"n${bad}ul","password":"secret1","projectId":"PROJECT_ID","dueDate":"2030-01-01T00:00:00.000Z"}`,
  ),
];
const ids = () => [projectId, reminderId, '00000000-0000-7000-8000-000000000000', 'nope', '%00', 'x'.repeat(3000)];

const writes: [string, string][] = [
  ['POST', '/api/register'],
  ['POST', '/api/login'],
  ['POST', '/api/projects'],
  ['POST', '/api/activities'],
  ['POST', '/api/reminders'],
  ['POST', '/api/reminders/calendar'],
  ['POST', '/api/profile'],
  ['POST', '/api/contact-admin'],
  ['POST', '/api/user/account-info'],
  ['POST', '/api/user/change-password'],
  ['POST', '/api/notifications/settings'],
  ['POST', '/api/graphql'],
];
const writesOnIds: [string, string][] = [
  ['PUT', '/api/projects/:id'],
  ['POST', '/api/projects/:id/backup'],
  ['POST', '/api/projects/:id/deployment'],
  ['POST', '/api/projects/:id/version'],
  ['PATCH', '/api/reminders/:id'],
  ['POST', '/api/reminders/:id/complete'],
];
const reads = [
  '/api/projects?sort=zzz&filter=%00',
  '/api/activities?page=-5&limit=1e9',
  '/api/activities?page=99999999999999999999&limit=abc',
  '/api/reminders',
  '/api/profile',
  '/api/notifications/settings',
  '/api/subscription/status',
  '/api/graphql?query=%7B',
];

async function expectNo5xx(client: Client, method: string, path: string, template?: string) {
  // PROJECT_ID: the user's real project, so that only the odd part of a body is wrong.
  const body = template?.replaceAll('PROJECT_ID', projectId);
  const response = await client.request(
    method,
    path,
    body,
    body === undefined ? {} : { 'content-type': 'application/json' },
  );
  expect(response.status, `${method} ${path.slice(0, 60)} ${String(body).slice(0, 60)}`).toBeLessThan(500);
  if (response.status >= 400 && !path.startsWith('/api/graphql')) {
    expect(response.body, `${method} ${path.slice(0, 60)}`).toMatchObject({
      message: expect.any(String),
      code: expect.any(String),
    });
  }
}

describe('odd input', () => {
  it('never gets a 5xx from the calls that take a body', async () => {
    for (const [method, path] of writes) for (const body of bodies) await expectNo5xx(user, method, path, body);
    for (const [method, path] of writesOnIds)
      for (const id of ids()) for (const body of bodies) await expectNo5xx(user, method, path.replace(':id', id), body);
    for (const body of bodies) {
      await expectNo5xx(admin, 'POST', '/api/admin/comments', body);
      await expectNo5xx(admin, 'PUT', `/api/admin/users/${projectId}/subscription`, body);
      for (const id of ids()) {
        await expectNo5xx(admin, 'POST', `/api/admin/users/${id}/extend-trial`, body);
        await expectNo5xx(admin, 'PUT', `/api/admin/comments/${id}`, body);
        await expectNo5xx(admin, 'PUT', `/api/admin/contact-messages/${id}`, body);
      }
    }
    for (const query of [
      '?q=%00',
      '?q=%25_%5C',
      '?page=0',
      '?page=1e99&limit=-1',
      `?q=${'x'.repeat(3000)}`,
      '?q[]=a&q[]=b',
    ])
      await expectNo5xx(admin, 'GET', `/api/admin/users${query}`);
    for (const id of ids()) await expectNo5xx(admin, 'DELETE', `/api/admin/users/${id}`);
  });

  it('leaves every projection flowing: nothing stored that a projector cannot write', async () => {
    // Each read waits (read-your-writes) for its projector to reach these writes; a projector stuck
    // on an event it cannot write would never get there, and the reads would miss them.
    const project = await user.post('/api/projects', { name: 'After the odd input' });
    expect(project.status).toBe(201);
    expect((await user.get('/api/projects')).body.map((p: { id: string }) => p.id)).toContain(project.body.id);
    const timeline = await user.get('/api/activities');
    expect(timeline.body.map((a: { projectId: string | null }) => a.projectId)).toContain(project.body.id);
    const reminder = await user.post('/api/reminders', {
      projectId: project.body.id,
      title: 'After the odd input',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    expect((await user.get('/api/reminders')).body.map((r: { id: string }) => r.id)).toContain(reminder.body.id);
    const posted = await admin.post('/api/admin/comments', { message: 'After the odd input' });
    expect(posted.status).toBe(201);
    expect((await admin.get('/api/admin/comments')).body.map((c: { message: string }) => c.message)).toContain(
      'After the odd input',
    );
  });

  it('never gets a 5xx from reads with odd ids and query strings, signed in or not', async () => {
    for (const client of [user, new Client(backend.url)]) {
      for (const path of reads) await expectNo5xx(client, 'GET', path);
      for (const id of ids()) {
        for (const path of ['/api/projects/:id', '/api/projects/:id/activities?page=x', '/api/reminders/:id']) {
          await expectNo5xx(client, 'GET', path.replace(':id', id));
        }
        await expectNo5xx(client, 'GET', `/api/calendar/${id}.ics`);
      }
    }
  });
});
