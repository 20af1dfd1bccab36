import { checkOutbound, createChecker } from '@shiplog/monitors/checker';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_PASSWORD = 'admin-secret-1';
let backend: Backend;
let admin: Client;

async function signUp(prefix: string) {
  const user = await backend.signUp(prefix);
  const project = await user.client.post('/api/projects', { name: `${prefix} project` });
  expect(project.status).toBe(201);
  return { ...user, projectId: project.body.id as string };
}

const setStatus = (userId: string, subscriptionStatus: string) =>
  admin.request('PUT', `/api/admin/users/${userId}/subscription`, { subscriptionStatus });

beforeAll(async () => {
  backend = await startBackend({ adminPassword: ADMIN_PASSWORD });
  admin = new Client(backend.url);
  expect((await admin.post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await backend?.stop();
});

describe('plan gates', () => {
  it('obey a status change made by someone else at the very next request, 100 times in a row', async () => {
    const user = await signUp('gated');
    const body = { projectId: user.projectId, notes: 'Shipped it', redeployed: true };
    // Subscribed and not, in turn: every status of the list, no sleeps between the change and the act.
    const cycle = ['active', 'canceled', 'paid', 'past_due', 'active', 'unpaid', 'paid', 'trialing'];
    const outcomes: string[] = [];
    for (let round = 0; round < 100; round++) {
      const status = cycle[round % cycle.length]!;
      expect((await setStatus(user.id, status)).status).toBe(200);
      const answer = await user.client.post('/api/activities', body);
      const subscribed = status === 'active' || status === 'paid';
      outcomes.push(`${round}:${status}:${answer.status}`);
      expect(answer.status, outcomes.join(' ')).toBe(subscribed ? 201 : 403);
      if (!subscribed) expect(answer.body.code).toBe('SUBSCRIPTION_REQUIRED');
    }
  });

  it('answers 404 for someone else’s project whatever the caller’s plan', async () => {
    const owner = await signUp('owner');
    const other = await signUp('other');
    for (const status of ['active', 'canceled', 'paid', 'trialing']) {
      expect((await setStatus(other.id, status)).status).toBe(200);
      const answer = await other.client.post('/api/activities', { projectId: owner.projectId, notes: 'Not mine' });
      expect(answer.status, status).toBe(404);
    }
  });

  it('pauses an account’s monitors when its plan lapses, saying why, and resumes only those once it is back', async () => {
    const user = await signUp('watcher');
    const add = (url: string) => user.client.post(`/api/projects/${user.projectId}/monitors`, { url });
    const running = await add('https://running.example.com/');
    const mine = await add('https://paused-by-me.example.com/');
    expect([running.status, mine.status]).toEqual([201, 201]);
    expect((await user.client.request('PATCH', `/api/monitors/${mine.body.id}`, { paused: true })).status).toBe(200);
    const { context } = backend.service('monitors');
    const checker = createChecker(context as never, checkOutbound({ allowedHosts: [], timeoutMs: 1000 }));
    const planIs = (status: string) =>
      waitUntil(
        async () =>
          (
            await context.pool.query('SELECT 1 FROM monitors.plans WHERE user_id = $1 AND status = $2', [
              user.id,
              status,
            ])
          ).rows.length === 1,
        5000,
        `the plan to be ${status}`,
      );
    const monitors = async () =>
      Object.fromEntries(
        ((await user.client.get('/api/monitors')).body as { id: string; state: string; pausedBy: string | null }[]).map(
          (m) => [m.id, `${m.state}:${m.pausedBy}`],
        ),
      );

    // Cancelled: nothing is added or resumed, and the running monitor pauses, saying why.
    expect((await setStatus(user.id, 'canceled')).status).toBe(200);
    const refused = await add('https://another.example.com/');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 'SUBSCRIPTION_REQUIRED',
      message: 'Monitors run during your trial or with a subscription. Please upgrade to add or resume one.',
    });
    await planIs('canceled');
    expect(await checker.enforcePlans(new Date())).toEqual({ paused: 1, resumed: 0 });
    expect(await checker.enforcePlans(new Date())).toEqual({ paused: 0, resumed: 0 });
    // The list follows the monitors' streams a moment later (the checker's change is no reader's own write).
    await expect.poll(monitors).toEqual({ [running.body.id]: 'paused:plan', [mine.body.id]: 'paused:user' });
    expect((await user.client.request('PATCH', `/api/monitors/${running.body.id}`, { paused: false })).status).toBe(
      403,
    );

    // Paid again: what the plan paused runs again; what its owner paused stays paused.
    expect((await setStatus(user.id, 'active')).status).toBe(200);
    await planIs('active');
    expect(await checker.enforcePlans(new Date())).toEqual({ paused: 0, resumed: 1 });
    await expect.poll(monitors).toEqual({ [running.body.id]: 'pending:null', [mine.body.id]: 'paused:user' });

    // A trial pauses them when it ends (30 days from sign-up).
    expect((await setStatus(user.id, 'trialing')).status).toBe(200);
    await planIs('trialing');
    expect(await checker.enforcePlans(new Date())).toEqual({ paused: 0, resumed: 0 });
    expect(await checker.enforcePlans(new Date(Date.now() + 31 * 86_400_000))).toEqual({ paused: 1, resumed: 0 });
    await checker.stop();
  });
  it('pauses a team project’s monitors when none of its workspace’s owners has a plan, whoever added them', async () => {
    const owner = await signUp('teamlead');
    const member = await signUp('teammate');
    const workspace = (await owner.client.post('/api/workspaces', { name: 'Plans crew' })).body;
    const invite = (await owner.client.post(`/api/workspaces/${workspace.id}/invites`, { username: member.username }))
      .body;
    await waitUntil(async () => (await member.client.get('/api/invites')).body.length === 1);
    expect((await member.client.post(`/api/invites/${invite.id}/accept`)).status).toBe(200);
    const project = (await owner.client.post('/api/projects', { name: 'Team site', workspaceId: workspace.id })).body;
    await member.client.untilReaches(project.id);
    // Added by the member, whose own trial runs on: the owners' plan decides.
    const monitor = await member.client.post(`/api/projects/${project.id}/monitors`, {
      url: 'https://team.example.com/',
    });
    expect(monitor.status).toBe(201);
    const { context } = backend.service('monitors');
    const checker = createChecker(context as never, checkOutbound({ allowedHosts: [], timeoutMs: 1000 }));
    const stateOf = async () =>
      ((await member.client.get('/api/monitors')).body as { id: string; state: string; pausedBy: string | null }[])
        .filter((m) => m.id === monitor.body.id)
        .map((m) => `${m.state}:${m.pausedBy}`)[0];
    expect((await setStatus(owner.id, 'canceled')).status).toBe(200);
    // Enforced until this monitor is paused (a pass also counts other tests' monitors, so its own state is what is read).
    await waitUntil(
      async () => {
        await checker.enforcePlans(new Date());
        return (await stateOf()) === 'paused:plan';
      },
      10_000,
      'the team monitor to pause',
    );
    expect((await setStatus(owner.id, 'active')).status).toBe(200);
    await waitUntil(
      async () => {
        await checker.enforcePlans(new Date());
        return (await stateOf()) !== 'paused:plan';
      },
      10_000,
      'it to resume',
    );
  });
});
