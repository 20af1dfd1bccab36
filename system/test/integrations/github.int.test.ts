import { createHmac } from 'node:crypto';
import { type Backend, type Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type GitHubStandIn, startGitHubStandIn } from '@shiplog/testing/github';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * GitHub joined to projects, through the project's GitHub stand-in with the real client
 * (`@octokit/rest`) pointed at it: connecting with a token, importing repositories as projects with
 * their webhooks, and GitHub's signed deliveries (releases, deployment statuses, pushes) recorded on
 * the projects once however often they come.
 */
let github: GitHubStandIn;
let backend: Backend;

beforeAll(async () => {
  github = await startGitHubStandIn();
  backend = await startBackend({
    env: {
      INTEGRATION_ALLOWED_HOSTS: github.host,
      // An alert channel on the stand-in's address (its deliveries stay queued: no sender runs here).
      MONITOR_ALLOWED_HOSTS: github.host,
      INTEGRATION_KEY_SECRET: 'an-integration-key-secret-for-the-tests-0123',
      GITHUB_API_URL: github.url,
      // The operator's GitHub App, registered on the stand-in; its key on one line, as an env file holds it.
      GITHUB_APP_ID: String(github.app.id),
      GITHUB_APP_SLUG: github.app.slug,
      GITHUB_APP_CLIENT_ID: github.app.clientId,
      GITHUB_APP_CLIENT_SECRET: github.app.clientSecret,
      GITHUB_APP_WEBHOOK_SECRET: github.app.webhookSecret,
      GITHUB_APP_PRIVATE_KEY: github.app.privateKey.replaceAll('\n', '\\n'),
    },
  });
  github.deliverTo = backend.url;
  github.app.callbackUrl = `${backend.url}/integrations`;
  github.app.webhookUrl = `${backend.url}/api/hooks/github-app`;
});
afterAll(async () => {
  await backend?.stop();
  await github?.stop();
});

type Activity = { eventType: string; action: string; version: string | null; status: string; metadata: object };

