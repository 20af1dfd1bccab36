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
import type { IdentityEnv } from '../env.ts';
import { contactMessages } from '../read-models/messages/index.ts';
import { contactMessageStream } from './contact-message.ts';
import { contactMessageDecider } from './decide.ts';
import { contactMessageRoutes } from './routes.ts';

/** Contact Admin (spec/core.md §7) and the administrators' inbox that reads it. */
export function contactMessagesApi(context: ServiceContext<IdentityEnv>) {
  const { store, pool, now } = context;

  return serveRoutes(contactMessageRoutes, {
    'POST /contact-admin': async (req, res, parsed) => {
      const caller = callerOf(req);
      const userId = requireUserId(req);
      const { subject, message } = parsed.body;
      const { id: messageId, idempotencyKey } = createdId(req, userId, 'contact-message');
      const result = await handleCommand(
        store,
        contactMessageStream(messageId),
        contactMessageDecider,
        { type: 'SendContactMessage', messageId, userId, username: caller.username ?? '', subject, message },
        { userId, correlationId: caller.correlationId, newStream: true, idempotencyKey, now: now() },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.status(201).json({ id: messageId, message: 'Your message has been sent to the admin successfully.' });
    },

    'GET /admin/contact-messages': async (_req, res) => {
      res.json(await contactMessages(pool));
    },

    'PUT /admin/contact-messages/:id': async (req, res, parsed) => {
      const caller = callerOf(req);
      const adminId = requireUserId(req);
      const { handled } = parsed.body;
      const messageId = req.params.id;
      if (!isId(messageId)) throw new NotFoundError('Message not found', 'MESSAGE_NOT_FOUND');
      const result = await handleCommand(
        store,
        contactMessageStream(messageId),
        contactMessageDecider,
        { type: 'MarkContactMessageHandled', handled, adminId },
        { userId: adminId, correlationId: caller.correlationId, now: now() },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.json({ id: messageId, handled });
    },
  });
}
