import { NotFoundError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import { contactAdminSchema, contactMessageUpdateSchema } from '@shiplog/schemas';
import {
  callerOf,
  createdId,
  handleCommand,
  parseInput,
  reportPosition,
  requireAdmin,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { Router } from 'express';
import type { IdentityEnv } from '../env.ts';
import { contactMessages } from '../read-models/messages/index.ts';
import { contactMessageStream } from './contact-message.ts';
import { contactMessageDecider } from './decide.ts';

/** Contact Admin (spec/core.md §7) and the administrators' inbox that reads it. */
export function contactMessagesApi(context: ServiceContext<IdentityEnv>) {
  const { store, pool } = context;

  function routes(router: Router) {
    router.post('/contact-admin', async (req, res) => {
      const caller = callerOf(req);
      const userId = requireUserId(req);
      const { subject, message } = parseInput(contactAdminSchema, req.body);
      const { id: messageId, idempotencyKey } = createdId(req, userId, 'contact-message');
      const result = await handleCommand(
        store,
        contactMessageStream(messageId),
        contactMessageDecider,
        { type: 'SendContactMessage', messageId, userId, username: caller.username ?? '', subject, message },
        { userId, correlationId: caller.correlationId, newStream: true, idempotencyKey },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.status(201).json({ id: messageId, message: 'Your message has been sent to the admin successfully.' });
    });

    router.get('/admin/contact-messages', async (req, res) => {
      requireAdmin(req);
      res.json(await contactMessages(pool));
    });

    router.put('/admin/contact-messages/:id', async (req, res) => {
      const caller = requireAdmin(req);
      const { handled } = parseInput(contactMessageUpdateSchema, req.body);
      const messageId = req.params.id;
      if (!isId(messageId)) throw new NotFoundError('Message not found', 'MESSAGE_NOT_FOUND');
      const result = await handleCommand(
        store,
        contactMessageStream(messageId),
        contactMessageDecider,
        { type: 'MarkContactMessageHandled', handled, adminId: caller.userId },
        { userId: caller.userId, correlationId: caller.correlationId },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.json({ id: messageId, handled });
    });
  }

  return { routes };
}
