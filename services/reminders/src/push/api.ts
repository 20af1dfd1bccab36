import { NotFoundError, ServiceUnavailableError, ValidationError } from '@shiplog/errors';
import type { PushState } from '@shiplog/schemas';
import { parseInput, requireUserId, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import { z } from 'zod';
import type { PushSender } from '../adapters/web-push.ts';
import type { RemindersEnv } from '../env.ts';
import { pushRoutes } from './routes.ts';
import { pushSubscriptions } from './subscriptions.ts';

/** A session as the gateway names it to services: the public handle of its id (`sessionHandle`). */
const sessionSchema = z.object({
  session: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Session must be a session handle'),
});

/**
 * Push reminders, per device (Settings › Notifications): the server's public key to subscribe with,
 * the user's devices, turning a device on (in a session) and off, the devices of a session that ended
 * going with it, and a test notification to see it arrive. Without a VAPID key (production, unset) the
 * key reads null and turning a device on answers 503.
 */
export function pushApi(context: ServiceContext<RemindersEnv>, push: PushSender | null) {
  const { pool } = context;
  const stateOf = async (userId: string): Promise<PushState> => ({
    publicKey: push?.publicKey ?? null,
    devices: await pushSubscriptions.listOf(pool, userId),
  });
  const requirePush = (): PushSender => {
    if (!push) throw new ServiceUnavailableError('Push reminders are not set up on this server', 'PUSH_NOT_CONFIGURED');
    return push;
  };

  return serveRoutes(pushRoutes, {
    'GET /reminders/push': async (req, res) => {
      res.json(await stateOf(requireUserId(req)));
    },

    // Turning push on in the session the gateway names (`POST /api/reminders/push/subscriptions` is the
    // gateway's: it adds the session, which the browser cannot be trusted to say).
    'POST /sessions/:session/push-subscriptions': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const sender = requirePush();
      const { session } = parseInput(sessionSchema, req.params);
      const input = parsed.body;
      const refused = sender.refusalOf(input.endpoint);
      if (refused) throw new ValidationError({ endpoint: [refused] });
      await pushSubscriptions.save(pool, userId, session, input);
      res.status(201).json(await stateOf(userId));
    },

    // The session ended (the gateway's push-devices sweep): its devices get no more of the user's reminders.
    'DELETE /sessions/:session/push-subscriptions': async (req, res) => {
      const userId = requireUserId(req);
      const { session } = parseInput(sessionSchema, req.params);
      await pushSubscriptions.endSession(pool, userId, session);
      res.status(204).end();
    },

    'DELETE /reminders/push/subscriptions': async (req, res, parsed) => {
      const userId = requireUserId(req);
      const { endpoint } = parsed.body;
      if (!(await pushSubscriptions.remove(pool, userId, endpoint)))
        throw new NotFoundError('No such device', 'PUSH_DEVICE_NOT_FOUND');
      res.json(await stateOf(userId));
    },

    // What a user presses to see a notification arrive now, on every device they turned push on (at most
    // MAX_PUSH_DEVICES, subscriptions.ts), a few at a time.
    'POST /reminders/push/test': async (req, res) => {
      const userId = requireUserId(req);
      const sender = requirePush();
      const devices = await pushSubscriptions.devicesOf(pool, userId);
      if (devices.length === 0) throw new NotFoundError('No device has push reminders on', 'PUSH_DEVICE_NOT_FOUND');
      const appUrl = context.config.APP_URL.replace(/\/$/, '');
      const outcomes = await sender.sendToEach(devices, {
        title: 'Shiplog',
        body: 'Push reminders reach this device.',
        url: `${appUrl}/settings`,
        tag: 'shiplog-test',
      });
      await Promise.all(
        devices.map((device, index) =>
          outcomes[index]!.outcome === 'gone' ? pushSubscriptions.forget(pool, device.endpoint) : undefined,
        ),
      );
      res.json({ sent: outcomes.filter((o) => o.outcome === 'sent').length, devices: devices.length });
    },
  });
}
