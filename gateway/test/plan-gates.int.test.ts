import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, Client, startBackend } from './harness.ts';

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
});
