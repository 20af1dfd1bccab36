import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe('when a service is down', () => {
  it('keeps every other route answering under load while billing is down, and billing once it is back', async () => {
    const client = new Client(backend.url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('load'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const project = await client.post('/api/projects', { name: 'Still Shipping' });
    expect(project.status).toBe(201);
    const others = ['/api/projects', '/api/reminders', `/api/projects/${project.body.id}`, '/api/activities'];
    const dashboard = () =>
      client.post('/api/graphql', { query: '{ dashboard { counters { totalProjects } projects { name } } }' });
    /** Twenty rounds of the user's everyday reads and a billing read, eight at a time. */
    const burst = async () => {
      const statuses: Record<string, number[]> = {};
      const note = (what: string, status: number) => {
        statuses[what] = [...(statuses[what] ?? []), status];
      };
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let round = 0; round < 20; round++) {
            for (const path of others) note(path, (await client.get(path)).status);
            const board = await dashboard();
            note('dashboard', board.body?.errors ? 500 : board.status);
            note('billing', (await client.get('/api/subscription/status')).status);
          }
        }),
      );
      return Object.fromEntries(Object.entries(statuses).map(([what, list]) => [what, [...new Set(list)]]));
    };

    await backend.service('billing').stop();
    const down = await burst();
    expect(down).toEqual({
      ...Object.fromEntries(others.map((path) => [path, [200]])),
      dashboard: [200],
      billing: [503],
    });
    expect((await fetch(`${backend.url}/readyz`)).status).toBe(200);

    await backend.startAgain('billing');
    await expect.poll(async () => (await fetch(`${backend.url}/readyz/system`)).status, { timeout: 10_000 }).toBe(200);
    // The calls that failed opened billing's breaker: within a second it lets one through, and closes.
    await expect
      .poll(async () => (await client.get('/api/subscription/status')).status, { interval: 100, timeout: 10_000 })
      .toBe(200);
    const back = await burst();
    expect(back).toEqual({
      ...Object.fromEntries(others.map((path) => [path, [200]])),
      dashboard: [200],
      billing: [200],
    });
    // Two bursts of nearly two thousand requests: on a busy machine more than the default 20 s.
  }, 60_000);

  it('keeps a service answering when its callers give up waiting on it: that is not the service failing', async () => {
    const { client } = await backend.signUp('impatient');
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    const list = backend.service('projects').consumers.find((c) => c.name === 'projects-project-list')!;
    try {
      expect((await client.post('/api/projects', { name: 'Not listed yet' })).status).toBe(201);
      // Each read waits for the list to include the new project; each caller gives up first.
      const callers = Array.from({ length: 8 }, () => new AbortController());
      const reads = callers.map((caller) =>
        fetch(`${backend.url}/api/projects`, { headers: { cookie: client.cookie! }, signal: caller.signal }).then(
          () => 'answered',
          () => 'gave up',
        ),
      );
      await waitUntil(() => list.readsWaiting() >= 8, 5000, 'eight reads waiting for the project list');
      for (const caller of callers) caller.abort();
      expect(await Promise.all(reads)).toEqual(Array(8).fill('gave up'));
    } finally {
      await held.release();
    }
    // The service answers the reads nobody waits for any more; the gateway has nowhere to send them.
    await waitUntil(() => list.readsWaiting() === 0, 5000, 'the abandoned reads to be answered');
    // The next caller is answered by the service, not turned away as if it were down.
    const next = await client.get('/api/projects');
    expect(next.status).toBe(200);
    expect(next.body.map((p: { name: string }) => p.name)).toContain('Not listed yet');
  });

  it('answers a write that waited its longest for the caller’s own writes, within the gateway’s time for it', async () => {
    const { client } = await backend.signUp('patient');
    const first = await client.post('/api/projects', { name: 'Listed' });
    expect(first.status).toBe(201);
    await client.untilReaches(first.body.id);
    const held = await backend.holdConsumer('projects', 'projects-project-list');
    try {
      expect((await client.post('/api/projects', { name: 'Not listed yet' })).status).toBe(201);
      // The rename waits for the list to hold the second project, which it never does while held; then
      // it goes on with the first, which is there, and says so before the gateway's 10 s are up.
      const renamed = await client.request('PUT', `/api/projects/${first.body.id}`, { name: 'Renamed' });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(renamed.body.name).toBe('Renamed');
    } finally {
      await held.release();
    }
  }, 30_000);

  it('answers 503 for what it owns, keeps the session usable, and readiness reports it', async () => {
    const client = new Client(backend.url);
    const username = uniqueUsername('outage');
    expect((await client.post('/api/register', { username, password: 'secret-pass-1' })).status).toBe(201);

    await backend.service('billing').stop();
    const status = await client.get('/api/subscription/status');
    expect(status.status).toBe(503);
    expect(status.body).toEqual({
      message: 'The billing service is not available right now. Please try again.',
      code: 'SERVICE_UNAVAILABLE',
    });
    // The account still loads; only the subscription part is unknown.
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username, subscriptionStatus: null });
    // The gateway stays ready: it can serve everything else. The whole system's view names billing.
    expect((await fetch(`${backend.url}/readyz`)).status).toBe(200);
    const system = await fetch(`${backend.url}/readyz/system`);
    expect(system.status).toBe(503);
    expect(((await system.json()) as { checks: Record<string, string> }).checks.billing).not.toBe('ok');

    await backend.service('identity').stop();
    const login = await new Client(backend.url).post('/api/login', { username, password: 'secret-pass-1' });
    expect(login.status).toBe(503);
    expect(login.body.code).toBe('SERVICE_UNAVAILABLE');
  });
});
