import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { APP_URL: 'https://shiplog.test' } });
});
afterAll(async () => {
  await backend?.stop();
});

async function signedUpWithProject(name = 'Weather API') {
  const client = new Client(backend.url);
  const username = uniqueUsername('hook');
  expect((await client.post('/api/register', { username, password: 'secret-pass-1' })).status).toBe(201);
  const project = await client.post('/api/projects', { name });
  expect(project.status).toBe(201);
  return { client, projectId: project.body.id as string };
}

/** The webhook's path on this backend, from the URL its owner is given. */
async function createHook(client: Client, projectId: string) {
  const created = await client.post(`/api/projects/${projectId}/deploy-hook`);
  expect(created.status).toBe(201);
  expect(created.body.url).toMatch(/^https:\/\/shiplog\.test\/api\/hooks\/deploy\/[A-Za-z0-9_-]{32}$/);
  return new URL(created.body.url).pathname;
}

/** A platform's delivery: no session, no cookies, no Origin. */
async function deliver(path: string, body: unknown) {
  const response = await fetch(backend.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    setCookie: response.headers.get('set-cookie'),
  };
}

async function deployments(client: Client, projectId: string) {
  const timeline = await client.get(`/api/projects/${projectId}/activities`);
  expect(timeline.status).toBe(200);
  return (timeline.body as { eventType: string; status: string; version: string | null; details: string }[]).filter(
    (a) => a.eventType === 'deployment',
  );
}

const vercelSucceeded = {
  id: 'whk_delivery_1',
  type: 'deployment.succeeded',
  createdAt: 1_795_000_000_000,
  region: 'iad1',
  payload: {
    team: { id: null },
    user: { id: 'user_abc' },
    deployment: {
      id: 'dpl_8Fj2kLmN3pQr',
      url: 'weather-api-git-main-ada.vercel.app',
      name: 'weather-api',
      meta: { githubCommitSha: 'a1b2c3d4e5f6a7b8c9d0', githubCommitMessage: 'Cache forecasts for 10 minutes' },
    },
    links: {
      deployment: 'https://vercel.com/ada/weather-api/8Fj2kLmN3pQr',
      project: 'https://vercel.com/ada/weather-api',
    },
    target: 'production',
    project: { id: 'prj_weather' },
    plan: 'hobby',
    regions: ['iad1'],
  },
};

