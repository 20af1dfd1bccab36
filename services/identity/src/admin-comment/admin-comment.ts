import type { EventOf } from '@shiplog/events';

/** An administrator's message to every user, folded from its `admin-comment-<id>` stream. */
export type AdminCommentEvent =
  | EventOf<'AdminCommentPosted'>
  | EventOf<'AdminCommentEdited'>
  | EventOf<'AdminCommentActivationChanged'>
  | EventOf<'AdminCommentDeleted'>;

type Priority = EventOf<'AdminCommentPosted'>['data']['priority'];

export type AdminComment =
  | { status: 'none' }
  | { status: 'deleted' }
  | {
      status: 'posted';
      commentId: string;
      message: string;
      priority: Priority;
      isActive: boolean;
      createdBy: string;
      adminUsername: string;
      expiresAt: string | null;
      createdAt: string;
      updatedAt: string;
    };

export const initialAdminComment = (): AdminComment => ({ status: 'none' });

export function evolveAdminComment(state: AdminComment, event: AdminCommentEvent): AdminComment {
  switch (event.type) {
    case 'AdminCommentPosted': {
      const { at, ...data } = event.data;
      return { status: 'posted', ...data, isActive: true, createdAt: at, updatedAt: at };
    }
    case 'AdminCommentEdited':
      return state.status === 'posted'
        ? { ...state, message: event.data.message, priority: event.data.priority, updatedAt: event.data.at }
        : state;
    case 'AdminCommentActivationChanged':
      return state.status === 'posted' ? { ...state, isActive: event.data.isActive, updatedAt: event.data.at } : state;
    case 'AdminCommentDeleted':
      return { status: 'deleted' };
  }
}

export const adminCommentStream = (commentId: string) => `admin-comment-${commentId}`;
