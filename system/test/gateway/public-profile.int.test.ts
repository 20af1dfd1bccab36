import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { startTargetStandIn, type TargetStandIn } from '@shiplog/testing/targets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
/** A builder's shipped site, for the status page's monitor. */
let target: TargetStandIn;

/** The app's page as the web build writes it, in its parts the gateway rewrites. */
const dist = mkdtempSync(join(tmpdir(), 'shiplog-web-'));
writeFileSync(
  join(dist, 'index.html'),
  '<!doctype html><html><head><meta name="description" content="Shiplog: track projects." /><title>Shiplog</title></head><body><div id="root"></div></body></html>',
);

beforeAll(async () => {
  target = await startTargetStandIn();
  backend = await startBackend({
    env: { APP_URL: 'https://shiplog.test', WEB_DIST: dist, MONITOR_ALLOWED_HOSTS: target.host },
  });
});
afterAll(async () => {
  await backend?.stop();
  await target?.stop();
});

/** Everything private a builder keeps, around one public project. */
async function builderWithSecrets() {
  const user = await backend.signUp('builder', { email: 'private-mail@example.com' });
  const { client } = user;
  const profile = await client.post('/api/profile', {
    displayName: 'Ada <Builder> & "Co"',
    bio: 'I ship small things.',
    phoneNumber: '555-0100',
    github: 'https://github.com/ada',
    website: 'https://ada.example',
    projectVisibility: 'public',
  });
  expect(profile.status).toBe(200);
  const shown = await client.post('/api/projects', {
    name: 'Weather API',
    description: 'Forecasts for everyone',
    status: 'deployed',
    costEstimate: 424_242,
    replitId: '@ada/private-repl',
    checklist: { databaseAdded: true, authenticationAdded: true },
  });
  const hidden = await client.post('/api/projects', { name: 'Stealth Startup', isPublic: false });
  expect([shown.status, hidden.status]).toEqual([201, 201]);
  const id = shown.body.id as string;
  const staging = await client.post(`/api/projects/${id}/deployment`, {
    environment: 'staging',
    version: '0.9.0',
    notes: 'secret-staging-note',
  });
  const release = await client.post(`/api/projects/${id}/version`, {
    version: '1.1.0',
    notes: 'secret-release-note',
    changes: ['x'],
  });
  expect([staging.status, release.status]).toEqual([201, 201]);
  expect(
    (
      await client.post(`/api/projects/${id}/deployment`, {
        environment: 'production',
        version: '1.1.0',
        notes: 'secret-production-note',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await client.post('/api/reminders', {
        projectId: id,
        title: 'Secret reminder title',
        // Weeks ahead of whenever the test runs: it must not fall due during it.
        dueDate: new Date(Date.now() + 60 * 86_400_000).toISOString(),
      })
    ).status,
  ).toBe(201);
  return user;
}

const secrets = [
  'Stealth Startup',
  'secret-',
  'Secret reminder',
  'private-mail@example.com',
  '555-0100',
  '4242',
  '@ada/private-repl',
];

describe('public profile pages', () => {
  it('shows a public profile and its public projects signed out, with nothing private in the data or the page', async () => {
    const ada = await builderWithSecrets();
    // Its owner sees their own changes at once (read-your-writes); by then, so does everyone.
    expect((await ada.client.get(`/api/public/users/${ada.username}`)).status).toBe(200);
    const visitor = new Client(backend.url);
    const answer = await visitor.get(`/api/public/users/${ada.username}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      username: ada.username,
      displayName: 'Ada <Builder> & "Co"',
      bio: 'I ship small things.',
      links: { github: 'https://github.com/ada', twitter: null, linkedin: null, website: 'https://ada.example' },
      projects: [
        {
          id: expect.any(String),
          name: 'Weather API',
          description: 'Forecasts for everyone',
          status: 'deployed',
          // Two ticked, and Deployed by the deployments.
          progress: 3,
          latestDeployment: { environment: 'production', version: '1.1.0', at: expect.any(String) },
          latestVersion: { version: '1.1.0', at: expect.any(String) },
          createdAt: expect.any(String),
        },
      ],
    });
    for (const secret of secrets) expect(answer.text).not.toContain(secret);

    const page = await visitor.get(`/u/${ada.username}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const title = `Ada &lt;Builder&gt; &amp; &quot;Co&quot; (@${ada.username}) · Shiplog`;
    expect(page.text).toContain(`<title>${title}</title>`);
    expect(page.text).toContain(`<meta property="og:title" content="${title}" />`);
    expect(page.text).toContain('<meta property="og:description" content="I ship small things." />');
    expect(page.text).toContain(`<meta property="og:url" content="https://shiplog.test/u/${ada.username}" />`);
    expect(page.text).toContain('<meta name="twitter:card" content="summary" />');
    // One description: the profile's replaces the app's.
    expect(page.text.match(/name="description"/g)).toHaveLength(1);
    expect(page.text).not.toContain('<Builder>');
    for (const secret of secrets) expect(page.text).not.toContain(secret);
  });

  it('answers 404 for a private profile, a missing one, and keeps private projects off a public one', async () => {
    const ada = await builderWithSecrets();
    const visitor = new Client(backend.url);
    expect(
      (
        await ada.client.post('/api/profile', {
          displayName: 'Ada',
          projectVisibility: 'private',
        })
      ).status,
    ).toBe(200);
    for (const path of [`/api/public/users/${ada.username}`, '/api/public/users/nobody-at-all']) {
      const answer = await visitor.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 'PROFILE_NOT_FOUND', message: 'Profile not found' });
    }
    for (const path of [`/u/${ada.username}`, '/u/nobody-at-all', '/u/%E0%A4%A']) {
      const page = await visitor.get(path);
      expect(page.status).toBe(404);
      expect(page.text).toContain('<meta name="robots" content="noindex" />');
      expect(page.text).not.toContain('Ada');
    }

    // Public again, with its projects private: the page shows none.
    await ada.client.post('/api/profile', { displayName: 'Ada', projectVisibility: 'public' });
    const projects = await ada.client.get('/api/projects');
    for (const project of projects.body as { id: string }[])
      expect((await ada.client.request('PUT', `/api/projects/${project.id}`, { isPublic: false })).status).toBe(200);
    expect((await ada.client.get(`/api/public/users/${ada.username}`)).body.projects).toEqual([]);
    const answer = await visitor.get(`/api/public/users/${ada.username}`);
    expect(answer.status).toBe(200);
    expect(answer.body.projects).toEqual([]);
    expect((await visitor.get(`/u/${ada.username}`)).text).toContain('ships 0 public projects on Shiplog');
  });

  it('lets browsers and shared caches keep a public page if they ask again each time, and answers a repeat with 304', async () => {
    const ada = await builderWithSecrets();
    const visitor = new Client(backend.url);
    for (const path of [`/api/public/users/${ada.username}`, `/u/${ada.username}`]) {
      const first = await visitor.get(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      const repeat = await visitor.get(path, { 'if-none-match': etag! });
      expect(repeat.status).toBe(304);
      expect(repeat.text).toBe('');
      expect((await visitor.get(path, { 'if-none-match': '"something-else"' })).status).toBe(200);
    }
    // Its owner, just after an edit, reads anew and sees the edit; their copy is private.
    expect(
      (await ada.client.post('/api/profile', { displayName: 'Ada Edited', projectVisibility: 'public' })).status,
    ).toBe(200);
    const own = await ada.client.get(`/api/public/users/${ada.username}`);
    expect(own.headers.get('cache-control')).toBe('private, no-cache');
    expect(own.body.displayName).toBe('Ada Edited');
  });

  it('never serves what was made private from a hold, on any gateway, nor a broken badge', async () => {
    const ada = await builderWithSecrets();
    const other = new Client(await backend.startReplica());
    const visitors = [new Client(backend.url), other];
    const shownId = ((await ada.client.get('/api/projects')).body as { id: string; name: string }[]).find(
      (p) => p.name === 'Weather API',
    )!.id;
    const badge = `/api/badges/${ada.username}/${shownId}/version.svg`;
    const paths = [`/api/public/users/${ada.username}`, `/u/${ada.username}`, badge];
    // Read, so every gateway holds the pages.
    for (const visitor of visitors) {
      expect((await visitor.get(paths[0]!)).body.projects.map((p: { name: string }) => p.name)).toEqual([
        'Weather API',
      ]);
      expect((await visitor.get(badge)).text).toContain('<title>version: v1.1.0</title>');
    }

    // The project made private: off the page and its badge at once, on both gateways.
    expect((await ada.client.request('PUT', `/api/projects/${shownId}`, { isPublic: false })).status).toBe(200);
    for (const visitor of visitors) {
      expect((await visitor.get(paths[0]!)).body.projects).toEqual([]);
      const hidden = await visitor.get(badge);
      expect(hidden.status).toBe(200);
      expect(hidden.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(hidden.text).toContain('<title>version: private</title>');
      expect(hidden.text).not.toContain('1.1.0');
    }
    expect((await ada.client.request('PUT', `/api/projects/${shownId}`, { isPublic: true })).status).toBe(200);
    for (const visitor of visitors) expect((await visitor.get(paths[0]!)).body.projects).toHaveLength(1);

    // The profile made private: every page of it a 404 at once, on both gateways.
    expect((await ada.client.post('/api/profile', { displayName: 'Ada', projectVisibility: 'private' })).status).toBe(
      200,
    );
    for (const visitor of visitors) {
      expect((await visitor.get(paths[0]!)).status).toBe(404);
      expect((await visitor.get(paths[1]!)).status).toBe(404);
      expect((await visitor.get(badge)).text).toContain('<title>version: private</title>');
    }
  });

  it('writes a name and bio into the head as text, whatever replacement patterns they hold', async () => {
    const user = await backend.signUp('dollar');
    const bio = "before $` middle $& after $' end $$ $1";
    expect(
      (await user.client.post('/api/profile', { displayName: 'Dollar $& Name', bio, projectVisibility: 'public' }))
        .status,
    ).toBe(200);
    const page = await new Client(backend.url).get(`/u/${user.username}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      `<meta property="og:description" content="${bio.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}" />`,
    );
    expect(page.text).toContain(`<title>Dollar $&amp; Name (@${user.username}) · Shiplog</title>`);
    // One head, one body: nothing of the page was copied into a tag.
    expect(page.text.match(/<head>/g)).toHaveLength(1);
    expect(page.text.match(/<title>/g)).toHaveLength(1);
    expect(page.text.match(/id="root"/g)).toHaveLength(1);
  });

  it('shows a builder’s status page signed out: public projects’ monitors by origin, 90 daily bars, incidents with notes', async () => {
    const ada = await builderWithSecrets();
    const projects = (await ada.client.get('/api/projects')).body as { id: string; name: string }[];
    const shown = projects.find((p) => p.name === 'Weather API')!.id;
    const hidden = projects.find((p) => p.name === 'Stealth Startup')!.id;
    const site = await ada.client.post(`/api/projects/${shown}/monitors`, {
      url: `${target.url}health?token=secret-token-7`,
    });
    const backups = await ada.client.post(`/api/projects/${shown}/monitors`, {
      kind: 'backup',
      intervalSeconds: 86_400,
    });
    const stealth = await ada.client.post(`/api/projects/${hidden}/monitors`, { url: 'https://stealth.example/' });
    expect([site.status, backups.status, stealth.status]).toEqual([201, 201, 201]);

    // Three days ago half the checks passed (hourly counts, as the checker keeps them).
    const { pool } = backend.service('monitors').context;
    const now = Date.now();
    const threeDaysAgo = new Date(Math.floor((now - 3 * 86_400_000) / 86_400_000) * 86_400_000);
    await pool.query(
      `INSERT INTO monitors.check_rollups (monitor_id, user_id, hour, checks, passed) VALUES ($1, $2, $3, 10, 5)`,
      [site.body.id, ada.id, threeDaysAgo],
    );
    // Down twice, up again, and its owner's note on what happened.
    const checker = createChecker(
      backend.service('monitors').context as never,
      checkOutbound({ allowedHosts: [target.host], timeoutMs: 1000 }),
    );
    await ada.client.get('/api/monitors');
    // Three checks a minute apart, all today (UTC) whenever the test runs: its bar counts them.
    const base = Math.max(now - 122_000, Math.floor(now / 86_400_000) * 86_400_000);
    target.mode = 'down';
    await checker.tick(() => new Date(base));
    await checker.tick(() => new Date(base + 61_000));
    target.mode = 'up';
    await checker.tick(() => new Date(base + 122_000));
    await checker.stop();
    let incidents: { id: string; endedAt: string | null }[] = [];
    await expect
      .poll(async () => {
        incidents = (await ada.client.get(`/api/monitors/${site.body.id}/incidents`)).body;
        return incidents[0]?.endedAt ?? null;
      })
      .not.toBeNull();
    const noted = await ada.client.request('PUT', `/api/monitors/${site.body.id}/incidents/${incidents[0]!.id}/note`, {
      note: 'The database restarted.',
    });
    expect(noted.status).toBe(200);

    // Its owner reads their own writes; then anyone reads the same, held briefly.
    expect((await ada.client.get(`/api/public/users/${ada.username}/status`)).status).toBe(200);
    const visitor = new Client(backend.url);
    const answer = await visitor.get(`/api/public/users/${ada.username}/status`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, no-cache');
    expect(answer.body).toMatchObject({
      username: ada.username,
      displayName: 'Ada <Builder> & "Co"',
      projects: [{ id: shown, name: 'Weather API' }],
      incidents: [
        {
          id: incidents[0]!.id,
          monitorId: site.body.id,
          projectId: shown,
          cause: expect.stringMatching(/^HTTP 503/),
          note: 'The database restarted.',
        },
      ],
    });
    const [http, expected] = answer.body.monitors;
    expect(answer.body.monitors).toHaveLength(2);
    expect(http).toMatchObject({ kind: 'http', origin: target.url.replace(/\/$/, ''), state: 'up' });
    expect(expected).toMatchObject({ kind: 'backup', origin: '', intervalSeconds: 86_400 });
    expect(http.days).toHaveLength(90);
    expect(http.days[86]).toBe(0.5);
    expect(http.days[89]).toBeCloseTo(1 / 3);
    expect(http.days.slice(0, 86).every((d: number | null) => d === null)).toBe(true);
    for (const secret of [...secrets, 'secret-token-7', 'stealth.example', '/health'])
      expect(answer.text).not.toContain(secret);

    const page = await visitor.get(`/u/${ada.username}/status`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<title>Status of Ada &lt;Builder&gt; &amp; &quot;Co&quot;&#39;s projects · Shiplog</title>',
    );
    expect(page.text).toContain(`<meta property="og:url" content="https://shiplog.test/u/${ada.username}/status" />`);

    // README badges of the public project: its version, last deploy and uptime, as SVG.
    const badge = async (project: string, name: string) =>
      visitor.get(`/api/badges/${ada.username}/${project}/${name}`);
    const version = await badge(shown, 'version.svg');
    expect(version.status).toBe(200);
    expect(version.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(version.text).toContain('<title>version: v1.1.0</title>');
    expect((await badge(shown, 'last-deploy.svg')).text).toMatch(
      /<title>last deploy: (just now|\d+ minutes? ago)<\/title>/,
    );
    // Six of the month's thirteen checks passed (five of ten three days ago, one of today's three), in red.
    const uptime = await badge(shown, 'uptime.svg');
    expect(uptime.text).toContain('<title>uptime: 46.15%</title>');
    expect(uptime.text).toContain('fill="#e05d44"');
    // A private or missing project's badge is a grey "private" image, which a README still shows.
    for (const project of [hidden, 'not-a-project']) {
      const grey = await badge(project, 'uptime.svg');
      expect(grey.status).toBe(200);
      expect(grey.text).toContain('<title>uptime: private</title>');
    }
    for (const [project, name] of [
      // Names every object inherits are no badges either.
      [shown, 'constructor'],
      [shown, '__proto__'],
      [shown, 'toString'],
    ] as const)
      expect((await badge(project, name)).status).toBe(404);

    // A private profile has no status page either.
    await ada.client.post('/api/profile', { displayName: 'Ada', projectVisibility: 'private' });
    expect((await ada.client.get(`/api/public/users/${ada.username}/status`)).status).toBe(404);
    expect((await visitor.get('/u/nobody-at-all/status')).status).toBe(404);
    // Its badges go grey at once, for a visitor as for its owner.
    for (const reader of [visitor, ada.client])
      expect((await reader.get(`/api/badges/${ada.username}/${shown}/version.svg`)).text).toContain(
        '<title>version: private</title>',
      );
  });
});
