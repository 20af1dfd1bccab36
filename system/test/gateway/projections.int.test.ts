import { headers } from '@nats-io/nats-core';
import { toBusEvent } from '@shiplog/messaging';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { type OpenAIStandIn, startOpenAIStandIn } from '@shiplog/testing/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../../../scripts/projections-rebuild.ts';

let backend: Backend;

const tables = {
  'activity.activities': 'id',
  'activity.project_stats': 'project_id',
  'activity.cost_history': 'event_id',
  'projects.project_list': 'id',
  'identity.admin_users': 'user_id',
  'identity.admin_comments': 'id',
  'chat.daily_chat_usage': 'id',
  'integrations.api_integrations': 'id',
  'monitors.plans': 'user_id',
  'identity.workspaces': 'id',
  'identity.workspace_members': 'workspace_id, user_id',
  'identity.workspace_invites': 'id',
  'projects.workspace_members': 'workspace_id, user_id',
  'activity.workspace_members': 'workspace_id, user_id',
};

async function snapshot() {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables))
    out[table] = (await backend.pool.query(`SELECT * FROM ${table} ORDER BY ${key}`)).rows;
  return out;
}

async function signUp() {
  const client = new Client(backend.url);
  expect(
    (await client.post('/api/register', { username: uniqueUsername('proj'), password: 'secret-pass-1' })).status,
  ).toBe(201);
  return client;
}

let model: OpenAIStandIn;
beforeAll(async () => {
  model = await startOpenAIStandIn();
  backend = await startBackend({ env: model.env });
});
afterAll(async () => {
  await backend?.stop();
  await model?.stop();
});

