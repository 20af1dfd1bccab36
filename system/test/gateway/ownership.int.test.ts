import { fill } from '@shiplog/gateway/routes';
import { type Answer, type ApiCall, type Backend, Client, contractOf, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type DomainStandIn, startDomainStandIn } from '@shiplog/testing/domains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The ownership matrix, generated from the route declarations (see api-surface.ts): every route answers 401
 * signed out unless it is public, every admin route answers 403 to a user, and every route that takes
 * an id answers 404 when user B names user A's resource, with A's data unchanged afterwards. A route
 * this file cannot place (an id it has no resource for) fails the test: add it here. Every answer any
 * client gets here, the owner's and the refusals alike, is then checked against the OpenAPI document.
 * The role matrix does the same for a team workspace's project: every route that declares the role it
 * needs (`project`) is called by each role, a removed member, an outsider and their API tokens.
 */
const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let domains: DomainStandIn;
let surface: ReturnType<Backend['apiSurface']>;
let a: Client;
let b: Client;
let admin: Client;
let aId: string;
/** Every answer of the file, for the contract check at its end. */
const answers: Answer[] = [];
/** A's resources, by the kind of id a route takes. */
const owned: Record<string, string> = {};

/** The administrators' routes, as each declares (`access: 'admin'`). */
const isAdminRoute = (call: ApiCall) => call.admin;

