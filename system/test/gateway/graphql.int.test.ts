import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
const ADMIN_PASSWORD = 'graphql-admin-password';

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
});
afterAll(async () => {
  await backend?.stop();
});

const DASHBOARD = /* GraphQL */ `
  query Dashboard($filter: ProjectFilter, $sort: ProjectSort) {
    dashboard {
      user { id username email subscriptionStatus isAdmin }
      counters { totalProjects activeProjects completedProjects totalChange activeChange completedChange }
      projects(filter: $filter, sort: $sort) { id name status checklist { deployed } costEstimate createdAt }
      recentActivities { id projectId eventType action details timestamp }
    }
  }
`;

describe('dashboard GraphQL query', () => {
  it('gives the dashboard everything in one round trip, including writes made just before', async () => {
    const client = new Client(backend.url);
    const username = uniqueUsername('dash');
    await client.post('/api/register', { username, password: 'secret-pass-1' });
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel'];
    for (const [i, name] of names.entries()) {
      await client.post('/api/projects', { name, status: i % 2 === 0 ? 'development' : 'deployed' });
    }
    const response = await client.post('/api/graphql', { query: DASHBOARD, variables: { sort: 'name_asc' } });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const { dashboard } = response.body.data;
    expect(dashboard.user).toMatchObject({ username, subscriptionStatus: 'trialing', isAdmin: false });
    expect(dashboard.counters).toEqual({
      totalProjects: 8,
      activeProjects: 4,
      completedProjects: 4,
      totalChange: 8,
      activeChange: 4,
      completedChange: 4,
    });
    expect(dashboard.projects.map((p: { name: string }) => p.name)).toEqual(names.slice(0, 6));
    expect(dashboard.recentActivities).toHaveLength(3);
    expect(dashboard.recentActivities[0]).toMatchObject({
      eventType: 'project_created',
      details: 'Created project: Hotel',
    });

    const filtered = await client.post('/api/graphql', {
      query: DASHBOARD,
      variables: { filter: 'deployed', sort: 'newest' },
    });
    expect(filtered.body.data.dashboard.projects.map((p: { name: string }) => p.name)).toEqual([
      'Hotel',
      'Foxtrot',
      'Delta',
      'Bravo',
    ]);
  });

  it('answers 401 when signed out, refuses foreign origins, and reports bad queries as GraphQL errors', async () => {
    const anonymous = await new Client(backend.url).post('/api/graphql', { query: DASHBOARD });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].message).toBe('Not signed in');
    const client = new Client(backend.url);
    await client.post('/api/register', { username: uniqueUsername('dash'), password: 'secret-pass-1' });
    expect((await client.post('/api/graphql', { query: DASHBOARD }, { origin: 'https://evil.example' })).status).toBe(
      403,
    );
    // As urql asks (GraphQL over HTTP): an invalid request is a 400.
    const modern = { accept: 'application/graphql-response+json, application/json' };
    const bad = await client.post('/api/graphql', { query: '{ dashboard { nope } }' }, modern);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toMatch(/Cannot query field "nope"/);
    // Only documents that validated are kept for reuse: the same bad text is refused again.
    const again = await client.post('/api/graphql', { query: '{ dashboard { nope } }' }, modern);
    expect(again.status).toBe(400);
    expect(again.body.errors[0].message).toMatch(/Cannot query field "nope"/);
    const badEnum = await client.post('/api/graphql', { query: DASHBOARD, variables: { sort: 'random' } }, modern);
    expect(badEnum.status).toBe(400);
    expect(
      (await client.post('/api/graphql', 'not json', { ...modern, 'content-type': 'application/json' })).status,
    ).toBe(400);
    expect((await client.post('/api/graphql', { query: 'mutation { dashboard }' }, modern)).status).toBe(400);
    expect((await client.post('/api/graphql', { query: DASHBOARD, variables: [1] }, modern)).status).toBe(400);
    expect((await client.post('/api/graphql', { nope: 1 }, modern)).body.errors[0].message).toBe(
      'Must provide query string.',
    );
    expect((await client.post('/api/graphql', 'query', { 'content-type': 'text/plain' })).status).toBe(415);
    // A query may come as a GET too; the answer's type follows what the client accepts.
    const viaGet = await client.get(
      `/api/graphql?query=${encodeURIComponent('{ dashboard { counters { totalProjects } } }')}`,
      modern,
    );
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(viaGet.body).toEqual({ data: { dashboard: { counters: { totalProjects: 0 } } } });
    // Nested thousands deep: refused by its size, not a stack overflow's 500.
    const deep = await client.post('/api/graphql', { query: `${'{ a '.repeat(3000)}${'}'.repeat(3000)}` }, modern);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toMatch(/^Syntax Error: Document contains more th.. 1000 tokens/);
    // A field that reads a service, under many aliases, would be as many reads: each is asked for once.
    const aliases = Array.from({ length: 60 }, (_, i) => `a${i}: recentActivities(limit: ${i + 1}) { id }`);
    for (const query of [
      `{ dashboard { ${aliases.join(' ')} } }`,
      '{ dashboard { recentActivities { id } again: recentActivities(limit: 4) { id } } }',
      '{ one: dashboard { monitors { id } } two: dashboard { monitors { id } } }',
      '{ dashboard { ...A more: monitors { id } } } fragment A on Dashboard { monitors { id } }',
    ]) {
      const aliased = await client.post('/api/graphql', { query }, modern);
      expect(aliased.status, query).toBe(400);
      expect(aliased.body.errors[0].message).toMatch(/^Ask for (dashboard\.)?\w+ once/);
    }
    // The same field twice under one name is one read, as GraphQL merges it.
    const merged = await client.post(
      '/api/graphql',
      { query: '{ dashboard { monitors { id } monitors { id } } }' },
      modern,
    );
    expect(merged.status).toBe(200);
  });
});

