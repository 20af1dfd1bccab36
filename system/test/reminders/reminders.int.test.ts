import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
let ada: Client;
let eve: Client;

const signUp = async (prefix: string) => (await backend.signUp(prefix)).client;

async function project(client: Client, name = 'Launchpad') {
  const response = await client.post('/api/projects', { name });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string };
}

const due = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  backend = await startBackend();
  ada = await signUp('ada');
  eve = await signUp('eve');
});
afterAll(async () => {
  await backend?.stop();
});

describe('reminders', () => {
  it('lists the eleven notification times with labels', async () => {
    const response = await ada.get('/api/reminders/options/notification-times');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(11);
    expect(response.body[0]).toEqual({ value: 'at_time', label: 'At time of event' });
    expect(response.body.map((o: { value: string }) => o.value)).toContain('1_week_before');
  });

  it('adds a reminder to a project created a moment before, with the spec defaults', async () => {
    const launchpad = await project(ada);
    const dueDate = due(3);
    const response = await ada.post('/api/reminders', { projectId: launchpad.id, title: 'Renew the domain', dueDate });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      projectId: launchpad.id,
      projectName: 'Launchpad',
      title: 'Renew the domain',
      description: null,
      dueDate,
      reminderTimes: ['1_day_before'],
      frequency: 'once',
      isCompleted: false,
      emailsSent: {},
      lastSentAt: null,
    });
    const id = response.body.id;
    expect((await ada.get(`/api/reminders/${id}`)).body).toMatchObject({ id, title: 'Renew the domain' });
    expect((await ada.get('/api/reminders')).body.map((r: { id: string }) => r.id)).toContain(id);
    expect((await ada.get(`/api/reminders/project/${launchpad.id}`)).body.map((r: { id: string }) => r.id)).toEqual([
      id,
    ]);
  });

  it('validates with the spec messages', async () => {
    const launchpad = await project(ada);
    const post = (body: Record<string, unknown>) =>
      ada.post('/api/reminders', { projectId: launchpad.id, title: 'Valid title', dueDate: due(1), ...body });
    expect((await post({ title: 'ab' })).body.fieldErrors).toEqual({ title: ['Title must be at least 3 characters'] });
    expect((await post({ title: 'x'.repeat(101) })).body.fieldErrors).toEqual({
      title: ['Title must be at most 100 characters'],
    });
    expect((await post({ dueDate: undefined })).body.fieldErrors).toEqual({ dueDate: ['Due date is required'] });
    expect((await post({ dueDate: 'not a date' })).body.fieldErrors).toEqual({ dueDate: ['Due date is required'] });
    expect((await post({ reminderTimes: [] })).body.fieldErrors).toEqual({
      reminderTimes: ['Select at least one reminder time'],
    });
    expect((await post({ reminderTimes: ['sometime'] })).status).toBe(400);
    expect((await post({ frequency: 'yearly' })).body.fieldErrors).toEqual({
      frequency: ['Frequency must be once, daily, weekly or monthly'],
    });
    const ok = await post({ reminderTimes: ['at_time', '1_hour_before', 'at_time'], frequency: 'weekly' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ reminderTimes: ['at_time', '1_hour_before'], frequency: 'weekly' });
  });

  it('edits, completes, reactivates and deletes, with timeline rows', async () => {
    const launchpad = await project(ada, 'Timeline Rocket');
    const { id } = (await ada.post('/api/reminders', { projectId: launchpad.id, title: 'Ship v1', dueDate: due(2) }))
      .body;
    const patched = await ada.request('PATCH', `/api/reminders/${id}`, {
      title: 'Ship v1.0',
      reminderTimes: ['1_hour_before'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Ship v1.0', reminderTimes: ['1_hour_before'] });
    expect((await ada.post(`/api/reminders/${id}/complete`)).body.isCompleted).toBe(true);
    expect((await ada.post(`/api/reminders/${id}/reactivate`)).body.isCompleted).toBe(false);
    expect((await ada.request('PATCH', `/api/reminders/${id}`, { isCompleted: true })).body.isCompleted).toBe(true);

    const timeline = (await ada.get(`/api/projects/${launchpad.id}/activities`)).body as {
      eventType: string;
      action: string;
      details: string;
    }[];
    expect(timeline.map((a) => [a.eventType, a.action])).toEqual([
      ['reminder_completed', 'completed'],
      ['reminder_updated', 'updated'],
      ['reminder_completed', 'completed'],
      ['reminder_updated', 'updated'],
      ['reminder_added', 'created'],
      ['project_created', 'created'],
    ]);
    for (const row of timeline) expect(row.details.split(': ')[1]).toBe('Timeline Rocket');

    expect((await ada.request('DELETE', `/api/reminders/${id}`)).status).toBe(204);
    expect((await ada.get(`/api/reminders/${id}`)).status).toBe(404);
    expect((await ada.request('DELETE', `/api/reminders/${id}`)).status).toBe(404);
  });

  it("answers 404 for another user's reminders and projects", async () => {
    const launchpad = await project(ada);
    const { id } = (await ada.post('/api/reminders', { projectId: launchpad.id, title: 'Private', dueDate: due(1) }))
      .body;
    expect((await eve.get(`/api/reminders/${id}`)).status).toBe(404);
    expect((await eve.request('PATCH', `/api/reminders/${id}`, { title: 'Mine now' })).status).toBe(404);
    expect((await eve.post(`/api/reminders/${id}/complete`)).status).toBe(404);
    expect((await eve.post(`/api/reminders/${id}/reactivate`)).status).toBe(404);
    expect((await eve.request('DELETE', `/api/reminders/${id}`)).status).toBe(404);
    expect((await eve.get(`/api/reminders/project/${launchpad.id}`)).status).toBe(404);
    expect((await eve.get('/api/reminders')).body.map((r: { id: string }) => r.id)).not.toContain(id);
    // Nobody can attach a reminder to someone else's project.
    expect(
      (await eve.post('/api/reminders', { projectId: launchpad.id, title: 'Sneaky', dueDate: due(1) })).status,
    ).toBe(404);
    expect((await eve.post('/api/reminders', { projectId: 'nope', title: 'Sneaky', dueDate: due(1) })).status).toBe(
      404,
    );
    expect((await ada.get('/api/reminders/not-a-uuid')).status).toBe(404);
    expect((await new Client(backend.url).get('/api/reminders')).status).toBe(401);
  });

  it("follows a project's rename, and goes with the project when it is deleted", async () => {
    const launchpad = await project(ada, 'Old Name');
    const { id } = (await ada.post('/api/reminders', { projectId: launchpad.id, title: 'Cascade me', dueDate: due(5) }))
      .body;
    await ada.request('PUT', `/api/projects/${launchpad.id}`, { name: 'New Name' });
    await waitUntil(
      async () => (await ada.get(`/api/reminders/${id}`)).body.projectName === 'New Name',
      5000,
      'the rename',
    );
    expect((await ada.request('DELETE', `/api/projects/${launchpad.id}`)).status).toBe(204);
    await waitUntil(async () => (await ada.get(`/api/reminders/${id}`)).status === 404, 5000, 'the cascade');
    expect((await ada.get('/api/reminders')).body.map((r: { id: string }) => r.id)).not.toContain(id);
    expect(
      (await ada.post('/api/reminders', { projectId: launchpad.id, title: 'Too late', dueDate: due(1) })).status,
    ).toBe(404);
  });

  it('keeps a project deleted when its creation and deletion reach the reminders in one batch', async () => {
    // Hold the reminders' projects consumer at the lock of a batch of its own, so that the next
    // project's creation and deletion queue up behind it and are handled together.
    const held = await backend.holdConsumer('reminders', 'reminders-projects');
    try {
      await project(ada, 'Blocker');
      await held.untilWaiting();
      const brief = await project(ada, 'Brief');
      const before = await backend.busSequence();
      expect((await ada.request('DELETE', `/api/projects/${brief.id}`)).status).toBe(204);
      // The relay has published the deletion: the consumer takes it behind the creation, in one batch.
      await backend.untilPublished('projects', 'ProjectDeleted', before);
      await held.release();
      // Decided once the consumer has handled the deletion (the write waits for it).
      expect(
        (await ada.post('/api/reminders', { projectId: brief.id, title: 'Too late', dueDate: due(1) })).status,
      ).toBe(404);
    } finally {
      await held.release();
    }
  });
});
