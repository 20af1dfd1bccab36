import { randomBytes, randomUUID } from 'node:crypto';
import { ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import type { Outbound } from '@shiplog/outbound';
import { type AlertChannelView, MAX_ALERT_CHANNELS, type MadeAlertChannel } from '@shiplog/schemas';
import {
  callerOf,
  createdId,
  handleCommand,
  loadAggregate,
  type Mailer,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request } from 'express';
import type { MonitorsEnv } from '../env.ts';
import { alertDeliveries, deliveryView } from '../reactions/alert-outbox/deliveries.ts';
import type { createAlertSender } from '../timers/send-alerts/index.ts';
import { type AlertChannel, alertChannelsStream } from './alert-channel.ts';
import { type AlertChannelCommand, AlertChannelNotFoundError, alertChannelsDecider } from './decide.ts';
import { alertChannelRoutes } from './routes.ts';
import { testMessage } from './webhooks.ts';

const viewOf = (channel: AlertChannel): AlertChannelView => ({
  id: channel.id,
  kind: channel.kind,
  name: channel.name,
  // Only the origin: a webhook URL's path is its credential (Slack's, Discord's) or names a topic.
  origin: new URL(channel.url).origin,
  createdAt: channel.createdAt,
});

/**
 * The caller's alert channels: add one (a generic webhook gets a signing secret, shown once), list,
 * remove, send a test through one at once, and read the delivery log of every alert sent.
 */
export function alertChannelsApi(
  context: ServiceContext<MonitorsEnv>,
  outbound: Outbound,
  sender: ReturnType<typeof createAlertSender>,
  mailer: Pick<Mailer, 'sends'>,
) {
  const { store, pool, config } = context;
  const load = async (userId: string) =>
    (await loadAggregate(store, alertChannelsStream(userId), alertChannelsDecider)).state;
  const run = (req: Request, command: AlertChannelCommand, idempotencyKey?: string) => {
    const caller = callerOf(req);
    return handleCommand(store, alertChannelsStream(command.userId), alertChannelsDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      idempotencyKey,
      retries: 3,
      now: context.now(),
    });
  };
  const channelId = (req: Request) => {
    const id = req.params.id;
    if (!isId(id)) throw new AlertChannelNotFoundError();
    return id;
  };

  return serveRoutes(alertChannelRoutes, {
    'GET /alert-channels/email': async (_req, res) => {
      res.json({ sends: mailer.sends });
    },

    'GET /alert-channels': async (req, res) => {
      const channels = await load(requireUserId(req));
      res.json([...channels.values()].map(viewOf));
    },

    'POST /alert-channels': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const input = parsed.body;
      // A private address is refused now, with the reason, rather than at every alert.
      const refused = await outbound.screen(new URL(input.url));
      if (refused) throw new ValidationError({ url: [refused] });
      const { id, idempotencyKey } = createdId(req, userId, 'alert-channel');
      const secret = input.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64url')}` : null;
      const { state } = await run(
        req,
        { type: 'AddChannel', userId, channelId: id, ...input, secret, allowed: MAX_ALERT_CHANNELS },
        idempotencyKey,
      );
      const channel = state.get(id);
      if (!channel) throw new AlertChannelNotFoundError();
      const made: MadeAlertChannel = { ...viewOf(channel), signingSecret: channel.secret };
      res.status(201).json(made);
    },

    'DELETE /alert-channels/:id': async (req, res) => {
      await run(req, { type: 'RemoveChannel', userId: requireUserId(req), channelId: channelId(req) });
      res.status(204).end();
    },

    // A test alert through the channel, now: its answer is the delivery, sent or failed (no retries).
    'POST /alert-channels/:id/test': async (req, res) => {
      const userId = requireUserId(req);
      const channels = await load(userId);
      const channel = channels.get(channelId(req));
      if (!channel) throw new AlertChannelNotFoundError();
      const now = context.now();
      const message = testMessage(randomUUID(), channel.name, config.APP_URL, now);
      const delivery = await alertDeliveries.queueTest(pool, {
        channelId: channel.id,
        userId,
        channelName: channel.name,
        message,
        at: now,
      });
      res.json(deliveryView(await sender.attempt(delivery, channels, now, 1)));
    },

    'GET /alert-channels/deliveries': async (req, res) => {
      const deliveries = await alertDeliveries.recent(pool, requireUserId(req));
      res.json(deliveries.map(deliveryView));
    },
  });
}
