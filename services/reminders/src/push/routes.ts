import { pushEndpointSchema, pushSubscriptionSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** What Settings › Notifications reads: the server's VAPID public key (null: push is off here), and the devices. */
const pushState = z.object({
  publicKey: z.string().nullable(),
  devices: z.array(z.object({ label: z.string(), createdAt: z.string() })),
});

/** Push reminders, per device (answered in `api.ts`). */
export const pushRoutes = declareRoutes({
  'GET /reminders/push': {
    tag: 'Reminders',
    summary: 'Push reminders: the server’s public key and the user’s devices',
    access: 'user',
    answer: pushState,
  },
  // For the gateway's `POST /api/reminders/push/subscriptions`, which adds the session.
  'POST /sessions/:session/push-subscriptions': {
    summary: 'Turn push reminders on for a device, in the session the gateway names: the push state',
    access: 'user',
    internal: true,
    body: pushSubscriptionSchema,
    status: 201,
    answer: pushState,
  },
  // The session ended (the gateway's push-devices sweep).
  'DELETE /sessions/:session/push-subscriptions': {
    summary: 'The session ended: its devices get no more of the user’s reminders',
    access: 'user',
    internal: true,
    status: 204,
  },
  'DELETE /reminders/push/subscriptions': {
    tag: 'Reminders',
    summary: 'Turn push reminders off for a device',
    access: 'user',
    body: pushEndpointSchema,
    answer: pushState,
  },
  // A push service call to each device.
  'POST /reminders/push/test': {
    tag: 'Reminders',
    summary: 'Send a test push to each of the user’s devices',
    access: 'user',
    limit: 'pushTest',
    answer: z.object({ sent: z.number(), devices: z.number() }),
  },
});
