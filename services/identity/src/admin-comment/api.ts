import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import {
  callerOf,
  createdId,
  handleCommand,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { IdentityEnv } from '../env.ts';
import { activeAdminComments, allAdminComments } from '../read-models/messages/index.ts';
import { type AdminComment, adminCommentStream } from './admin-comment.ts';
import { type AdminCommentCommand, adminCommentDecider } from './decide.ts';
import { adminCommentRoutes } from './routes.ts';

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
    const caller = callerOf(req);
    const result = await handleCommand(store, adminCommentStream(commentId), adminCommentDecider, command, {
      userId: requireUserId(req),
      correlationId: caller.correlationId,
      newStream: command.type === 'PostAdminComment',
      idempotencyKey,
      now: context.now(),
    });
    if (result.position) reportPosition(res, 'identity', result.position);
    return result.state;
  }

  function commentIdOf(req: Request): string {
    const id = req.params.id;
    if (!isId(id)) throw new NotFoundError('Comment not found', 'COMMENT_NOT_FOUND');
    return id;
  }

  return serveRoutes(adminCommentRoutes, {
    // Every signed-in user: the active, unexpired ones (spec/core.md §7).
    'GET /admin/comments': async (req, res) => {
      requireUserId(req);
      res.json(await activeAdminComments(pool));
    },

    'GET /admin/comments/all': async (_req, res) => {
      res.json(await allAdminComments(pool));
    },

    'POST /admin/comments': async (req, res, parsed) => {
      const caller = callerOf(req);
      const adminId = requireUserId(req);
      const input = parsed.body;
      const { id: commentId, idempotencyKey } = createdId(req, adminId, 'admin-comment');
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
          adminId,
          adminUsername: caller.username ?? 'admin',
        },
        idempotencyKey,
      );
      res.status(201).json(view(state));
    },

    // An edit ({ message, priority }) or the toggle ({ isActive }).
    'PUT /admin/comments/:id': async (req, res, parsed) => {
      const adminId = requireUserId(req);
      const input = parsed.body;
      const commentId = commentIdOf(req);
      let state: AdminComment | undefined;
      if (input.message !== undefined) {
        state = await run(req, res, commentId, {
          type: 'EditAdminComment',
          message: input.message,
          priority: input.priority ?? 'normal',
          adminId,
        });
      }
      if (input.isActive !== undefined) {
        state = await run(req, res, commentId, {
          type: 'SetAdminCommentActive',
          isActive: input.isActive,
          adminId,
        });
      }
      res.json(view(state!));
    },

    'DELETE /admin/comments/:id': async (req, res) => {
      await run(req, res, commentIdOf(req), { type: 'DeleteAdminComment', adminId: requireUserId(req) });
      res.status(204).end();
    },
  });
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
