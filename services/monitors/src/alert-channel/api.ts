import { randomBytes, randomUUID } from 'node:crypto';
import { ForbiddenError, NotFoundError, ValidationError } from '@shiplog/errors';
import { isId } from '@shiplog/events';
import type { Outbound } from '@shiplog/outbound';
import {
  type AlertChannelView,
  type CreateAlertChannelInput,
  MAX_ALERT_CHANNELS,
  type MadeAlertChannel,
  roleAtLeast,
  type WorkspaceRole,
} from '@shiplog/schemas';
import {
  callerOf,
  catchUp,
  createdId,
  handleCommand,
  loadAggregate,
  type Mailer,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import type { MonitorsEnv } from '../env.ts';
import { alertDeliveries, deliveryView } from '../reactions/alert-outbox/deliveries.ts';
import { knownProjects } from '../read-models/known-projects/index.ts';
import type { createAlertSender } from '../timers/send-alerts/index.ts';
import { type AlertChannel, alertChannelsStream } from './alert-channel.ts';
import { alertMail } from './alert-mail.ts';
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
 * Alert channels, the caller's own and a team workspace's (its owners' and admins' to keep): add one
 * (a generic webhook gets a signing secret, shown once), list, remove, send a test through one at
 * once, and read the delivery log of every alert sent. A channel's stream is its owner's: a user's id
 * or a workspace's.
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
      // Kept on a team's channel's event only (it names the workspace): its audit log shows it.
      address: caller.address,
      correlationId: caller.correlationId,
      idempotencyKey,
      retries: 3,
      now: context.now(),
    });
  };
  const idOf = (value: unknown) => {
    if (!isId(value)) throw new AlertChannelNotFoundError();
    return value;
  };

  /**
   * The workspace the path names, as the owner of its channels, when the caller is one of its owners
   * or admins: anyone else not a member finds nothing (404), a member or viewer is refused (403).
   */
  async function workspaceOwner(req: Request): Promise<string> {
    return workspaceWhere(req, 'admin');
  }

  /** The workspace the path names when the caller is a member with at least `least` (404 for anyone else). */
  async function workspaceWhere(req: Request, least: WorkspaceRole): Promise<string> {
    const workspaceId = req.params.id;
    const notFound = () => new NotFoundError('Workspace not found', 'WORKSPACE_NOT_FOUND');
    if (!isId(workspaceId)) throw notFound();
    await catchUp(req);
    const role = await knownProjects.members.roleIn(pool, workspaceId, requireUserId(req));
    if (!role) throw notFound();
    if (!roleAtLeast(role, least))
      throw new ForbiddenError('Only the workspace’s owners and admins can change where its alerts go.');
    return workspaceId;
  }

  /** The channels of `owner` (a user, or a team workspace): each handler below, for either. */
  const handlersFor = (ownerOf: (req: Request) => Promise<string>, channelParam: string, team: boolean) => ({
    list: async (req: Request, res: Response) => {
      const channels = await load(await ownerOf(req));
      res.json([...channels.values()].map(viewOf));
    },
    // The body is read once the caller may add: one who may not learns nothing of it.
    add: async (req: Request, res: Response, body: () => CreateAlertChannelInput) => {
      const owner = await ownerOf(req);
      const input = body();
      // A private address is refused now, with the reason, rather than at every alert.
      const refused = await outbound.screen(new URL(input.url));
      if (refused) throw new ValidationError({ url: [refused] });
      const { id, idempotencyKey } = createdId(req, owner, 'alert-channel');
      const secret = input.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64url')}` : null;
      const { state } = await run(
        req,
        { type: 'AddChannel', userId: owner, channelId: id, ...input, secret, allowed: MAX_ALERT_CHANNELS, team },
        idempotencyKey,
      );
      const channel = state.get(id);
      if (!channel) throw new AlertChannelNotFoundError();
      const made: MadeAlertChannel = { ...viewOf(channel), signingSecret: channel.secret };
      res.status(201).json(made);
    },
    remove: async (req: Request, res: Response) => {
      const owner = await ownerOf(req);
      await run(req, { type: 'RemoveChannel', userId: owner, channelId: idOf(req.params[channelParam]), team });
      res.status(204).end();
    },
    // A test alert through the channel, now: its answer is the delivery, sent or failed (no retries).
    test: async (req: Request, res: Response) => {
      const owner = await ownerOf(req);
      const channels = await load(owner);
      const channel = channels.get(idOf(req.params[channelParam]));
      if (!channel) throw new AlertChannelNotFoundError();
      const now = context.now();
      const message = testMessage(randomUUID(), channel.name, config.APP_URL, now);
      const delivery = await alertDeliveries.queueTest(pool, {
        channelId: channel.id,
        userId: owner,
        channelName: channel.name,
        message,
        at: now,
      });
      res.json(deliveryView(await sender.attempt(delivery, channels, now, 1)));
    },
    deliveries: async (req: Request, res: Response) => {
      const deliveries = await alertDeliveries.recent(pool, await ownerOf(req));
      res.json(deliveries.map(deliveryView));
    },
  });
  const own = handlersFor(async (req) => requireUserId(req), 'id', false);
  const team = handlersFor(workspaceOwner, 'channelId', true);

  return serveRoutes(alertChannelRoutes, {
    'GET /alert-channels/email': async (_req, res) => {
      res.json({ sends: mailer.sends });
    },

    'GET /alert-channels': own.list,

    'POST /alert-channels': (req, res, parsed) => own.add(req, res, () => parsed.body),
    'DELETE /alert-channels/:id': own.remove,
    'POST /alert-channels/:id/test': own.test,
    'GET /alert-channels/deliveries': own.deliveries,

    'GET /workspaces/:id/alert-channels': team.list,
    'POST /workspaces/:id/alert-channels': (req, res, parsed) => team.add(req, res, () => parsed.body),
    'DELETE /workspaces/:id/alert-channels/:channelId': team.remove,
    'POST /workspaces/:id/alert-channels/:channelId/test': team.test,
    'GET /workspaces/:id/alert-channels/deliveries': team.deliveries,

    'GET /workspaces/:id/alert-mail': async (req, res) => {
      const workspaceId = await workspaceWhere(req, 'viewer');
      res.json({ mail: await alertMail.isOn(pool, workspaceId, requireUserId(req)) });
    },
    'PUT /workspaces/:id/alert-mail': async (req, res, parsed) => {
      const workspaceId = await workspaceWhere(req, 'viewer');
      const { mail } = parsed.body;
      await alertMail.set(pool, workspaceId, requireUserId(req), mail);
      res.json({ mail });
    },
  });
}
