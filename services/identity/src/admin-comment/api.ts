import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { adminCommentSchema, adminCommentUpdateSchema } from '@shiplog/schemas';
import {
  createdId,
  handleCommand,
  parseInput,
  reportPosition,
  requireAdmin,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Request, Response, Router } from 'express';
import type { IdentityEnv } from '../env.ts';
import { activeAdminComments, allAdminComments } from '../read-models/messages/index.ts';
import { type AdminComment, adminCommentStream } from './admin-comment.ts';
import { type AdminCommentCommand, adminCommentDecider } from './decide.ts';

/** Administrators' messages to every user: the sidebar reads the active ones, the admin dashboard all. */
export function adminCommentsApi(context: ServiceContext<IdentityEnv>) {
  const { store, pool } = context;

  async function run(
    req: Request,
    res: Response,
    commentId: string,
    command: AdminCommentCommand,
    idempotencyKey?: string,
  ) {
    const caller = requireAdmin(req);
    const result = await handleCommand(store, adminCommentStream(commentId), adminCommentDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      newStream: command.type === 'PostAdminComment',
      idempotencyKey,
    });
    if (result.position) reportPosition(res, 'identity', result.position);
    return result.state;
  }

  function commentIdOf(req: Request): string {
    const id = req.params.id;
    if (!isId(id)) throw new NotFoundError('Comment not found', 'COMMENT_NOT_FOUND');
    return id;
  }

  function routes(router: Router) {
    // Every signed-in user: the active, unexpired ones (spec/core.md §7).
    router.get('/admin/comments', async (req, res) => {
      requireUserId(req);
      res.json(await activeAdminComments(pool));
    });

    router.get('/admin/comments/all', async (req, res) => {
      requireAdmin(req);
      res.json(await allAdminComments(pool));
    });

    router.post('/admin/comments', async (req, res) => {
      const caller = requireAdmin(req);
      const input = parseInput(adminCommentSchema, req.body);
      const { id: commentId, idempotencyKey } = createdId(req, caller.userId, 'admin-comment');
      const state = await run(
        req,
        res,
        commentId,
        {
          type: 'PostAdminComment',
          commentId,
          message: input.message,
          priority: input.priority,
          expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
          adminId: caller.userId,
          adminUsername: caller.username ?? 'admin',
        },
        idempotencyKey,
      );
      res.status(201).json(view(state));
    });

    // An edit ({ message, priority }) or the toggle ({ isActive }).
    router.put('/admin/comments/:id', async (req, res) => {
      const caller = requireAdmin(req);
      const input = parseInput(adminCommentUpdateSchema, req.body);
      const commentId = commentIdOf(req);
      let state: AdminComment | undefined;
      if (input.message !== undefined) {
        state = await run(req, res, commentId, {
          type: 'EditAdminComment',
          message: input.message,
          priority: input.priority ?? 'normal',
          adminId: caller.userId,
        });
      }
      if (input.isActive !== undefined) {
        state = await run(req, res, commentId, {
          type: 'SetAdminCommentActive',
          isActive: input.isActive,
          adminId: caller.userId,
        });
      }
      res.json(view(state!));
    });

    router.delete('/admin/comments/:id', async (req, res) => {
      const caller = requireAdmin(req);
      await run(req, res, commentIdOf(req), { type: 'DeleteAdminComment', adminId: caller.userId });
      res.status(204).end();
    });
  }

  return { routes };
}

function view(state: AdminComment) {
  if (state.status !== 'posted') throw new NotFoundError('Comment not found', 'COMMENT_NOT_FOUND');
  return {
    id: state.commentId,
    message: state.message,
    priority: state.priority,
    isActive: state.isActive,
    createdBy: state.createdBy,
    adminUsername: state.adminUsername,
    expiresAt: state.expiresAt,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}