describe('projections', () => {
  it('give a redelivered event one effect', async () => {
    const client = await signUp();
    const project = (await client.post('/api/projects', { name: 'Twice' })).body;
    // The original is handled (read-your-writes through the gateway).
    expect((await client.get(`/api/projects/${project.id}/activities`)).body).toHaveLength(1);
    const [created] = await backend.service('projects').context.store.readStream(`project-${project.id}`);
    // Publish the same event again under a new message id: JetStream delivers it a second time.
    const { bus } = backend.service('projects').context;
    const ack = await bus.js.publish(
      bus.subject('projects', 'ProjectCreated'),
      JSON.stringify(toBusEvent(created!, 'projects')),
      {
        msgID: `${created!.id}-again`,
        headers: headers(),
      },
    );
    const consumer = backend.service('activity').consumers[0]!;
    // Handled and acknowledged: the consumer's ack floor has passed the copy.
    await expect
      .poll(async () => (await bus.jsm.consumers.info(bus.stream, consumer.name)).ack_floor.stream_seq, {
        timeout: 5000,
      })
      .toBeGreaterThanOrEqual(ack.seq);
    const rows = await backend.pool.query('SELECT count(*)::int AS n FROM activity.activities WHERE project_id = $1', [
      project.id,
    ]);
    expect(rows.rows[0].n).toBe(1);
    const stats = await backend.pool.query(
      'SELECT count(*)::int AS n FROM activity.project_stats WHERE project_id = $1',
      [project.id],
    );
    expect(stats.rows[0].n).toBe(1);
  });

  it('rebuild from the event stores to exactly the live tables, and live projection carries on after', async () => {
    const client = await signUp();
    const keep = (
      await client.post('/api/projects', {
        name: 'Keeper',
        status: 'development',
        metadata: { socialLinks: { github: 'github.com/a/b' } },
      })
    ).body;
    await client.request('PUT', `/api/projects/${keep.id}`, { description: 'Now with words', databaseAdded: true });
    await client.post(`/api/projects/${keep.id}/deployment`, { version: '1.0.0' });
    await client.post(`/api/projects/${keep.id}/version`, { version: '1.0.0', changes: ['First'] });
    const gone = (await client.post('/api/projects', { name: 'Gone' })).body;
    await client.post(`/api/projects/${gone.id}/backup`, {});
    // A reminder's timeline rows come from another source than the project's deletion: live they are
    // written first and then unlinked; a rebuild replays the projects' events first. Same rows either way.
    const reminder = await client.post('/api/reminders', {
      projectId: gone.id,
      title: 'Renew the domain',
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    expect((await client.post(`/api/reminders/${reminder.body.id}/complete`)).status).toBe(200);
    expect(
      (await client.get('/api/activities?limit=100')).body.some((a: { action: string }) => a.action === 'completed'),
    ).toBe(true);
    await client.request('DELETE', `/api/projects/${gone.id}`);
    await client.post('/api/chat', { message: 'Can I have more messages?' });
    await client.post('/api/chat', { message: 'Thanks' });
    const integration = { baseUrl: 'https://registrar.example.com', apiKey: 'a-registrar-api-key' };
    await client.post('/api/integrations', { ...integration, siteName: 'Registrar' });
    const removed = (await client.post('/api/integrations', { ...integration, siteName: 'Removed' })).body;
    await client.request('DELETE', `/api/integrations/${removed.id}`);
    // A team workspace, renamed, with an invite waiting and one revoked.
    const team = (await client.post('/api/workspaces', { name: 'Team' })).body;
    await client.request('PUT', `/api/workspaces/${team.id}`, { name: 'The team' });
    await client.post(`/api/workspaces/${team.id}/invites`, { email: 'waiting@example.com' });
    const revoked = (await client.post(`/api/workspaces/${team.id}/invites`, { email: 'revoked@example.com' })).body;
    await client.request('DELETE', `/api/workspaces/${team.id}/invites/${revoked.id}`);
    // A project moved into the team with a monitor, and one moved in and out again.
    const moved = (await client.post('/api/projects', { name: 'Moved', costEstimate: 300 })).body;
    await client.post(`/api/projects/${moved.id}/monitors`, { url: 'https://moved.example.com/' });
    expect((await client.post(`/api/projects/${moved.id}/move`, { workspaceId: team.id })).status).toBe(200);
    const back = (await client.post('/api/projects', { name: 'Back again' })).body;
    await client.post(`/api/projects/${back.id}/move`, { workspaceId: team.id });
    expect((await client.post(`/api/projects/${back.id}/move`, { workspaceId: null })).status).toBe(200);
    // Reading through the gateway waits for the projections to include every write above.
    expect((await client.get('/api/activities?limit=100')).body.length).toBeGreaterThan(5);
    expect((await client.get('/api/projects')).body).toHaveLength(3);

    const live = await snapshot();
    expect(live['activity.activities']!.length).toBeGreaterThan(5);
    await expect.poll(async () => (await snapshot())['chat.daily_chat_usage']).toHaveLength(1);
    Object.assign(live, await snapshot());
    expect(live['chat.daily_chat_usage']).toEqual([expect.objectContaining({ messages_used: 2, boost_used: true })]);
    await expect.poll(async () => (await snapshot())['integrations.api_integrations']).toHaveLength(1);
    Object.assign(live, await snapshot());
    const results = await rebuildAll({
      DATABASE_URL: backend.databaseUrl,
      BUS_NAMESPACE: backend.busNamespace,
      NODE_ENV: 'test',
    });
    expect(results.map((r) => r.projection).sort()).toEqual([
      'activity-actors',
      'activity-audit',
      'activity-cost-history',
      'activity-timeline',
      'activity-workspace-members',
      'chat-daily-chat-usage',
      'identity-admin-users',
      'identity-messages',
      'identity-workspaces',
      'integrations-integration-list',
      'monitors-monitor-list',
      'monitors-plans',
      'projects-project-list',
      'projects-workspace-members',
      'reminders-reminder-list',
    ]);
    expect(await snapshot()).toEqual(live);

    // The live consumers skip what the rebuild replayed, and project what comes next.
    const next = (await client.post('/api/projects', { name: 'After rebuild' })).body;
    const list = (await client.get('/api/projects')).body;
    expect(list.map((p: { id: string }) => p.id)).toEqual([next.id, back.id, moved.id, keep.id]);
    const timeline = (await client.get(`/api/projects/${next.id}/activities`)).body;
    expect(timeline).toHaveLength(1);
  });
});