describe('deploy webhooks', () => {
  it('records a Vercel deployment’s start and its end once each however often they are delivered, ticking Deployed', async () => {
    const { client, projectId } = await signedUpWithProject();
    const path = await createHook(client, projectId);
    // Vercel says when it starts building: recorded as started, once.
    const started = await deliver(path, { ...vercelSucceeded, id: 'whk_delivery_0', type: 'deployment.created' });
    expect(started).toMatchObject({ status: 201, body: { status: 'started', version: 'a1b2c3d' } });
    expect((await deliver(path, { ...vercelSucceeded, type: 'deployment.created' })).status).toBe(200);
    const first = await deliver(path, vercelSucceeded);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      recorded: true,
      type: 'deployment',
      projectId,
      environment: 'production',
      version: 'a1b2c3d',
      url: 'https://weather-api-git-main-ada.vercel.app/',
      notes: 'Cache forecasts for 10 minutes',
      method: 'Vercel',
      status: 'success',
      source: { platform: 'vercel', deploymentId: 'dpl_8Fj2kLmN3pQr' },
    });
    expect(first.setCookie).toBeNull();
    // Vercel retries a delivery it thinks failed; two arrive at once too.
    const again = await Promise.all([deliver(path, vercelSucceeded), deliver(path, vercelSucceeded)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(again[0]!.body).toEqual({ recorded: false, reason: 'This deployment is already recorded' });

    await waitUntil(
      async () => (await deployments(client, projectId)).length === 2,
      5000,
      'the deployment on the timeline',
    );
    const recorded = await deployments(client, projectId);
    expect(recorded).toMatchObject([
      { details: 'Deployed to production: Weather API', version: 'a1b2c3d', status: 'success' },
      { details: 'Deployment to production started: Weather API', version: 'a1b2c3d', status: 'in_progress' },
    ]);
    const project = await client.get(`/api/projects/${projectId}`);
    expect(project.body.checklist.deployed).toBe(true);
  });

  it("records Netlify's failed deploy as failed, the generic shape, and acknowledges events it does not record", async () => {
    const { client, projectId } = await signedUpWithProject('Docs site');
    const path = await createHook(client, projectId);
    const netlify = {
      id: '5ebc34bf4fea0b01f02efa3a',
      site_id: 'fa4dd95a-994e-4f89-8a7a-2d9e9fc36a32',
      build_id: '5ebc34bf4fea0b01f02efa38',
      state: 'error',
      name: 'docs-site',
      ssl_url: 'https://docs.example.com',
      deploy_ssl_url: 'https://5ebc34bf4fea0b01f02efa3a--docs-site.netlify.app',
      error_message: 'Build script returned non-zero exit code: 2',
      commit_ref: '9f8e7d6c5b4a',
      branch: 'main',
      context: 'deploy-preview',
      title: 'Fix the sidebar',
      deploy_time: 42,
    };
    const failed = await deliver(path, netlify);
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({
      status: 'failed',
      environment: 'staging',
      version: '9f8e7d6',
      notes: 'Build script returned non-zero exit code: 2',
      method: 'Netlify',
      duration: '42s',
      source: { platform: 'netlify', deploymentId: '5ebc34bf4fea0b01f02efa3a' },
    });
    const enqueued = await deliver(path, { ...netlify, id: 'other', state: 'enqueued' });
    expect(enqueued).toMatchObject({
      status: 202,
      body: { recorded: false, reason: "Netlify's enqueued deploy is not recorded" },
    });
    const canceled = await deliver(path, { ...vercelSucceeded, type: 'deployment.canceled' });
    expect(canceled).toMatchObject({ status: 202, body: { recorded: false } });
    // Vercel's other events, ticked on the same webhook, are acknowledged too: Vercel marks a 400 failed.
    for (const [type, payload] of [
      ['project.created', { project: { id: 'prj_1' }, user: { id: 'usr_1' } }],
      ['domain.created', { domain: { name: 'docs.example.com' } }],
      ['integration-configuration.removed', { configuration: { id: 'icfg_1' } }],
    ] as const) {
      const other = await deliver(path, { id: `evt_${type}`, type, createdAt: Date.now(), payload });
      expect(other, type).toMatchObject({
        status: 202,
        body: { recorded: false, reason: `Vercel's ${type} is not recorded` },
      });
    }
    // A platform's name for a state or a target that every object has is no state, nor a 500.
    expect(await deliver(path, { ...netlify, id: 'proto', state: 'constructor' })).toMatchObject({ status: 202 });
    const odd = await deliver(path, {
      ...vercelSucceeded,
      payload: {
        ...vercelSucceeded.payload,
        target: 'constructor',
        deployment: { id: 'dpl_odd', url: 'x.vercel.app' },
      },
    });
    expect(odd.status).toBe(201);
    expect(odd.body).toMatchObject({ environment: 'staging' });

    const generic = {
      deploymentId: 'run-1842',
      version: '2.0.0',
      environment: 'production',
      url: 'https://docs.example.com',
    };
    expect((await deliver(path, generic)).status).toBe(201);
    expect((await deliver(path, generic)).status).toBe(200);

    await waitUntil(async () => (await deployments(client, projectId)).length === 3, 5000, 'the three deployments');
    const [latest, , first] = await deployments(client, projectId);
    expect(latest).toMatchObject({ details: 'Deployed to production: Docs site', version: '2.0.0', status: 'success' });
    expect(first).toMatchObject({ details: 'Deployment to staging failed: Docs site', status: 'failed' });
  });

  it('refuses bad deliveries with 400 and unknown, replaced or turned-off URLs with 404', async () => {
    const { client, projectId } = await signedUpWithProject();
    const path = await createHook(client, projectId);
    const missingId = await deliver(path, { version: '1.0.0' });
    expect(missingId.status).toBe(400);
    expect(missingId.body.fieldErrors).toEqual({ deploymentId: ['Deployment id is required'] });
    const bad = await deliver(path, { deploymentId: 'x', status: 'maybe', environment: 'moon', url: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      status: ['Status must be started, success or failed'],
      environment: ['Environment must be development, staging or production'],
      url: ['Please enter a valid URL'],
    });
    expect((await deliver(path, '{"deploymentId": ')).status).toBe(400);
    expect((await deliver(path, { ...vercelSucceeded, payload: { deployment: {} } })).body.fieldErrors).toEqual({
      deploymentId: ['Deployment id is required'],
    });

    expect((await deliver('/api/hooks/deploy/not-a-hook', { deploymentId: 'a' })).status).toBe(404);
    expect((await deliver(`/api/hooks/deploy/${'A'.repeat(32)}`, { deploymentId: 'a' })).status).toBe(404);

    // The URL is shown once: afterwards only that a webhook is on, and since when; the store keeps
    // only the secret's hash. A new one replaces it, and the old one stops at once.
    const shown = (await client.get(`/api/projects/${projectId}/deploy-hook`)).body;
    expect(shown).toEqual({ active: true, createdAt: expect.any(String) });
    const secret = path.slice('/api/hooks/deploy/'.length);
    const stored = await backend.service('projects').context.pool.query('SELECT * FROM projects.deploy_hooks');
    expect(JSON.stringify(stored.rows)).not.toContain(secret);
    const replaced = await createHook(client, projectId);
    expect(replaced).not.toBe(path);
    expect((await deliver(path, { deploymentId: 'b' })).status).toBe(404);
    expect((await deliver(replaced, { deploymentId: 'b' })).status).toBe(201);
    expect((await client.request('DELETE', `/api/projects/${projectId}/deploy-hook`)).status).toBe(204);
    expect((await client.get(`/api/projects/${projectId}/deploy-hook`)).body).toEqual({
      active: false,
      createdAt: null,
    });
    expect((await deliver(replaced, { deploymentId: 'c' })).status).toBe(404);
  });

  it('makes the webhook of a project just created, even while the project list lags (read-your-writes)', async () => {
    const { client } = await signedUpWithProject();
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    try {
      const project = await client.post('/api/projects', { name: 'Fresh' });
      const creating = client.post(`/api/projects/${project.body.id}/deploy-hook`);
      await held.untilReadWaits();
      await held.release();
      expect((await creating).status).toBe(201);
    } finally {
      await held.release();
    }
  });

  it("is its owner's alone, and goes with the project and with the account", async () => {
    const ada = await signedUpWithProject();
    const eve = await signedUpWithProject();
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await eve.client.request(method, `/api/projects/${ada.projectId}/deploy-hook`);
      expect(response.status).toBe(404);
    }
    expect((await new Client(backend.url).get(`/api/projects/${ada.projectId}/deploy-hook`)).status).toBe(401);

    const path = await createHook(ada.client, ada.projectId);
    expect((await ada.client.request('DELETE', `/api/projects/${ada.projectId}`)).status).toBe(204);
    expect((await deliver(path, { deploymentId: 'after-delete' })).status).toBe(404);

    const other = await ada.client.post('/api/projects', { name: 'Second' });
    const second = await createHook(ada.client, other.body.id);
    expect((await ada.client.request('DELETE', '/api/user')).status).toBe(200);
    expect((await deliver(second, { deploymentId: 'after-account' })).status).toBe(404);
  });
});
