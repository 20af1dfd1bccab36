import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newId } from '@shiplog/events';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One event a projection cannot hold no longer stops it for every user (decision 013). The event here
 * is of a kind found in a real database: a reminder due in the year 0, which the API took
 * before dates were limited to the years 1 to 9999, which the event catalog's ISO check passes, and
 * which PostgreSQL's timestamps refuse.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

async function signUp() {
  const client = new Client(backend.url);
  const response = await client.post('/api/register', {
    username: uniqueUsername('parked'),
    password: 'secret-pass-1',
  });
  expect(response.status).toBe(201);
  const projectId = (await client.post('/api/projects', { name: 'Domain Watch' })).body.id as string;
  return { client, id: response.body.id as string, projectId };
}

describe('an event a projection cannot hold', () => {
  it('is parked, and the other reminders reach the list after it', async () => {
    const ada = await signUp();
    const bob = await signUp();
    // Stored as it was before the fix: straight into the reminders service's store (sealed as usual).
    const poisonId = newId();
    const reminderId = newId();
    const at = new Date().toISOString();
    await backend.service('reminders').context.store.append(
      `reminder-${reminderId}`,
      [
        {
          id: poisonId,
          type: 'ReminderAdded',
          data: {
            reminderId,
            userId: ada.id,
            projectId: ada.projectId,
            projectName: 'Domain Watch',
            title: 'Far back',
            description: null,
            dueDate: '0000-06-01T00:00:00.000Z',
            reminderTimes: ['1_day_before'],
            frequency: 'once',
            isCompleted: false,
            at,
          },
          metadata: { userId: ada.id, correlationId: newId(), causationId: null, schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    // Bob's reminder comes through once Ada's event is parked (a second or so; stuck behind it, never).
    const dueDate = new Date(Date.now() + 86_400_000).toISOString();
    const reminder = (user: typeof ada) =>
      user.client.post('/api/reminders', { projectId: user.projectId, title: 'Renew', dueDate });
    const listed = async (user: typeof ada) =>
      (await user.client.get('/api/reminders')).body.map((r: { id: string }) => r.id);
    const bobs = await reminder(bob);
    expect(bobs.status).toBe(201);
    await expect.poll(() => listed(bob), { timeout: 10_000 }).toEqual([bobs.body.id]);
    // And after that the list answers at once again: Ada's next reminder is there on the first read.
    const adas = await reminder(ada);
    expect(adas.status).toBe(201);
    expect(await listed(ada)).toEqual([adas.body.id]);
    const { rows } = await backend.pool.query(
      `SELECT consumer, event_type, user_id, error FROM reminders.parked_events WHERE event_id = $1`,
      [poisonId],
    );
    expect(rows).toEqual([
      {
        consumer: 'reminders-reminder-list',
        event_type: 'ReminderAdded',
        user_id: ada.id,
        error: expect.stringMatching(/out of range/),
      },
    ]);

    // `pnpm events:parked` lists it, and exits 1 so that a check can tell.
    const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'parked-events.ts');
    const run = await promisify(execFile)(process.execPath, [script], {
      env: { ...process.env, DATABASE_URL: backend.databaseUrl, NODE_ENV: 'test' },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(run).toMatchObject({ code: 1 });
    expect(run.stdout).toContain(`reminders-reminder-list  ReminderAdded ${poisonId}`);
    expect(run.stdout).toContain('1 parked event(s)');

    // `--replay` sends it back to the reminder list; still unfit, it is parked again, with a later time.
    const { rows: before } = await backend.pool.query('SELECT parked_at FROM reminders.parked_events');
    const replay = await promisify(execFile)(process.execPath, [script, '--replay'], {
      env: { ...process.env, DATABASE_URL: backend.databaseUrl, BUS_NAMESPACE: backend.busNamespace, NODE_ENV: 'test' },
    });
    expect(replay.stdout).toContain('reminders: replayed 1 event(s)');
    await expect
      .poll(async () => (await backend.pool.query('SELECT parked_at FROM reminders.parked_events')).rows, {
        timeout: 10_000,
      })
      .toEqual([{ parked_at: expect.toSatisfy((at: Date) => at > before[0].parked_at) }]);
  });
});
