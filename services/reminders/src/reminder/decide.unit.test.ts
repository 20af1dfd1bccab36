import { createReminderSchema, importedReminderSchema, updateReminderSchema } from '@shiplog/schemas';
import { describe, expect, it } from 'vitest';
import { decideReminder } from './decide.ts';
import { evolveReminder, initialReminder, type Reminder } from './reminder.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const owner = '0193a1b2-0000-7000-8000-00000000000a';
const stranger = '0193a1b2-0000-7000-8000-00000000000b';
const reminderId = '0193a1b2-0000-7000-8000-00000000000c';
const project = { id: '0193a1b2-0000-7000-8000-00000000000d', userId: owner, name: 'Launchpad' };

function added(): Reminder {
  const input = createReminderSchema.parse({
    projectId: project.id,
    title: 'Renew domain',
    dueDate: '2026-12-01T12:00:00.000Z',
  });
  return decideReminder(
    { type: 'AddReminder', reminderId, userId: owner, project, input },
    initialReminder(),
    now,
  ).reduce(evolveReminder, initialReminder());
}

describe('reminder decide', () => {
  it('imports a reminder as it stood, its sends kept, for one of the user’s projects, once', () => {
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
    const command = { type: 'ImportReminder' as const, reminderId, userId: owner, project, input };
    expect(() => decideReminder({ ...command, project: null }, initialReminder(), now)).toThrow('Project not found');
    expect(() => decideReminder({ ...command, userId: stranger }, initialReminder(), now)).toThrow('Project not found');
    const state = decideReminder(command, initialReminder(), now).reduce(evolveReminder, initialReminder());
    expect(state).toMatchObject({
      lifecycle: 'active',
      projectName: 'Launchpad',
      emailsSent: { '1_day_before@2026-12-01T12:00:00.000Z': '2026-11-30T12:00:05.000Z' },
      createdAt: '2026-11-01T09:00:00.000Z',
    });
    // The send it already made is not made again.
    expect(decideReminder({ type: 'ProcessDue', channel: 'email' }, state, new Date('2026-12-01T11:00:00Z'))).toEqual(
      [],
    );
    expect(decideReminder(command, state, now)).toEqual([]);
  });

  it("adds only to the user's own, existing project", () => {
    const input = createReminderSchema.parse({ projectId: project.id, title: 'Renew domain', dueDate: '2026-12-01' });
    expect(() =>
      decideReminder({ type: 'AddReminder', reminderId, userId: stranger, project, input }, initialReminder(), now),
    ).toThrow('Project not found');
    expect(() =>
      decideReminder({ type: 'AddReminder', reminderId, userId: owner, project: null, input }, initialReminder(), now),
    ).toThrow('Project not found');
    expect(added()).toMatchObject({
      lifecycle: 'active',
      reminderTimes: ['1_day_before'],
      frequency: 'once',
      isCompleted: false,
      projectName: 'Launchpad',
    });
  });

  it('completes and reactivates once each; the edit box does the same', () => {
    const state = added();
    const completed = decideReminder({ type: 'CompleteReminder', userId: owner }, state, now);
    expect(completed.map((e) => e.type)).toEqual(['ReminderCompleted']);
    const done = completed.reduce(evolveReminder, state);
    expect(decideReminder({ type: 'CompleteReminder', userId: owner }, done, now)).toEqual([]);
    expect(
      decideReminder(
        {
          type: 'UpdateReminder',
          userId: owner,
          input: updateReminderSchema.parse({ isCompleted: false, title: 'Renew it' }),
        },
        done,
        now,
      ).map((e) => e.type),
    ).toEqual(['ReminderUpdated', 'ReminderReactivated']);
  });

  it("answers 404 for someone else's reminder", () => {
    expect(() => decideReminder({ type: 'DeleteReminder', userId: stranger, reason: 'user' }, added(), now)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });
});