/** Which of A's resources a path parameter names, by the path it appears in. */
const idKinds: [RegExp, string][] = [
  [/^\/api\/projects\/:id(\/|$)/, 'project'],
  [/^\/api\/projects\/:projectId\/(monitors|ping)$/, 'project'],
  [/^\/api\/monitors\/:id(\/|$)/, 'monitor'],
  [/^\/api\/alert-channels\/:id(\/|$)/, 'alertChannel'],
  [/^\/api\/reminders\/project\/:projectId$/, 'project'],
  [/^\/api\/reminders\/:id(\/|$)/, 'reminder'],
  [/^\/api\/integrations\/:id(\/|$)/, 'integration'],
  [/^\/api\/calendar\/:secret$/, 'calendar'],
  [/^\/api\/hooks\/deploy\/:secret$/, 'deployHook'],
  [/^\/api\/hooks\/github\/:hookKey$/, 'githubHook'],
  [/^\/api\/ping\/:secret(\/|$)/, 'ping'],
  [/^\/api\/admin\/comments\/:id$/, 'adminComment'],
  [/^\/api\/admin\/contact-messages\/:id$/, 'contactMessage'],
  [/^\/api\/admin\/users\/:userId(\/|$)/, 'user'],
  [/^\/api\/tokens\/:tokenId$/, 'apiToken'],
  [/^\/api\/workspaces\/:id(\/|$)/, 'workspace'],
  [/^\/api\/invites\/:id\//, 'invite'],
  [/^\/api\/sessions\/:sessionId$/, 'session'],
  [/^\/api\/public\/users\/:username(\/status)?$/, 'publicProfile'],
  [/^\/api\/public\/users\/:username\/projects\/:projectId\/changelog(\.atom)?$/, 'publicProfile'],
  [/^\/api\/badges\/:username\//, 'publicProfile'],
  [/^\/api\/public\/workspaces\/:slug\/status$/, 'teamStatus'],
];
/**
 * Anyone's to read while its owner keeps it public: B reading A's public profile is its purpose
 * (public-profile.int.test.ts proves a private one, and any private part of a public one, is not).
 */
const publicByDesign = new Set([
  'GET /api/public/users/:username',
  'GET /api/public/users/:username/status',
  'GET /api/public/users/:username/projects/:projectId/changelog',
  'GET /api/public/users/:username/projects/:projectId/changelog.atom',
  'GET /api/badges/:username/:projectId/:badge',
  'GET /api/public/workspaces/:slug/status',
]);
const kindOf = (path: string) => idKinds.find(([pattern]) => pattern.test(path))?.[1];
const takesId = (call: ApiCall) => call.path.includes('/:');

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/** A body the call would accept from its owner, so that only whose resource it is can refuse it. */
const validBodies: Record<string, unknown> = {
  'PUT /api/projects/:id': { name: 'Taken over' },
  'PUT /api/projects/:id/github': { repository: 'someone/else' },
  'POST /api/projects/:id/move': { workspaceId: null },
  'POST /api/projects/:id/backup': { version: '9.9.9', notes: 'not yours' },
  'POST /api/projects/:id/deployment': { environment: 'production', version: '9.9.9' },
  'POST /api/projects/:id/version': { version: '9.9.9', changes: ['not yours'] },
  'PATCH /api/reminders/:id': { title: 'Taken over' },
  'POST /api/projects/:projectId/monitors': { url: 'https://not-yours.example.com/' },
  'PATCH /api/monitors/:id': { paused: true, intervalSeconds: 3600 },
  'PUT /api/monitors/:id/incidents/:incidentId/note': { note: 'Not yours' },
  'POST /api/integrations/:id/import': { projectIds: ['example-1.com'] },
  'PUT /api/workspaces/:id': { name: 'Taken over' },
  'PUT /api/workspaces/:id/members/:userId': { role: 'viewer' },
  'POST /api/workspaces/:id/invites': { username: 'admin', role: 'admin' },
  'POST /api/invites/:id/preview': { secret: 'B'.repeat(64) },
};
/** Calls that name a resource in their body rather than their path. */
const bodyReferences: { method: string; path: string; body: () => unknown }[] = [
  {
    method: 'POST',
    path: '/api/activities',
    body: () => ({ projectId: owned.project, eventType: 'deployment', action: 'Deployed', details: 'not yours' }),
  },
  {
    method: 'POST',
    path: '/api/reminders',
    body: () => ({ projectId: owned.project, title: 'Not yours', dueDate: new Date(Date.now() + 86_400_000) }),
  },
];

/** Everything A can read of what B's calls could touch. */
async function snapshotOfA() {
  const reads = [
    '/api/projects',
    `/api/projects/${owned.project}`,
    `/api/projects/${owned.project}/activities`,
    '/api/activities',
    '/api/reminders',
    `/api/reminders/${owned.reminder}`,
    '/api/integrations',
    '/api/reminders/calendar',
    `/api/projects/${owned.project}/deploy-hook`,
    `/api/projects/${owned.project}/monitors`,
    `/api/projects/${owned.project}/ping`,
    '/api/monitors',
    '/api/alert-channels',
    '/api/alert-channels/deliveries',
    '/api/profile',
    '/api/user',
    '/api/tokens',
    '/api/workspaces',
    `/api/workspaces/${owned.workspace}/members`,
    `/api/workspaces/${owned.workspace}/invites`,
  ];
  const out: Record<string, unknown> = {};
  for (const path of reads) {
    const response = await a.get(path);
    expect(response.status, path).toBe(200);
    out[path] = response.body;
  }
  out.calendar = (await fetch(`${backend.url}/api/calendar/${owned.calendar}`)).status;
  return out;
}

beforeAll(async () => {
  Client.observer = (answer) => answers.push(answer);
  domains = await startDomainStandIn();
  backend = await startBackend({
    adminPassword: ADMIN_PASSWORD,
    env: {
      INTEGRATION_ALLOWED_HOSTS: domains.host,
      INTEGRATION_KEY_SECRET: 'an-integration-key-secret-for-the-tests-0123',
    },
  });
  surface = backend.apiSurface();
  const userA = await backend.signUp('owner');
  a = userA.client;
  aId = userA.id;
  b = (await backend.signUp('other')).client;
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);

  const project = await a.post('/api/projects', { name: 'A’s project', costEstimate: 12 });
  expect(project.status).toBe(201);
  owned.project = project.body.id;
  expect((await a.post(`/api/projects/${owned.project}/deployment`, { version: '1.0.0' })).status).toBe(201);
  const reminder = await a.post('/api/reminders', {
    projectId: owned.project,
    title: 'A’s reminder',
    dueDate: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(reminder.status).toBe(201);
  owned.reminder = reminder.body.id;
  const monitor = await a.post(`/api/projects/${owned.project}/monitors`, { url: 'https://a.example.com/health' });
  expect(monitor.status).toBe(201);
  owned.monitor = monitor.body.id;
  const channel = await a.post('/api/alert-channels', {
    kind: 'slack',
    name: 'A’s Slack',
    url: 'https://hooks.slack.example/services/T/B/A',
  });
  expect(channel.status).toBe(201);
  owned.alertChannel = channel.body.id;
  const integration = await a.post('/api/integrations', {
    siteName: 'A’s registrar',
    baseUrl: domains.url,
    apiKey: domains.apiKey,
  });
  expect(integration.status).toBe(201);
  owned.integration = integration.body.id;
  const token = await a.post('/api/tokens', { name: 'A’s token' });
  expect(token.status).toBe(201);
  owned.apiToken = token.body.id;
  // A's session: B ending it would sign A out, and every read of the snapshot would be a 401.
  owned.session = (await a.get('/api/sessions')).body[0].id;
  const feed = await a.post('/api/reminders/calendar');
  expect(feed.status).toBe(201);
  owned.calendar = new URL(feed.body.url, backend.url).pathname.split('/').pop()!;
  const hook = await a.post(`/api/projects/${owned.project}/deploy-hook`);
  expect(hook.status).toBe(201);
  owned.deployHook = new URL(hook.body.url).pathname.split('/').pop()!;
  const ping = await a.post(`/api/projects/${owned.project}/ping`);
  expect(ping.status).toBe(201);
  owned.ping = new URL(ping.body.url).pathname.split('/').pop()!;
  const comment = await admin.post('/api/admin/comments', { message: 'For everyone', priority: 'normal' });
  expect(comment.status).toBe(201);
  owned.adminComment = comment.body.id;
  expect((await a.post('/api/contact-admin', { subject: 'Hello', message: 'A question from A' })).status).toBe(201);
  // The admin's reads do not wait for A's write: wait for the projection here.
  await waitUntil(async () => {
    const messages = await admin.get('/api/admin/contact-messages');
    owned.contactMessage = messages.body.find((m: { message: string }) => m.message === 'A question from A')?.id;
    return owned.contactMessage !== undefined;
  });
  const workspace = await a.post('/api/workspaces', { name: 'A’s team' });
  expect(workspace.status).toBe(201);
  owned.workspace = workspace.body.id;
  const invite = await a.post(`/api/workspaces/${owned.workspace}/invites`, { email: 'someone@example.com' });
  expect(invite.status).toBe(201);
  owned.invite = invite.body.id;
  owned.user = aId;
}, 60_000);
afterAll(async () => {
  Client.observer = undefined;
  await backend?.stop();
  await domains?.stop();
});

describe('the ownership matrix', () => {
  it('covers the whole surface: every table entry answered, every id placed', () => {
    expect(surface.unanswered).toEqual([]);
    expect(surface.calls.length).toBeGreaterThan(50);
    // Every route under /api/admin is the administrators' but their messages, which every user reads in Settings.
    expect(
      surface.calls
        .filter((call) => call.path.startsWith('/api/admin/') !== call.admin)
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual(['GET /api/admin/comments']);
    const unplaced = surface.calls.filter((call) => takesId(call) && !kindOf(call.path));
    expect(unplaced.map((c) => `${c.method} ${c.path}`)).toEqual([]);
    // The routes off the surface are the ones the gateway's own actions call (sign-in, the account,
    // the dashboard's GraphQL, an API token's check, export and import, public profiles, a session's push
    // devices) or another service's (integrations reports a scheduled GitHub run and a failed one to
    // monitors); a new one
    // is a route the gateway forgot, or one to add here.
    expect(surface.internal.sort()).toEqual([
      'activity GET /activities/export',
      'activity GET /dashboard/counters',
      'activity GET /public/users/:userId/releases',
      'activity GET /public/users/:userId/shipped',
      'identity DELETE /admin/users/:userId',
      'identity DELETE /user',
      'identity GET /public/profiles/:username',
      'identity GET /public/workspaces/:slug',
      'identity GET /users/me',
      'identity POST /login',
      'identity POST /register',
      'identity POST /tokens/verify',
      'identity POST /user/change-password',
      'identity POST /user/verify-password',
      'monitors GET /public/users/:userId/status',
      'monitors GET /public/workspaces/:workspaceId/status',
      'monitors POST /projects/:projectId/runs',
      'monitors POST /projects/:projectId/workflow-failures',
      'projects GET /public/users/:userId/projects',
      'projects GET /public/workspaces/:workspaceId/projects',
      'projects POST /imports/history',
      'projects POST /imports/projects',
      'reminders DELETE /sessions/:session/push-subscriptions',
      'reminders POST /imports/reminders',
      'reminders POST /sessions/:session/push-subscriptions',
    ]);
  });

  it('answers 401 signed out on every route but the public ones', async () => {
    const anonymous = new Client(backend.url);
    const answered: string[] = [];
    for (const call of surface.calls.filter((c) => !c.public)) {
      const response = await anonymous.request(
        call.method,
        fill(call.path, owned),
        hasBody(call.method) ? {} : undefined,
      );
      if (response.status !== 401) answered.push(`${call.method} ${call.path} → ${response.status}`);
      else expect(response.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    expect(answered).toEqual([]);
    // GraphQL answers a signed-out caller itself, in its own error shape.
    expect((await anonymous.post('/api/graphql', { query: '{ dashboard { projects { id } } }' })).status).toBe(401);
  });

  it('answers 401 to a personal API token on every route whose declaration takes none, and A’s data is unchanged', async () => {
    const made = await a.post('/api/tokens', { name: 'matrix' });
    expect(made.status).toBe(201);
    const bearer = { authorization: `Bearer ${made.body.token}` };
    const anonymous = new Client(backend.url);
    const before = await snapshotOfA();
    const answered: string[] = [];
    // Every route that refuses a token, and the reads of those that take one (their writes are real).
    const calls = surface.calls.filter((c) => !c.public && (!c.token || c.method === 'GET'));
    for (const call of calls) {
      const path = fill(call.path, { ...owned, id: owned.project!, projectId: owned.project!, userId: aId });
      const response = await anonymous.request(call.method, path, hasBody(call.method) ? {} : undefined, bearer);
      const refused = response.status === 401 && response.body?.code === 'API_TOKEN_NOT_ACCEPTED';
      if (refused === call.token) answered.push(`${call.method} ${call.path} → ${response.status} ${response.text}`);
    }
    expect(answered).toEqual([]);
    expect(calls.filter((c) => c.token).length).toBeGreaterThan(3);
    // The token's own calls (reads) changed nothing but when it was last used; the refused ones could not.
    const { '/api/tokens': _used, ...after } = await snapshotOfA();
    const { '/api/tokens': _made, ...held } = before;
    expect(after).toEqual(held);
    await a.request('DELETE', `/api/tokens/${made.body.id}`);
  });

  it('answers 403 to a user on every admin route', async () => {
    const answered: string[] = [];
    for (const call of surface.calls.filter(isAdminRoute)) {
      const path = fill(call.path, { ...owned, id: owned.adminComment!, userId: aId });
      const response = await b.request(call.method, path, hasBody(call.method) ? {} : undefined);
      if (response.status !== 403) answered.push(`${call.method} ${call.path} → ${response.status}`);
    }
    expect(answered).toEqual([]);
  });

  it('answers 404 when B names A’s resource, on every route that takes one, and A’s data is unchanged', async () => {
    const before = await snapshotOfA();
    const answered: string[] = [];
    const tried: string[] = [];
    for (const call of surface.calls.filter(
      (c) => takesId(c) && !isAdminRoute(c) && !publicByDesign.has(`${c.method} ${c.path}`),
    )) {
      const id = owned[kindOf(call.path)!]!;
      const path = fill(call.path, { id, projectId: id, secret: id, userId: aId, inviteId: owned.invite! });
      const response =
        call.path === '/api/calendar/:secret'
          ? // The feed's secret is its credential: B holds none of A's, so B tries one that is no feed.
            await b.request(call.method, fill(call.path, { secret: `${'B'.repeat(32)}.ics` }))
          : call.path === '/api/hooks/deploy/:secret'
            ? // Likewise a deploy webhook's.
              await b.request(call.method, fill(call.path, { secret: 'B'.repeat(32) }), { deploymentId: 'not-yours' })
            : call.path === '/api/hooks/github/:hookKey'
              ? // And a GitHub connection's webhook address.
                await b.request(call.method, fill(call.path, { hookKey: 'B'.repeat(32) }), { zen: 'not yours' })
              : call.path.startsWith('/api/ping/:secret')
                ? // And a cron ping URL's.
                  await b.request(call.method, fill(call.path, { secret: 'B'.repeat(32) }))
                : await b.request(
                    call.method,
                    path,
                    hasBody(call.method) ? (validBodies[`${call.method} ${call.path}`] ?? {}) : undefined,
                  );
      tried.push(`${call.method} ${call.path}`);
      if (response.status !== 404) answered.push(`${call.method} ${call.path} → ${response.status} ${response.text}`);
    }
    for (const reference of bodyReferences) {
      const response = await b.request(reference.method, reference.path, reference.body());
      tried.push(`${reference.method} ${reference.path} (body)`);
      if (response.status !== 404) answered.push(`${reference.method} ${reference.path} → ${response.status}`);
    }
    expect(answered).toEqual([]);
    expect(tried.length).toBeGreaterThan(15);
    expect(await snapshotOfA()).toEqual(before);
  });
});

describe('the role matrix', () => {
  const rank = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;
  type Role = keyof typeof rank;

  /** Invites `person` to A's workspace with `role`, and has them accept it as the app does. */
  async function join(person: { client: Client; username: string }, role: Exclude<Role, 'owner'>) {
    const sent = await a.post(`/api/workspaces/${owned.workspace}/invites`, { username: person.username, role });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await waitUntil(async () =>
      (await person.client.get('/api/invites')).body.some((i: { id: string }) => i.id === sent.body.id),
    );
    expect((await person.client.post(`/api/invites/${sent.body.id}/accept`)).status).toBe(200);
  }

  it('answers every route that acts on a project as its declared role says, for every role, a removed member, an outsider and their tokens, and a refusal changes nothing', async () => {
    const routes = surface.calls.filter((call) => call.project);
    expect(routes.length).toBeGreaterThan(20);
    const cast: Record<'admin' | 'member' | 'viewer' | 'removed', { client: Client; id: string; username: string }> = {
      admin: await backend.signUp('radmin'),
      member: await backend.signUp('rmember'),
      viewer: await backend.signUp('rviewer'),
      removed: await backend.signUp('rremoved'),
    };
    for (const role of ['admin', 'member', 'viewer'] as const) await join(cast[role], role);
    await join(cast.removed, 'member');

    // The team's project, made by A, with a reminder and a monitor on it.
    const made = await a.post('/api/projects', { name: 'The team’s', workspaceId: owned.workspace });
    expect(made.status).toBe(201);
    const project = made.body.id as string;
    const reminder = await a.post('/api/reminders', {
      projectId: project,
      title: 'Team renewal',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    const monitor = await a.post(`/api/projects/${project}/monitors`, { url: 'https://team.example.com/health' });
    expect(monitor.status).toBe(201);
    for (const person of Object.values(cast))
      await waitUntil(async () => (await person.client.get(`/api/projects/${project}`)).status === 200);
    expect((await a.request('DELETE', `/api/workspaces/${owned.workspace}/members/${cast.removed.id}`)).status).toBe(
      204,
    );
    await waitUntil(async () => (await cast.removed.client.get(`/api/projects/${project}`)).status === 404);

    const team: Record<string, string> = { project, reminder: reminder.body.id, monitor: monitor.body.id };
    const teamKinds: [RegExp, string][] = [
      [/^\/api\/reminders\/:id(\/|$)/, 'reminder'],
      [/^\/api\/monitors\/:id(\/|$)/, 'monitor'],
    ];
    const pathOf = (call: ApiCall) => {
      const kind = teamKinds.find(([pattern]) => pattern.test(call.path))?.[1] ?? 'project';
      return fill(call.path, { id: team[kind]!, projectId: project, incidentId: team.monitor! });
    };
    const bodyOf = (call: ApiCall): unknown => {
      const key = `${call.method} ${call.path}`;
      if (key === 'POST /api/reminders')
        return { projectId: project, title: 'Not allowed', dueDate: new Date(Date.now() + 86_400_000) };
      if (key === 'POST /api/activities') return { projectId: project, notes: 'Not allowed' };
      return hasBody(call.method) ? (validBodies[key] ?? {}) : undefined;
    };
    const snapshot = async () => ({
      project: (await a.get(`/api/projects/${project}`)).body,
      timeline: (await a.get(`/api/projects/${project}/activities`)).body,
      reminders: (await a.get(`/api/reminders/project/${project}`)).body,
      monitors: (await a.get(`/api/projects/${project}/monitors`)).body,
      deployHook: (await a.get(`/api/projects/${project}/deploy-hook`)).body,
      ping: (await a.get(`/api/projects/${project}/ping`)).body,
    });
    const before = await snapshot();
    /** A token of `client`'s (`scope`, `workspaceId`: what it may do), as the CLI would call with it. */
    const tokenOf = async (client: Client, grant: { scope: 'read' | 'write'; workspaceId?: string }) => {
      const made = await client.post('/api/tokens', { name: 'role matrix', ...grant });
      expect(made.status).toBe(201);
      const bearer = { authorization: `Bearer ${made.body.token}` };
      const anonymous = new Client(backend.url);
      return (call: ApiCall) =>
        call.token
          ? anonymous.request(call.method, pathOf(call), bodyOf(call), bearer)
          : Promise.resolve({ status: -1, body: null });
    };
    /** What a caller is answered: 200 when allowed, else 404 (nothing of theirs) or 403 with its code. */
    type Expected = { status: 200 } | { status: 404 } | { status: 403; code: string };
    const byRole = (role: Role | null, least: Role): Expected =>
      role !== null && rank[role] >= rank[least]
        ? { status: 200 }
        : role === null
          ? { status: 404 }
          : { status: 403, code: 'FORBIDDEN' };
    const callers: {
      name: string;
      expected: (call: ApiCall) => Expected;
      request: (call: ApiCall) => Promise<{ status: number; body: { code?: string } | null }>;
    }[] = [];
    for (const [name, person] of [...Object.entries(cast), ['outsider', { client: b }]] as const) {
      const role = name === 'removed' || name === 'outsider' ? null : (name as Role);
      const asRole = (call: ApiCall) => byRole(role, call.project!);
      callers.push({
        name,
        expected: asRole,
        request: (call) => person.client.request(call.method, pathOf(call), bodyOf(call)),
      });
      // A token does what its user may, and no more than its scope and space let it: a read-only one
      // writes nothing, whoever holds it; one of the personal space finds no team project.
      callers.push({
        name: `${name}’s token`,
        expected: asRole,
        request: await tokenOf(person.client, { scope: 'write' }),
      });
      callers.push({
        name: `${name}’s read-only token`,
        expected: (call) => (call.method === 'GET' ? asRole(call) : { status: 403, code: 'TOKEN_SCOPE' }),
        request: await tokenOf(person.client, { scope: 'read' }),
      });
      callers.push({
        name: `${name}’s personal-space token`,
        expected: () => ({ status: 404 }),
        request: await tokenOf(person.client, { scope: 'write', workspaceId: 'personal' }),
      });
    }

    const wrong: string[] = [];
    let refusals = 0;
    for (const call of routes) {
      for (const caller of callers) {
        const expected = caller.expected(call);
        // What an allowed caller may change is the owner's matrix's and the feature tests' to prove:
        // here the reads are answered, and every refusal is tried.
        if (expected.status === 200 && call.method !== 'GET') continue;
        const answer = await caller.request(call);
        if (answer.status === -1) continue;
        if (expected.status !== 200) refusals++;
        if (answer.status !== expected.status || ('code' in expected && answer.body?.code !== expected.code))
          wrong.push(`${caller.name} ${call.method} ${call.path} → ${answer.status} (${call.project} needed)`);
      }
    }
    // The workspace's own record, its audit log: for its owners and admins alone.
    const auditRoutes = surface.calls.filter((call) => call.path.startsWith('/api/workspaces/:id/audit'));
    expect(auditRoutes).toHaveLength(3);
    for (const call of auditRoutes)
      for (const [name, person] of [...Object.entries(cast), ['outsider', { client: b }]] as const) {
        const role = name === 'removed' || name === 'outsider' ? null : (name as Role);
        const expected = role === null ? 404 : rank[role] >= rank.admin ? 200 : 403;
        const answer = await person.client.request(call.method, fill(call.path, { id: owned.workspace! }));
        if (answer.status !== expected) wrong.push(`${name} ${call.method} ${call.path} → ${answer.status}`);
      }
    expect(wrong).toEqual([]);
    expect(refusals).toBeGreaterThan(120);
    expect(await snapshot()).toEqual(before);
  });
});

describe('the API contract', () => {
  it('answers every call of this file as the OpenAPI document says', async () => {
    const served = await a.get('/api/openapi.json');
    expect(served.status).toBe(200);
    const contract = contractOf(served.body);
    // Each answer's call: the surface's template its path matches, the one with fewest parameters
    // (`/api/reminders/calendar` before `/api/reminders/:id`).
    const templates = surface.calls.map((call) => ({
      ...call,
      pattern: new RegExp(`^${call.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
      parameters: call.path.split(':').length,
    }));
    const problems: string[] = [];
    const checked = new Set<string>();
    for (const answer of answers) {
      const path = answer.path.split('?')[0]!;
      const call = templates
        .filter((t) => t.method === answer.method && t.pattern.test(path))
        .sort((x, y) => x.parameters - y.parameters)[0];
      if (!call) continue;
      checked.add(`${call.method} ${call.path} ${answer.status}`);
      problems.push(...contract.check(answer.method, call.path, answer.status, answer.body));
    }
    expect(problems).toEqual([]);
    // The owner's successes, the refusals (400, 401, 403, 404) and their bodies, on most of the surface.
    expect(checked.size).toBeGreaterThan(150);
  });
});
