import type { ExportFile } from '@shiplog/schemas';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Reminders' due dates weeks ahead of whenever the test runs, on the hour: none falls due during it. */
const hoursAhead = (hours: number) => new Date((Math.floor(Date.now() / 3_600_000) + hours) * 3_600_000).toISOString();
const renewDue = hoursAhead(90 * 24);
const weeklyDue = hoursAhead(35 * 24);

const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
});

async function subscribedUser(prefix: string) {
  const user = await backend.signUp(prefix);
  const set = await admin.request('PUT', `/api/admin/users/${user.id}/subscription`, { subscriptionStatus: 'active' });
  expect(set.status).toBe(200);
  return user;
}

async function created(answer: Promise<{ status: number; body: { id: string } }>, status = 201) {
  const { status: got, body } = await answer;
  expect(got).toBe(status);
  return body;
}

/** A builder's month: projects edited, ticked, backed up, deployed and released; reminders; one deleted project. */
async function liveAMonth(client: Client) {
  const site = await created(
    client.post('/api/projects', {
      name: 'Weather, "the" API',
      description: '=HYPERLINK("http://evil.example")',
      status: 'development',
      costEstimate: 1299,
      replitId: '@ada/weather',
      isPublic: false,
      checklist: { databaseAdded: true },
      metadata: { socialLinks: { github: 'https://github.com/ada/weather', twitter: '@ada' } },
    }),
  );
  const blog = await created(client.post('/api/projects', { name: 'Blog' }));
  const gone = await created(client.post('/api/projects', { name: 'Abandoned idea' }));
  expect((await client.request('PUT', `/api/projects/${site.id}`, { status: 'deployed', hasTests: true })).status).toBe(
    200,
  );
  expect(
    (
      await client.post(`/api/projects/${site.id}/backup`, {
        version: '1.0.0',
        notes: 'Before the migration',
        backupDetails: { location: 's3://backups/weather', size: '12 MB' },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await client.post(`/api/projects/${site.id}/deployment`, {
        environment: 'production',
        version: '1.0.0',
        url: 'https://weather.example',
      })
    ).status,
  ).toBe(201);
  expect(
    (await client.post(`/api/projects/${site.id}/version`, { version: '1.1.0', changes: ['Hourly forecasts'] })).status,
  ).toBe(201);
  const renew = await created(
    client.post('/api/reminders', {
      projectId: site.id,
      title: 'Renew the domain',
      description: 'Before it lapses',
      dueDate: renewDue,
      reminderTimes: ['1_day_before', '1_hour_before'],
    }),
  );
  await created(
    client.post('/api/reminders', {
      projectId: blog.id,
      title: 'Write the weekly post',
      dueDate: weeklyDue,
      frequency: 'weekly',
    }),
  );
  expect((await client.post(`/api/reminders/${renew.id}/complete`)).status).toBe(200);
  expect((await client.request('DELETE', `/api/projects/${gone.id}`)).status).toBe(204);
}

async function exported(client: Client): Promise<ExportFile> {
  const answer = await client.get('/api/export');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-disposition')).toMatch(
    /^attachment; filename="shiplog-.+-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  return answer.body;
}

/**
 * What must survive a round trip: everything but the ids this account gave, told by project name
 * instead, and each entry's actor as whether the account itself acted, and with which token.
 */
function comparable(file: ExportFile) {
  const nameOf = (id: string | null) => (id === null ? null : file.projects.find((p) => p.id === id)!.name);
  return {
    projects: file.projects.map(({ id: _id, userId: _user, ...project }) => project),
    reminders: file.reminders.map(
      ({ id: _id, userId: _user, projectId, assigneeId, assigneeName: _name, ...reminder }) => ({
        ...reminder,
        project: nameOf(projectId),
        ownAssignee: assigneeId === _user,
      }),
    ),
    // Entries of the same millisecond are in the order of their ids, which the import gives anew.
    activities: file.activities
      .map(({ id: _id, userId: _user, projectId, actor, ...activity }) => ({
        ...activity,
        project: nameOf(projectId),
        actor: actor && { own: actor.userId === _user, token: actor.token },
      }))
      .toSorted((a, b) => a.timestamp.localeCompare(b.timestamp) || a.details.localeCompare(b.details)),
  };
}

describe('export and import', () => {
  it('exports with a personal API token as with the session (`shiplog export`), and makes no session', async () => {
    const ada = await subscribedUser('tokenexport');
    const { token } = (await ada.client.post('/api/tokens', { name: 'backup job' })).body as { token: string };
    const authorization = `Bearer ${token}`;
    // Made with the token while the project list lags: its export waits for its own write, as its
    // other reads do (its client keeps no cookies; the gateway keeps its positions by token).
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    let answer: Response;
    try {
      const made = await fetch(`${backend.url}/api/projects`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Exported by token' }),
      });
      expect(made.status).toBe(201);
      const exporting = fetch(`${backend.url}/api/export`, { headers: { authorization } });
      await held.untilReadWaits();
      await held.release();
      answer = await exporting;
    } finally {
      await held.release();
    }
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toBeNull();
    const file = (await answer.json()) as ExportFile;
    expect(file.projects.map((p) => p.name)).toEqual(['Exported by token']);
    expect(file.projects).toEqual((await exported(ada.client)).projects);
  });

  it('exports everything as JSON, and imports it into a fresh account equal, once however often it runs', async () => {
    const ada = await subscribedUser('exporter');
    await liveAMonth(ada.client);
    const file = await exported(ada.client);
    expect(file).toMatchObject({ format: 'shiplog-export', version: 1, username: ada.username });
    expect(file.projects.map((p) => p.name).sort()).toEqual(['Blog', 'Weather, "the" API']);
    expect(file.reminders.map((r) => r.title).sort()).toEqual(['Renew the domain', 'Write the weekly post']);
    // The deleted project's history stays, without its project; oldest first.
    const details = file.activities.map((a) => a.details);
    expect(details).toContain('Created project: Abandoned idea');
    expect(file.activities.find((a) => a.details === 'Created project: Abandoned idea')!.projectId).toBeNull();
    expect(file.activities.map((a) => a.timestamp)).toEqual(file.activities.map((a) => a.timestamp).toSorted());
    expect(file.activities.length).toBeGreaterThanOrEqual(10);

    // A fresh account (on its trial: import is not a paid feature).
    const grace = await backend.signUp('importer');
    const answer = await grace.client.post('/api/import', file);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      projects: 2,
      reminders: 2,
      activities: file.activities.length,
      importedBefore: { projects: 0, reminders: 0, activities: 0 },
    });

    // Its lists show it at once (the answer's positions), with the original dates.
    const projects = await grace.client.get('/api/projects');
    expect(projects.body.map((p: { name: string }) => p.name).sort()).toEqual(['Blog', 'Weather, "the" API']);
    const history = await grace.client.get('/api/activities?limit=100');
    expect(history.body).toHaveLength(file.activities.length);

    const set = await admin.request('PUT', `/api/admin/users/${grace.id}/subscription`, { subscriptionStatus: 'paid' });
    expect(set.status).toBe(200);
    const again = await exported(grace.client);
    expect(comparable(again)).toEqual(comparable(file));
    // New ids, this account's.
    expect(again.projects.map((p) => p.id)).not.toContain(file.projects[0]!.id);
    expect(new Set(again.projects.map((p) => p.userId))).toEqual(new Set([grace.id]));

    // The same file again, and the dashboard's counters: nothing twice, and the answer says so.
    const twice = await grace.client.post('/api/import', file);
    expect(twice.status).toBe(201);
    expect(twice.body).toEqual({
      projects: 0,
      reminders: 0,
      activities: 0,
      importedBefore: { projects: 2, reminders: 2, activities: file.activities.length },
    });
    expect(comparable(await exported(grace.client))).toEqual(comparable(file));
    const dashboard = await grace.client.post('/api/graphql', {
      query: '{ dashboard { counters { totalProjects completedProjects } } }',
    });
    expect(dashboard.body.data.dashboard.counters).toEqual({ totalProjects: 2, completedProjects: 1 });
  });

  it('exports a zip of one CSV file per kind, quoted, with formulas defused', async () => {
    const ada = await subscribedUser('csv');
    await liveAMonth(ada.client);
    const response = await fetch(`${backend.url}/api/export?format=csv`, { headers: { cookie: ada.client.cookie! } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/filename="shiplog-.+\.zip"$/);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['activities.csv', 'projects.csv', 'reminders.csv']);
    const projects = strFromU8(files['projects.csv']!).split('\r\n');
    expect(projects[0]).toBe(
      'id,name,description,status,databaseAdded,authenticationAdded,deployed,backedUp,hasTests,costEstimateUsd,replitId,isPublic,github,website,docs,twitter,instagram,createdAt,updatedAt',
    );
    const weather = projects.find((line) => line.includes('Weather'))!;
    expect(weather).toContain(`,"Weather, ""the"" API","'=HYPERLINK(""http://evil.example"")",deployed,true,`);
    expect(weather).toContain(",12.99,'@ada/weather,false,https://github.com/ada/weather,,,https://twitter.com/ada,,");
    expect(projects.at(-1)).toBe('');
    const reminders = strFromU8(files['reminders.csv']!).split('\r\n');
    expect(reminders.find((line) => line.includes('Renew the domain'))).toContain(
      `,${renewDue},1_day_before 1_hour_before,once,true,`,
    );
    const activities = strFromU8(files['activities.csv']!).split('\r\n');
    expect(activities[0]).toBe('id,projectId,timestamp,eventType,action,details,version,status,metadata,actor,token');
    expect(activities.length - 2).toBe((await exported(ada.client)).activities.length);
  });

  it('keeps export for the paid plan, and needs a session for both', async () => {
    const trial = await backend.signUp('trial');
    for (const format of ['json', 'csv']) {
      const answer = await trial.client.get(`/api/export?format=${format}`);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        code: 'SUBSCRIPTION_REQUIRED',
        message: 'Export requires an active subscription. Please upgrade to use this feature.',
      });
    }
    const ada = await subscribedUser('formats');
    const bad = await ada.client.get('/api/export?format=xml');
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ format: ['format must be one of: json, csv'] });

    const anonymous = new Client(backend.url);
    expect((await anonymous.get('/api/export')).status).toBe(401);
    expect((await anonymous.post('/api/import', { format: 'shiplog-export' })).status).toBe(401);
  });

  it('refuses a bad file with a 400 naming each problem, and brings none of it in', async () => {
    const user = await backend.signUp('badfile');
    const notExport = await user.client.post('/api/import', { projects: [] });
    expect(notExport.status).toBe(400);
    expect(notExport.body.fieldErrors.format).toEqual(['This is not a Shiplog export file']);

    const stamp = '2026-01-01T00:00:00.000Z';
    const file = {
      format: 'shiplog-export',
      version: 1,
      projects: [
        { id: 'p1', name: 'Fine', createdAt: stamp, updatedAt: stamp },
        { id: 'p2', name: '', createdAt: 'yesterday', updatedAt: stamp },
      ],
      reminders: [{ id: 'r1', projectId: 'p9', title: 'Orphan', dueDate: stamp, createdAt: stamp, updatedAt: stamp }],
      activities: [
        {
          id: 'a1',
          projectId: null,
          eventType: 'project_created',
          action: 'created',
          details: 'Created project: Fine',
          metadata: { deep: { deeper: { deepest: { too: 'far' } } } },
          timestamp: stamp,
        },
      ],
    };
    const answer = await user.client.post('/api/import', file);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(answer.body.fieldErrors).sort()).toEqual([
      'activities.0.metadata.deep',
      'projects.1.createdAt',
      'projects.1.name',
    ]);
    expect(answer.body.fieldErrors['projects.1.name']).toEqual(['Project name is required']);
    // Each part well formed, but a reminder whose project the file does not hold.
    const orphan = await user.client.post('/api/import', {
      ...file,
      projects: [file.projects[0]],
      activities: [{ ...file.activities[0], metadata: {} }],
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.fieldErrors).toEqual({ 'reminders.0.projectId': ['The reminder’s project is not in the file'] });
    expect((await user.client.get('/api/projects')).body).toEqual([]);

    // Bigger than the 100 kB other bodies may be, up to 20 MB.
    const big = {
      format: 'shiplog-export',
      version: 1,
      projects: Array.from({ length: 300 }, (_, i) => ({
        id: `p${i}`,
        name: `Project ${i}`,
        description: 'x'.repeat(1000),
        createdAt: stamp,
        updatedAt: stamp,
      })),
    };
    const imported = await user.client.post('/api/import', big);
    expect(imported.status).toBe(201);
    expect((await user.client.get('/api/projects')).body).toHaveLength(300);
  });
});