describe('dashboard upcoming reminders', () => {
  it('lists active reminders by due date, at most 5, each with its project name', async () => {
    const client = new Client(backend.url);
    await client.post('/api/register', { username: uniqueUsername('rem'), password: 'secret-pass-1' });
    const project = (await client.post('/api/projects', { name: 'Reminder Host' })).body;
    const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const ids: string[] = [];
    for (const days of [6, 2, 4, 1, 5, 3]) {
      ids.push(
        (await client.post('/api/reminders', { projectId: project.id, title: `In ${days} days`, dueDate: dueIn(days) }))
          .body.id,
      );
    }
    await client.post(`/api/reminders/${ids[3]}/complete`);
    const response = await client.post('/api/graphql', {
      query: '{ dashboard { upcomingReminders { title projectName isCompleted } } }',
    });
    expect(response.body.data.dashboard.upcomingReminders).toEqual(
      ['In 2 days', 'In 3 days', 'In 4 days', 'In 5 days', 'In 6 days'].map((title) => ({
        title,
        projectName: 'Reminder Host',
        isCompleted: false,
      })),
    );
  });
});

describe('the shell in the same round trip', () => {
  it('gives every reminder for the bell, the admin messages for the sidebar and the monitors for the cards, as their own reads do', async () => {
    const admin = new Client(backend.url);
    expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await admin.post('/api/admin/comments', { message: 'Maintenance tonight', priority: 'high' })).status).toBe(
      201,
    );
    const { client } = await backend.signUp('shell');
    const project = (await client.post('/api/projects', { name: 'Bell Host' })).body;
    const monitor = (await client.post(`/api/projects/${project.id}/monitors`, { url: 'https://bell.example.com/' }))
      .body;
    const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    for (const days of [3, 1, 2])
      await client.post('/api/reminders', { projectId: project.id, title: `In ${days} days`, dueDate: dueIn(days) });
    const first = (await client.get('/api/reminders')).body[0].id;
    expect((await client.post(`/api/reminders/${first}/complete`)).status).toBe(200);

    const response = await client.post('/api/graphql', {
      query: `{ dashboard {
        reminders { id projectId projectName title description dueDate isCompleted }
        adminMessages { id message priority createdAt adminUsername }
        upcomingReminders { title }
        monitors { id projectId kind url state }
      } }`,
    });
    expect(response.status).toBe(200);
    const { reminders, adminMessages, upcomingReminders, monitors } = response.body.data.dashboard;
    expect(monitors).toEqual([
      { id: monitor.id, projectId: project.id, kind: 'http', url: 'https://bell.example.com/', state: 'pending' },
    ]);
    const pick = (r: Record<string, unknown>) =>
      Object.fromEntries(
        ['id', 'projectId', 'projectName', 'title', 'description', 'dueDate', 'isCompleted'].map((k) => [k, r[k]]),
      );
    expect(reminders).toEqual((await client.get('/api/reminders')).body.map(pick));
    expect(reminders.filter((r: { isCompleted: boolean }) => r.isCompleted)).toHaveLength(1);
    expect(upcomingReminders).toHaveLength(2);
    const comments = (await client.get('/api/admin/comments')).body;
    expect(adminMessages).toEqual(comments);
    expect(adminMessages.map((m: { message: string }) => m.message)).toContain('Maintenance tonight');
  });
});
