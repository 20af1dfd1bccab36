import { ForbiddenError } from '@shiplog/errors';
import { newId } from '@shiplog/events';
import { adminCommentSchema, contactAdminSchema } from '@shiplog/schemas';
import {
  callerOf,
  metadataFor,
  parseInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Router } from 'express';
import type { IdentityEnv } from '../env.ts';
import { activeAdminComments } from '../read-models/messages.ts';

/**
 * Messages between administrators and users. Each message is its own fact in its own stream
 * (nothing to decide against), appended with "no stream" so a retried request cannot post it twice.
 */
export function messagesApi(context: ServiceContext<IdentityEnv>) {
  const { store, pool } = context;

  function routes(router: Router) {
    router.get('/admin/comments', async (req, res) => {
      requireUserId(req);
      res.json(await activeAdminComments(pool));
    });

    // The admin dashboard's create call; listing all, editing and deleting come with that dashboard.
    router.post('/admin/comments', async (req, res) => {
      const caller = callerOf(req);
      const userId = requireUserId(req);
      if (!caller.isAdmin) throw new ForbiddenError('Only administrators can post messages', 'ADMIN_REQUIRED');
      const input = parseInput(adminCommentSchema, req.body);
      const commentId = newId();
      const at = new Date().toISOString();
      const data = {
        commentId,
        message: input.message,
        priority: input.priority,
        createdBy: userId,
        adminUsername: caller.username ?? 'admin',
        expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
        at,
      };
      const appended = await store.append(
        `admin-comment-${commentId}`,
        [
          {
            id: newId(),
            type: 'AdminCommentPosted',
            data,
            metadata: metadataFor({ userId, correlationId: caller.correlationId }, 'AdminCommentPosted'),
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      reportPosition(res, 'identity', appended.position);
      res.status(201).json({
        id: commentId,
        message: data.message,
        priority: data.priority,
        createdAt: at,
        adminUsername: data.adminUsername,
        isActive: true,
      });
    });

    router.post('/contact-admin', async (req, res) => {
      const caller = callerOf(req);
      const userId = requireUserId(req);
      const { subject, message } = parseInput(contactAdminSchema, req.body);
      const messageId = newId();
      const appended = await store.append(
        `contact-${messageId}`,
        [
          {
            id: newId(),
            type: 'ContactMessageSent',
            data: {
              messageId,
              userId,
              username: caller.username ?? '',
              subject,
              message,
              at: new Date().toISOString(),
            },
            metadata: metadataFor({ userId, correlationId: caller.correlationId }, 'ContactMessageSent'),
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      reportPosition(res, 'identity', appended.position);
      res.status(201).json({ id: messageId, message: 'Your message has been sent to the admin successfully.' });
    });
  }

  return { routes };
}
