import { NotFoundError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import { type AdminComment, type AdminCommentEvent, evolveAdminComment, initialAdminComment } from './admin-comment.ts';

type Priority = Extract<AdminComment, { status: 'posted' }>['priority'];

export type AdminCommentCommand =
  | {
      type: 'PostAdminComment';
      commentId: string;
      message: string;
      priority: Priority;
      expiresAt: string | null;
      adminId: string;
      adminUsername: string;
    }
  | { type: 'EditAdminComment'; message: string; priority: Priority; adminId: string }
  | { type: 'SetAdminCommentActive'; isActive: boolean; adminId: string }
  | { type: 'DeleteAdminComment'; adminId: string };

const notFound = () => new NotFoundError('Comment not found', 'COMMENT_NOT_FOUND');

export function decideAdminComment(command: AdminCommentCommand, state: AdminComment, now: Date): AdminCommentEvent[] {
  const at = now.toISOString();
  if (command.type === 'PostAdminComment') {
    if (state.status !== 'none') return [];
    const { commentId, message, priority, expiresAt, adminId, adminUsername } = command;
    return [
      {
        type: 'AdminCommentPosted',
        data: { commentId, message, priority, createdBy: adminId, adminUsername, expiresAt, at },
      },
    ];
  }
  if (state.status !== 'posted') throw notFound();
  const { commentId } = state;
  switch (command.type) {
    case 'EditAdminComment':
      if (command.message === state.message && command.priority === state.priority) return [];
      return [
        {
          type: 'AdminCommentEdited',
          data: { commentId, message: command.message, priority: command.priority, editedBy: command.adminId, at },
        },
      ];
    case 'SetAdminCommentActive':
      if (command.isActive === state.isActive) return [];
      return [
        {
          type: 'AdminCommentActivationChanged',
          data: { commentId, isActive: command.isActive, changedBy: command.adminId, at },
        },
      ];
    case 'DeleteAdminComment':
      return [{ type: 'AdminCommentDeleted', data: { commentId, deletedBy: command.adminId, at } }];
  }
}

export const adminCommentDecider: Decider<AdminComment, AdminCommentCommand, AdminCommentEvent> = {
  initialState: initialAdminComment,
  evolve: evolveAdminComment,
  decide: decideAdminComment,
};
