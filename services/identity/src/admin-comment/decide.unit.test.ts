import { describe, expect, it } from 'vitest';
import type { AdminCommentCommand } from './decide.ts';
import { adminCommentDecider } from './decide.ts';

const now = new Date('2026-11-26T10:00:00.000Z');
const commentId = '0193a1b2-0000-7000-8000-000000000010';
const adminId = '0193a1b2-0000-7000-8000-000000000001';
const post: AdminCommentCommand = {
  type: 'PostAdminComment',
  commentId,
  message: 'Maintenance tonight',
  priority: 'high',
  expiresAt: null,
  adminId,
  adminUsername: 'admin',
};

const run = (commands: AdminCommentCommand[]) =>
  commands.reduce(
    ({ state, events }, command) => {
      const decided = adminCommentDecider.decide(command, state, now);
      return { state: decided.reduce(adminCommentDecider.evolve, state), events: [...events, ...decided] };
    },
    { state: adminCommentDecider.initialState(), events: [] as ReturnType<typeof adminCommentDecider.decide> },
  );

describe('admin comment decide', () => {
  it('posts once: the same post again decides nothing', () => {
    const { events } = run([post, post]);
    expect(events.map((e) => e.type)).toEqual(['AdminCommentPosted']);
    expect(events[0]!.data).toMatchObject({ commentId, message: 'Maintenance tonight', createdBy: adminId });
  });

  it('edits, deactivates and deletes, and records nothing for a change that changes nothing', () => {
    const { events } = run([
      post,
      { type: 'EditAdminComment', message: 'Maintenance tonight', priority: 'high', adminId },
      { type: 'EditAdminComment', message: 'Maintenance at 22:00', priority: 'urgent', adminId },
      { type: 'SetAdminCommentActive', isActive: false, adminId },
      { type: 'SetAdminCommentActive', isActive: false, adminId },
      { type: 'DeleteAdminComment', adminId },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'AdminCommentPosted',
      'AdminCommentEdited',
      'AdminCommentActivationChanged',
      'AdminCommentDeleted',
    ]);
  });

  it('answers 404 for a comment never posted or already deleted', () => {
    const deleted = run([post, { type: 'DeleteAdminComment', adminId }]).state;
    for (const state of [adminCommentDecider.initialState(), deleted])
      expect(() => adminCommentDecider.decide({ type: 'DeleteAdminComment', adminId }, state, now)).toThrow(
        expect.objectContaining({ status: 404, code: 'COMMENT_NOT_FOUND' }),
      );
  });
});