/** A connected user, with `names` as repositories of the stand-in's account. */
async function connected(prefix: string) {
  const person = await backend.signUp(prefix);
  const answer = await person.client.request('PUT', '/api/github', { token: github.token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return {
    ...person,
    webhookSecret: answer.body.webhookSecret as string,
    webhookUrl: answer.body.webhookUrl as string,
  };
}

async function imported(client: Client, ...names: string[]) {
  const answer = await client.post('/api/github/import', { repositories: names.map((n) => `${github.login}/${n}`) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.projects as { id: string; name: string; repository: string; webhook: boolean }[];
}

const timeline = async (client: Client, projectId: string) =>
  (await client.get(`/api/projects/${projectId}/activities`)).body as Activity[];

describe('GitHub', () => {
  it('connects with a token GitHub accepts, on github.com or an Enterprise address, and refuses others clearly', async () => {
    const ada = await backend.signUp('ghada');
    expect((await ada.client.get('/api/github')).body).toMatchObject({ connected: false, login: null });
    const wrong = await ada.client.request('PUT', '/api/github', { token: 'not-a-token' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({ token: ['GitHub does not accept this token'] });
    for (const body of [{}, { token: '' }, { token: 'has space' }, { token: github.token, apiUrl: 'ftp://x' }])
      expect((await ada.client.request('PUT', '/api/github', body)).status, JSON.stringify(body)).toBe(400);
    const inside = await ada.client.request('PUT', '/api/github', {
      token: github.token,
      apiUrl: 'http://10.0.0.1/api/v3',
    });
    expect(inside.status).toBe(400);
    expect(inside.body.fieldErrors.apiUrl[0]).toMatch(/private, loopback or reserved/);
    // An Enterprise Server's address, named by the user (the stand-in answers under /api/v3 too).
    const made = await ada.client.request('PUT', '/api/github', {
      token: github.token,
      apiUrl: `${github.url}/api/v3/`,
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ connected: true, login: github.login, apiUrl: `${github.url}/api/v3` });
    expect(made.body.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(made.body.webhookUrl).toMatch(/^http:\/\/localhost:3000\/api\/hooks\/github\/[\w-]{32}$/);
    // The token is never answered.
    expect(JSON.stringify((await ada.client.get('/api/github')).body)).not.toContain(github.token);
    // Connected again: the same webhook address and secret, so the repositories' webhooks keep working.
    expect((await ada.client.request('DELETE', '/api/github')).status).toBe(204);
    const again = await ada.client.request('PUT', '/api/github', { token: github.token });
    expect(again.body).toMatchObject({ webhookUrl: made.body.webhookUrl, webhookSecret: made.body.webhookSecret });
  });

  it('imports repositories as projects joined to them, with their webhooks, once', async () => {
    github.addRepository('weather-api', {
      description: 'Forecasts as JSON',
      homepage: 'https://weather.example.com',
    });
    github.addRepository('secret-tool', { private: true });
    const ada = await connected('ghimport');
    const listed = (await ada.client.get('/api/github/repositories')).body as { fullName: string; projectId: null }[];
    expect(listed.map((r) => r.fullName)).toEqual(
      expect.arrayContaining([`${github.login}/weather-api`, `${github.login}/secret-tool`]),
    );
    const projects = await imported(ada.client, 'weather-api', 'secret-tool');
    expect(projects.map((p) => [p.name, p.webhook])).toEqual([
      ['weather-api', true],
      ['secret-tool', true],
    ]);
    const weather = (await ada.client.get(`/api/projects/${projects[0]!.id}`)).body;
    expect(weather).toMatchObject({
      name: 'weather-api',
      description: 'Forecasts as JSON',
      isPublic: true,
      metadata: {
        socialLinks: { website: 'https://weather.example.com', github: expect.stringContaining('weather-api') },
      },
    });
    expect((await ada.client.get(`/api/projects/${projects[1]!.id}`)).body.isPublic).toBe(false);
    // Its webhook, made through the API, sends to Shiplog's address with the connection's secret.
    const hook = github.hooks.find((h) => h.repository === `${github.login}/weather-api`)!;
    expect(hook).toMatchObject({ url: ada.webhookUrl, secret: ada.webhookSecret });
    expect(hook.events).toEqual(expect.arrayContaining(['release', 'deployment_status', 'push']));
    // Its card: the repository and its last commit.
    const card = (await ada.client.get(`/api/projects/${projects[0]!.id}/github`)).body;
    expect(card).toMatchObject({
      fullName: `${github.login}/weather-api`,
      defaultBranch: 'main',
      webhook: true,
      reachable: true,
      lastCommit: { message: 'Initial commit' },
      latestRelease: null,
    });
    // Again: nothing more.
    const twice = await ada.client.post('/api/github/import', { repositories: [`${github.login}/weather-api`] });
    expect(twice.body).toMatchObject({ projects: [], alreadyImported: 1 });
    expect((await ada.client.get('/api/projects')).body).toHaveLength(2);
    // Bad input: a clear 400, nothing made.
    for (const body of [{}, { repositories: [] }, { repositories: ['no-slash'] }, { repositories: 'x/y' }])
      expect((await ada.client.post('/api/github/import', body)).status, JSON.stringify(body)).toBe(400);
    const unknown = await ada.client.post('/api/github/import', { repositories: [`${github.login}/nope`] });
    expect(unknown.status).toBe(400);
    expect((await ada.client.get('/api/projects')).body).toHaveLength(2);
  });

  it('records a published release and a deployment’s statuses once each, however often GitHub delivers them', async () => {
    github.addRepository('shop');
    const ada = await connected('ghdeliver');
    const [shop] = await imported(ada.client, 'shop');
    const repository = `${github.login}/shop`;

    const [release] = await github.publishRelease(repository, 'v1.4.0', 'New:\n- Dark mode\n- Faster checkout');
    expect(release).toMatchObject({ status: 202 });
    expect(await github.redeliver(release!.deliveryId)).toBe(202);
    const deployment = (state: string, environment = 'production') => ({
      deployment: { id: 501, sha: 'c0ffee1234567', ref: 'main', environment },
      deployment_status: { state, environment_url: 'https://shop.example.com' },
    });
    const [started] = await github.deliver(repository, 'deployment_status', deployment('in_progress'));
    const [succeeded] = await github.deliver(repository, 'deployment_status', deployment('success'));
    expect([started!.status, succeeded!.status]).toEqual([202, 202]);
    expect(JSON.parse(succeeded!.body)).toEqual({ recorded: true });
    // Redelivered, and the same status sent again under a new delivery id: recorded once.
    expect(await github.redeliver(succeeded!.deliveryId)).toBe(202);
    await github.deliver(repository, 'deployment_status', deployment('success'));

    await waitUntil(async () => (await timeline(ada.client, shop!.id)).length >= 4);
    const entries = await timeline(ada.client, shop!.id);
    const versions = entries.filter((a) => a.eventType === 'version_release');
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ version: 'v1.4.0', metadata: { changes: ['Dark mode', 'Faster checkout'] } });
    const deployments = entries.filter((a) => a.eventType === 'deployment');
    expect(deployments.map((d) => d.status).sort()).toEqual(['in_progress', 'success']);
    expect((await ada.client.get(`/api/projects/${shop!.id}`)).body.checklist.deployed).toBe(true);
    expect((await ada.client.get(`/api/projects/${shop!.id}/github`)).body.latestRelease).toMatchObject({
      tag: 'v1.4.0',
    });

    // A push to the default branch is the card's last commit; to another branch, nothing.
    const commit = github.commit(repository, 'Fix the basket total');
    const push = (ref: string) => ({
      ref: `refs/heads/${ref}`,
      head_commit: {
        id: commit.sha,
        message: commit.message,
        timestamp: commit.date,
        url: `https://github.example/${repository}/commit/${commit.sha}`,
        author: { username: 'octo-builder' },
      },
    });
    const [other] = await github.deliver(repository, 'push', push('feature'));
    expect(JSON.parse(other!.body)).toMatchObject({ recorded: false });
    await github.deliver(repository, 'push', push('main'));
    expect((await ada.client.get(`/api/projects/${shop!.id}/github`)).body.lastCommit).toMatchObject({
      sha: commit.sha,
      message: 'Fix the basket total',
    });
  });

  it('lists what each release and deployment shipped: the commits since the one before, and the pull requests they merged', async () => {
    github.addRepository('shipping');
    const ada = await connected('ghshipped');
    const [shipping] = await imported(ada.client, 'shipping');
    const repository = `${github.login}/shipping`;
    type Shipped = {
      compareUrl: string | null;
      commits: { message: string; url: string }[];
      pullRequests: { number: number; title: string; url: string }[];
    };
    const shippedOf = async (eventType: string, version: string) => {
      let found: { metadata: { shipped?: Shipped } } | undefined;
      await waitUntil(async () => {
        const entries = (await timeline(ada.client, shipping!.id)) as (Activity & {
          metadata: { shipped?: Shipped };
        })[];
        found = entries.find((a) => a.eventType === eventType && a.version === version);
        return found !== undefined;
      });
      return found!.metadata.shipped;
    };

    github.commit(repository, 'Start the site');
    await github.publishRelease(repository, 'v1.0.0', 'First');
    // The first release: the commits up to it.
    expect((await shippedOf('version_release', 'v1.0.0'))?.commits.map((c) => c.message)).toEqual([
      'Initial commit',
      'Start the site',
    ]);
    github.commit(repository, 'Merge pull request #3 from ada/dark\n\nDark mode');
    github.commit(repository, 'Faster images (#4)');
    await github.publishRelease(repository, 'v1.1.0', 'Second');
    const second = await shippedOf('version_release', 'v1.1.0');
    expect(second?.compareUrl).toContain('/compare/v1.0.0...v1.1.0');
    expect(second?.commits.map((c) => c.message)).toEqual([
      'Merge pull request #3 from ada/dark',
      'Faster images (#4)',
    ]);
    expect(second?.pullRequests).toEqual([
      { number: 3, title: 'Dark mode', url: `https://github.example/${repository}/pull/3` },
      { number: 4, title: 'Faster images', url: `https://github.example/${repository}/pull/4` },
    ]);

    const deploy = (id: number, sha: string) =>
      github.deliver(repository, 'deployment_status', {
        deployment: { id, sha, ref: 'main', environment: 'production' },
        deployment_status: { state: 'success', environment_url: 'https://shipping.example.com' },
      });
    const head = github.repositories.get('shipping')!.commits.at(-1)!.sha;
    await deploy(1, head);
    expect((await shippedOf('deployment', head.slice(0, 7)))?.commits).toHaveLength(4);
    const fix = github.commit(repository, 'Fix a typo');
    await deploy(2, fix.sha);
    const next = await shippedOf('deployment', fix.sha.slice(0, 7));
    expect(next?.commits.map((c) => c.message)).toEqual(['Fix a typo']);
    expect(next?.compareUrl).toContain(`/compare/${head}...${fix.sha}`);
  });

  it('takes a scheduled workflow’s runs as the project’s cron ping, and alerts every failed run on the default branch once', async () => {
    github.addRepository('nightly');
    const ada = await connected('ghnightly');
    const [nightly] = await imported(ada.client, 'nightly');
    const repository = `${github.login}/nightly`;
    // Where its alerts go: queued there (no sender runs in these tests), listed in the delivery log.
    const channel = await ada.client.post('/api/alert-channels', {
      kind: 'webhook',
      name: 'CI alerts',
      url: `${github.url}/alerts`,
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    // The project expects a backup a day: the dead man's switch a schedule that stops running trips.
    const expectation = await ada.client.post(`/api/projects/${nightly!.id}/monitors`, {
      kind: 'backup',
      intervalSeconds: 86_400,
    });
    expect(expectation.status, JSON.stringify(expectation.body)).toBe(201);
    const run = (action: string, conclusion: string | null) => ({
      action,
      workflow_run: {
        id: 9001,
        name: 'Nightly backup',
        path: '.github/workflows/nightly-backup.yml',
        event: 'schedule',
        head_branch: 'main',
        conclusion,
      },
    });
    for (const [action, conclusion] of [
      ['in_progress', null],
      ['completed', 'success'],
      ['completed', 'failure'],
    ] as const) {
      const [answer] = await github.deliver(repository, 'workflow_run', run(action, conclusion));
      expect(JSON.parse(answer!.body), `${action} ${conclusion}`).toEqual({ recorded: true });
    }
    const runs = (await ada.client.get(`/api/projects/${nightly!.id}/ping`)).body.runs as { outcome: string }[];
    expect(runs.map((r) => r.outcome)).toEqual(['failed', 'ok']);
    // Each names the workflow, which a failed run's incident says ("nightly-backup.yml failed at …").
    const db = new pg.Pool({ connectionString: backend.databaseUrl, max: 1 });
    try {
      const { rows } = await db.query('SELECT DISTINCT label FROM monitors.ping_runs WHERE project_id = $1', [
        nightly!.id,
      ]);
      expect(rows).toEqual([{ label: 'nightly-backup.yml' }]);
    } finally {
      await db.end();
    }
    // A failed run of any other workflow on the default branch (CI on a push) is alerted too, once
    // however often GitHub delivers it; one that passed is nothing.
    const ci = {
      action: 'completed',
      workflow_run: {
        id: 9002,
        name: 'CI',
        path: '.github/workflows/ci.yml',
        event: 'push',
        head_branch: 'main',
        conclusion: 'failure',
        html_url: 'https://github.com/octo/nightly/actions/runs/9002',
      },
    };
    for (const _ of [1, 2]) {
      const [push] = await github.deliver(repository, 'workflow_run', ci);
      expect(JSON.parse(push!.body)).toEqual({ recorded: true });
    }
    const [passed] = await github.deliver(repository, 'workflow_run', {
      ...ci,
      workflow_run: { ...ci.workflow_run, id: 9003, conclusion: 'success' },
    });
    expect(JSON.parse(passed!.body)).toMatchObject({ recorded: false });
    // Each failed run once through the project's channels, and on its timeline by GitHub.
    const failures = async () =>
      ((await ada.client.get('/api/alert-channels/deliveries')).body as { kind: string; summary: string }[])
        .filter((d) => d.kind === 'workflow.failed')
        .map((d) => d.summary)
        .sort();
    await waitUntil(async () => (await failures()).length === 2);
    expect(await failures()).toEqual(['ci.yml failed: nightly', 'nightly-backup.yml failed: nightly']);
    // The timeline is a projection of the same events: it may come a moment after the deliveries.
    const workflows = async () =>
      (
        (await ada.client.get(`/api/projects/${nightly!.id}/activities`)).body as {
          eventType: string;
          details: string;
          actor: unknown;
          metadata: { runUrl?: string };
        }[]
      ).filter((a) => a.eventType === 'workflow');
    await waitUntil(async () => (await workflows()).length >= 2);
    const failed = await workflows();
    expect(failed.map((a) => a.details)).toEqual([
      'ci.yml failed on main (push): nightly',
      'nightly-backup.yml failed on main (schedule): nightly',
    ]);
    expect(failed[0]).toMatchObject({ actor: null, metadata: { runUrl: ci.workflow_run.html_url } });
  });

  it('refuses an unsigned, a wrongly signed and a malformed delivery, and records nothing for a repository joined to nothing', async () => {
    github.addRepository('guarded');
    github.addRepository('loose');
    const ada = await connected('ghguard');
    const [guarded] = await imported(ada.client, 'guarded');
    const repository = `${github.login}/guarded`;
    const payload = { action: 'published', release: { id: 9, tag_name: 'v9', body: '', html_url: 'https://x/r' } };
    const [unsigned] = await github.deliver(repository, 'release', payload, { secret: null });
    const [forged] = await github.deliver(repository, 'release', payload, { secret: 'not-the-secret' });
    expect([unsigned!.status, forged!.status]).toEqual([401, 401]);
    // Signed, but not JSON.
    const raw = 'not json';
    const malformed = await fetch(ada.webhookUrl.replace('http://localhost:3000', backend.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'release',
        'x-github-delivery': crypto.randomUUID(),
        'x-hub-signature-256': `sha256=${createHmac('sha256', ada.webhookSecret).update(raw).digest('hex')}`,
      },
      body: raw,
    });
    expect(malformed.status).toBe(400);
    // No such webhook address.
    const nowhere = await fetch(`${backend.url}/api/hooks/github/${'x'.repeat(32)}`, { method: 'POST', body: '{}' });
    expect(nowhere.status).toBe(404);
    // A repository of the account that is joined to no project: accepted, nothing recorded.
    const [loose] = await github.deliver(`${github.login}/loose`, 'release', payload, {
      url: ada.webhookUrl,
      hookSecret: ada.webhookSecret,
    });
    expect(loose!.status).toBe(202);
    expect(JSON.parse(loose!.body)).toEqual({ recorded: false, reason: 'the repository is joined to no project' });
    expect((await timeline(ada.client, guarded!.id)).map((a) => a.eventType)).toEqual(['project_created']);
  });

  it('joins an existing project to a repository (its webhook left to add by hand when the token may not), and says “reconnect” once GitHub refuses the token', async () => {
    github.addRepository('old-project');
    const ada = await connected('ghlink');
    const project = (await ada.client.post('/api/projects', { name: 'Old project' })).body.id as string;
    expect((await ada.client.get(`/api/projects/${project}/github`)).body).toBeNull();
    github.hooksAllowed = false;
    try {
      const linked = await ada.client.request('PUT', `/api/projects/${project}/github`, {
        repository: `${github.login}/old-project`,
      });
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
      expect(linked.body).toMatchObject({ fullName: `${github.login}/old-project`, webhook: false });
    } finally {
      github.hooksAllowed = true;
    }
    const other = await backend.signUp('ghother');
    expect((await other.client.get(`/api/projects/${project}/github`)).status).toBe(404);

    // The token is revoked on GitHub: the connection asks to be made again, and the projects are untouched.
    const token = github.token;
    github.token = 'revoked';
    try {
      const refused = await ada.client.get('/api/github/repositories');
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('GITHUB_RECONNECT');
      expect((await ada.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: true });
      expect((await ada.client.get(`/api/projects/${project}`)).status).toBe(200);
    } finally {
      github.token = token;
    }
    expect((await ada.client.request('PUT', '/api/github', { token })).body.reconnect).toBe(false);
    expect((await ada.client.request('DELETE', `/api/projects/${project}/github`)).status).toBe(204);
    expect((await ada.client.get(`/api/projects/${project}/github`)).body).toBeNull();
  });

  it('connects by installing the GitHub App: only an installation GitHub says the installing user reaches, begun here by them; suspended, it asks to be made again until unsuspended; a repository out of its reach is marked so', async () => {
    github.addRepository('app-notes');
    const bea = await backend.signUp('ghapp');
    expect((await bea.client.get('/api/github')).body).toMatchObject({
      connected: false,
      appAvailable: true,
      via: null,
    });
    const begun = await bea.client.post('/api/github/app/install', {});
    expect(begun.status).toBe(200);
    const page = new URL(begun.body.url);
    expect(`${page.origin}${page.pathname}`).toBe(`${github.url}/apps/${github.app.slug}/installations/new`);
    const state = page.searchParams.get('state')!;

    // The install page's button, as the browser sends it: GitHub installs the app and sends the
    // browser back to the app's callback (the External API page) with the install's code.
    const install = await fetch(`${github.url}/apps/${github.app.slug}/installations`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state }),
      redirect: 'manual',
    });
    const back = new URL(install.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${backend.url}/integrations`);
    const handed = {
      installationId: Number(back.searchParams.get('installation_id')),
      code: back.searchParams.get('code')!,
      state: back.searchParams.get('state')!,
    };
    expect(handed.state).toBe(state);

    // Refused, and nothing connected: another user finishing bea's install, a state not made here,
    // a code GitHub does not know, an installation the installing user does not reach, bad input.
    const cy = await backend.signUp('ghappcy');
    const refusals: [typeof cy.client, object, string][] = [
      [cy.client, handed, 'state'],
      [bea.client, { ...handed, state: `${state.slice(0, -4)}AAAA` }, 'state'],
      [bea.client, { ...handed, code: 'not-a-code-github-gave' }, 'code'],
      [
        bea.client,
        { ...handed, code: github.authorizationCode(), installationId: handed.installationId + 1 },
        'installationId',
      ],
      [bea.client, { installationId: 'x', code: handed.code, state }, 'installationId'],
      [bea.client, { installationId: handed.installationId, state }, 'code'],
    ];
    for (const [client, body, field] of refusals) {
      const refused = await client.request('PUT', '/api/github/app', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(refused.body.fieldErrors), JSON.stringify(body)).toEqual([field]);
    }
    expect((await cy.client.get('/api/github')).body.connected).toBe(false);
    expect((await bea.client.get('/api/github')).body.connected).toBe(false);

    const made = await bea.client.request('PUT', '/api/github/app', handed);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toEqual({
      connected: true,
      login: github.login,
      apiUrl: github.url,
      via: 'app',
      appAvailable: true,
      reconnect: false,
      webhookUrl: null,
    });
    // The install's code is GitHub's to give once.
    expect((await bea.client.request('PUT', '/api/github/app', handed)).body.fieldErrors).toEqual({
      code: ['GitHub did not authorize the install: install the app again'],
    });

    // Its repositories are the installation's, read with a token made for it; importing makes no
    // webhook on the repository, since the app's own hears it.
    const listed = (await bea.client.get('/api/github/repositories')).body as { fullName: string }[];
    expect(listed.map((r) => r.fullName)).toContain(`${github.login}/app-notes`);
    const asked = github.requests.filter((r) => r.url.startsWith('/installation/repositories'));
    expect(asked.at(-1)?.headers.authorization).toMatch(/^token ghs_/);
    const [notes] = await imported(bea.client, 'app-notes');
    expect(notes).toMatchObject({ name: 'app-notes', webhook: true });
    expect(github.hooks.filter((h) => h.repository === `${github.login}/app-notes`)).toEqual([]);

    // A release, through the app's webhook, is recorded once however often it comes.
    const deliveries = await github.publishRelease(`${github.login}/app-notes`, 'v0.3.0', '- Tags');
    expect(deliveries.map((d) => [d.status, JSON.parse(d.body)])).toEqual([[202, { recorded: true }]]);
    expect(await github.redeliver(deliveries[0]!.deliveryId)).toBe(202);
    await waitUntil(async () => (await timeline(bea.client, notes!.id)).some((a) => a.eventType === 'version_release'));
    expect((await timeline(bea.client, notes!.id)).filter((a) => a.eventType === 'version_release')).toHaveLength(1);

    // The app's webhook takes only what its secret signed, and JSON.
    const hook = `${backend.url}/api/hooks/github-app`;
    const body = JSON.stringify({ action: 'published', installation: { id: handed.installationId } });
    const sign = (secret: string, text: string) => `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
    const post = (signature: string | null, text = body) =>
      fetch(hook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'release',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
        body: text,
      });
    expect((await post(null)).status).toBe(401);
    expect((await post(sign('not-the-app-secret', body))).status).toBe(401);
    expect((await post(sign(github.app.webhookSecret, '{not json'), '{not json')).status).toBe(400);
    expect((await post(sign(github.app.webhookSecret, 'null'), 'null')).status).toBe(400);

    // Taken out of the app's reach on GitHub: its project says nothing from it arrives, and the app neither
    // lists nor hears it; given back, it is in reach again.
    const card = () => bea.client.get(`/api/projects/${notes!.id}/github`);
    const names = async () =>
      ((await bea.client.get('/api/github/repositories')).body as { fullName: string }[]).map((r) => r.fullName);
    const [removal] = await github.reach(`${github.login}/app-notes`, false);
    expect((await card()).body).toMatchObject({ fullName: `${github.login}/app-notes`, reachable: false });
    expect(await names()).not.toContain(`${github.login}/app-notes`);
    expect(await github.publishRelease(`${github.login}/app-notes`, 'v0.4.0', '- Unheard')).toEqual([]);
    await github.reach(`${github.login}/app-notes`, true);
    expect((await card()).body).toMatchObject({ reachable: true });
    expect(await names()).toContain(`${github.login}/app-notes`);
    // The removal delivered again after the addition that undid it (GitHub does not order its
    // deliveries): the repository is in reach as GitHub has it now.
    expect(await github.redeliver(removal!.deliveryId)).toBe(202);
    expect((await card()).body).toMatchObject({ reachable: true });
    // Given back with the delivery that says so lost: the next delivery from it says it is in reach.
    await github.reach(`${github.login}/app-notes`, false);
    github.app.outOfReach.delete('app-notes');
    const heard = await github.publishRelease(`${github.login}/app-notes`, 'v0.4.1', '- Heard');
    expect(heard.map((d) => JSON.parse(d.body))).toEqual([{ recorded: true }]);
    expect((await card()).body).toMatchObject({ reachable: true, latestRelease: { tag: 'v0.4.1' } });

    // Suspended on GitHub: the connection asks to be made again; unsuspended, it works again by itself.
    const [suspension] = await github.suspend();
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: true });
    const suspended = await bea.client.get('/api/github/repositories');
    expect([suspended.status, suspended.body.code]).toEqual([409, 'GITHUB_RECONNECT']);
    // The unsuspend delivered before its suspend, as GitHub may: the installation is asked how it is now.
    const [unsuspension] = await github.unsuspend();
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: false });
    expect(await github.redeliver(suspension!.deliveryId)).toBe(202);
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: false });
    const again = (await bea.client.get('/api/github/repositories')).body as { fullName: string }[];
    expect(again.map((r) => r.fullName)).toContain(`${github.login}/app-notes`);
    // And an unsuspend delivered again while the installation is suspended restores nothing.
    await github.suspend();
    expect(await github.redeliver(unsuspension!.deliveryId)).toBe(202);
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: true });
    // Where GitHub cannot say (the app's rate limit used up, not a suspension), the delivery's word is taken.
    github.rateLimited = true;
    await github.unsuspend();
    github.rateLimited = false;
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, reconnect: false });

    // Uninstalled on GitHub: the connection asks to be made again, and nothing else breaks.
    await github.uninstall();
    expect((await bea.client.get('/api/github')).body).toMatchObject({ connected: true, via: 'app', reconnect: true });
    const after = await bea.client.get('/api/github/repositories');
    expect([after.status, after.body.code]).toEqual([409, 'GITHUB_RECONNECT']);
    expect((await bea.client.get(`/api/projects/${notes!.id}/github`)).body).toMatchObject({
      fullName: `${github.login}/app-notes`,
    });
  });
});
