import { NotFoundError, ServiceUnavailableError, ValidationError } from '@shiplog/errors';
import { type PushState, pushEndpointSchema, pushSubscriptionSchema } from '@shiplog/schemas';
import { parseInput, requireUserId, type ServiceContext } from '@shiplog/service-kit';
import type { Router } from 'express';
import type { PushSender } from '../adapters/web-push.ts';
import type { RemindersEnv } from '../env.ts';
import { pushSubscriptions } from './subscriptions.ts';

/**
 * Push reminders, per device (Settings › Notifications): the server's public key to subscribe with,
 * the user's devices, turning a device on and off, and a test notification to see it arrive. Without a
 * VAPID key (production, unset) the key reads null and turning a device on answers 503.
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

  function routes(router: Router) {
    router.get('/reminders/push', async (req, res) => {
      res.json(await stateOf(requireUserId(req)));
    });

    router.post('/reminders/push/subscriptions', async (req, res) => {
      const userId = requireUserId(req);
      const sender = requirePush();
      const input = parseInput(pushSubscriptionSchema, req.body);
      const refused = sender.refusalOf(input.endpoint);
      if (refused) throw new ValidationError({ endpoint: [refused] });
      await pushSubscriptions.save(pool, userId, input);
      res.status(201).json(await stateOf(userId));
    });

    router.delete('/reminders/push/subscriptions', async (req, res) => {
      const userId = requireUserId(req);
      const { endpoint } = parseInput(pushEndpointSchema, req.body);
      if (!(await pushSubscriptions.remove(pool, userId, endpoint)))
        throw new NotFoundError('No such device', 'PUSH_DEVICE_NOT_FOUND');
      res.json(await stateOf(userId));
    });

    // What a user presses to see a notification arrive now, on every device they turned push on (at most
    // MAX_PUSH_DEVICES, subscriptions.ts), a few at a time.
    router.post('/reminders/push/test', async (req, res) => {
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
    });
  }

  return { routes };
}
