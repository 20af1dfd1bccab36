import { createReminderSchema, importedReminderSchema, updateReminderSchema } from '@shiplog/schemas';
import { describe, expect, it } from 'vitest';
import { decideReminder } from './decide.ts';
import { evolveReminder, initialReminder, type Reminder } from './reminder.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const owner = '0193a1b2-0000-7000-8000-00000000000a';
const reminderId = '0193a1b2-0000-7000-8000-00000000000c';
const project = { id: '0193a1b2-0000-7000-8000-00000000000d', name: 'Launchpad' };

function added(): Reminder {
  const input = createReminderSchema.parse({
    projectId: project.id,
    title: 'Renew domain',
    dueDate: '2026-12-01T12:00:00.000Z',
  });
  return decideReminder(
    { type: 'AddReminder', reminderId, userId: owner, project, input, space: null },
    initialReminder(),
    now,
  ).reduce(evolveReminder, initialReminder());
}

describe('reminder decide', () => {
  // Whether the caller may add to, read or change a project's reminders is the route's (its `project`
  // role, system/test/reminders); the decider refuses what no caller may do.
  it('imports a reminder as it stood, its sends kept, for a known project, once', () => {
    const input = importedReminderSchema.parse({
      id: 'from-the-file',
      projectId: project.id,
      title: 'Renew domain',
      dueDate: '2026-12-01T12:00:00.000Z',
      reminderTimes: ['1_day_before'],
      emailsSent: { '1_day_before@2026-12-01T12:00:00.000Z': '2026-11-30T12:00:05.000Z' },
      lastSentAt: '2026-11-30T12:00:05.000Z',
      createdAt: '2026-11-01T09:00:00.000Z',
      updatedAt: '2026-11-30T12:00:05.000Z',
    });
    const command = { type: 'ImportReminder' as const, reminderId, userId: owner, project, input, space: null };
    expect(() => decideReminder({ ...command, project: null }, initialReminder(), now)).toThrow('Project not found');
    const state = decideReminder(command, initialReminder(), now).reduce(evolveReminder, initialReminder());
    expect(state).toMatchObject({
      lifecycle: 'active',
      projectName: 'Launchpad',
      emailsSent: { '1_day_before@2026-12-01T12:00:00.000Z': '2026-11-30T12:00:05.000Z' },
      createdAt: '2026-11-01T09:00:00.000Z',
    });
    // The send it already made is not made again.
    expect(
      decideReminder({ type: 'ProcessDue', channel: 'email', space: null }, state, new Date('2026-12-01T11:00:00Z')),
    ).toEqual([]);
    expect(decideReminder(command, state, now)).toEqual([]);
    // Imported before, its project since gone: still nothing to do.
    expect(decideReminder({ ...command, project: null }, state, now)).toEqual([]);
  });

  it('adds only to a known project, once, as its author’s', () => {
    const input = createReminderSchema.parse({ projectId: project.id, title: 'Renew domain', dueDate: '2026-12-01' });
    expect(() =>
      decideReminder(
        { type: 'AddReminder', reminderId, userId: owner, project: null, input, space: null },
        initialReminder(),
        now,
      ),
    ).toThrow(expect.objectContaining({ status: 404, code: 'PROJECT_NOT_FOUND' }));
    const state = added();
    expect(state).toMatchObject({
      lifecycle: 'active',
      userId: owner,
      reminderTimes: ['1_day_before'],
      frequency: 'once',
      isCompleted: false,
      projectName: 'Launchpad',
    });
    // The same add again (its Idempotency-Key names the same reminder), its project since gone: made already.
    expect(
      decideReminder({ type: 'AddReminder', reminderId, userId: owner, project: null, input, space: null }, state, now),
    ).toEqual([]);
  });

  it('completes and reactivates once each; the edit box does the same', () => {
    const state = added();
    const completed = decideReminder({ type: 'CompleteReminder', space: null }, state, now);
    expect(completed.map((e) => e.type)).toEqual(['ReminderCompleted']);
    const done = completed.reduce(evolveReminder, state);
    expect(decideReminder({ type: 'CompleteReminder', space: null }, done, now)).toEqual([]);
    expect(decideReminder({ type: 'ReactivateReminder', space: null }, state, now)).toEqual([]);
    expect(
      decideReminder(
        {
          type: 'UpdateReminder',
          input: updateReminderSchema.parse({ isCompleted: false, title: 'Renew it' }),
          space: null,
        },
        done,
        now,
      ).map((e) => e.type),
    ).toEqual(['ReminderUpdated', 'ReminderReactivated']);
  });

  it('names the team workspace its project is in on every event it decides, and none for a personal one', () => {
    const team = '7c0d5f4e-3b1a-4c2d-9e8f-0a1b2c3d4e5f';
    const input = createReminderSchema.parse({
      projectId: project.id,
      title: 'Renew',
      dueDate: '2026-12-01T12:00:00Z',
    });
    const made = decideReminder(
      { type: 'AddReminder', reminderId, userId: owner, project, input, space: team },
      initialReminder(),
      now,
    );
    expect(made.map((e) => e.data.workspaceId)).toEqual([team]);
    const state = made.reduce(evolveReminder, initialReminder());
    expect(
      decideReminder({ type: 'CompleteReminder', space: team }, state, now).map((e) => e.data.workspaceId),
    ).toEqual([team]);
    // Moved to its maker's personal space since: no team is named any more.
    expect(decideReminder({ type: 'CompleteReminder', space: null }, state, now)[0]!.data).not.toHaveProperty(
      'workspaceId',
    );
  });

  it('states a reminder whole under its project’s new space when the project moves, read alone as it stood', () => {
    const team = '7c0d5f4e-3b1a-4c2d-9e8f-0a1b2c3d4e5f';
    const state = decideReminder({ type: 'CompleteReminder', space: null }, added(), now).reduce(
      evolveReminder,
      added(),
    );
    const moved = decideReminder({ type: 'MoveWithProject', space: team }, state, now);
    expect(moved).toMatchObject([
      { type: 'ReminderMoved', data: { reminderId, workspaceId: team, isCompleted: true } },
    ]);
    // Its earlier events unreadable (their key destroyed): the move alone is the reminder.
    expect(moved.reduce(evolveReminder, initialReminder())).toEqual(state);
    expect(decideReminder({ type: 'MoveWithProject', space: team }, initialReminder(), now)).toEqual([]);
  });

  it('deletes a reminder once: a deleted one and a missing one answer the same 404', () => {
    const deleted = decideReminder({ type: 'DeleteReminder', reason: 'user', space: null }, added(), now);
    // Whoever deletes it, the event names the reminder's author (whose reminders it was).
    expect(deleted).toMatchObject([{ type: 'ReminderDeleted', data: { userId: owner, reason: 'user' } }]);
    const gone = deleted.reduce(evolveReminder, added());
    const notFound = expect.objectContaining({ status: 404, code: 'REMINDER_NOT_FOUND' });
    for (const state of [gone, initialReminder()]) {
      expect(() => decideReminder({ type: 'DeleteReminder', reason: 'user', space: null }, state, now)).toThrow(
        notFound,
      );
      expect(() => decideReminder({ type: 'CompleteReminder', space: null }, state, now)).toThrow(notFound);
      expect(() =>
        decideReminder(
          { type: 'UpdateReminder', input: updateReminderSchema.parse({ title: 'Renew it' }), space: null },
          state,
          now,
        ),
      ).toThrow(notFound);
    }
  });
});
