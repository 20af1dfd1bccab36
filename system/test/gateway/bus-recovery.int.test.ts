import { connectBus } from '@shiplog/messaging';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { natsUrl } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { republishAll } from '../../../scripts/bus-republish.ts';

/**
 * The bus holds copies: everything that matters is in the event stores. When the NATS stream is lost,
 * `pnpm bus:republish` and a restart publish it all again, and nothing takes effect twice.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

async function streamMessages(): Promise<number> {
  const bus = await connectBus({ url: natsUrl, namespace: backend.busNamespace });
  try {
    return (await bus.jsm.streams.info(bus.stream)).state.messages;
  } finally {
    await bus.close();
  }
}

describe('a lost NATS stream', () => {
  it('is published again from the event stores, with no second effect, and the app carries on', async () => {
    const env = { DATABASE_URL: backend.databaseUrl, NODE_ENV: 'test' };
    const client = new Client(backend.url);
    expect(
      (await client.post('/api/register', { username: uniqueUsername('lost'), password: 'secret-pass-1' })).status,
    ).toBe(201);
    const project = (await client.post('/api/projects', { name: 'Harbour', status: 'development' })).body;
    await client.post('/api/projects', { name: 'Lighthouse' });
    await client.post(`/api/projects/${project.id}/deployment`, { version: '1.0.0' });
    const reminder = await client.post('/api/reminders', {
      projectId: project.id,
      title: 'Renew the certificate',
      dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(reminder.status).toBe(201);
    const read = async () => ({
      projects: (await client.get('/api/projects')).body,
      activities: (await client.get('/api/activities?limit=50')).body,
      reminders: (await client.get('/api/reminders')).body,
      user: (await client.get('/api/user')).body,
    });
    const before = await read();
    expect(before.activities).toHaveLength(4);
    const published = await streamMessages();

    // While the services run, the script refuses: a running relay would write its checkpoint back.
    await expect(republishAll(env)).rejects.toThrow(/Stop the services first: shiplog-/);

    await backend.restart(async () => {
      await backend.loseBusStream();
      expect(await republishAll(env)).toEqual([
        'identity',
        'projects',
        'reminders',
        'billing',
        'chat',
        'integrations',
        'activity',
        'monitors',
      ]);
    });

    // Every event is on the bus again, once, and every read model is as it was: nothing doubled.
    await expect.poll(streamMessages, { timeout: 10_000 }).toBe(published);
    expect(await read()).toEqual(before);

    // New writes flow, and the timeline shows them at once; the session survived (it is in Redis).
    await client.post('/api/projects', { name: 'Breakwater' });
    const after = await read();
    expect(after.activities).toHaveLength(5);
    expect(after.activities[0].details).toBe('Created project: Breakwater');
    expect(after.projects.map((p: { name: string }) => p.name)).toEqual(['Breakwater', 'Lighthouse', 'Harbour']);
  });
});
