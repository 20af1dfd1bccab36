import { createECDH } from 'node:crypto';
import { hostAllowList, Outbound, PerKeyGate } from '@shiplog/outbound';
import { devSecret, type Metrics } from '@shiplog/service-kit';
import webpush from 'web-push';
import type { RemindersEnv } from '../env.ts';
import type { PushDevice } from '../push/subscriptions.ts';

/** What a push reminder shows, and where tapping it goes (the service worker reads this: web/public/sw.js). */
export interface PushMessage {
  title: string;
  body: string;
  /** The one-tap completion link, as in the email. */
  url: string;
  /** One notification per reminder on the device: a later send replaces the earlier one. */
  tag: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The server's VAPID key pair from its private key (32 bytes, base64url: VAPID_PRIVATE_KEY, or a
 * development secret generated at first start): the public half is what browsers subscribe with.
 */
export function vapidKeysOf(privateKey: string, subject: string): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey, subject };
}

/** `sent`; `gone`: the push service no longer knows the subscription (404, 410), so it is to be forgotten. */
export type PushOutcome = { outcome: 'sent' } | { outcome: 'gone' } | { outcome: 'failed'; status: number };

export type PushSender = ReturnType<typeof createPushSender>;

/**
 * One send's pushes at once, and to one push service's host at once: a user's devices are reached
 * together, but a slow push service holds only its own share of them, never the process's connections.
 */
export const PUSHES_AT_ONCE = 4;
export const PUSHES_PER_HOST = 2;

/**
 * Web Push (RFC 8030) with the `web-push` library's message encryption (aes128gcm, RFC 8291) and VAPID
 * signature (RFC 8292), sent through `libs/outbound`: a subscription's endpoint comes from a browser
 * the user controls, so it is an address a user typed. It must be at one of the push services the
 * browsers use (`allowed`, PUSH_ALLOWED_HOSTS), and never reaches inside Shiplog's network.
 */
export function createPushSender(vapid: VapidKeys, outbound: Outbound, allowed: ReturnType<typeof hostAllowList>) {
  async function send(device: PushDevice, message: PushMessage, topic?: string): Promise<PushOutcome> {
    const request = webpush.generateRequestDetails(device, JSON.stringify(message), {
      vapidDetails: vapid,
      // A reminder a day late is still worth having; after that the next one is on its way.
      TTL: 24 * 60 * 60,
      urgency: 'high',
      // Pushes waiting for an offline device with the same topic collapse into the latest.
      ...(topic ? { topic } : {}),
    });
    const target = new URL(request.endpoint);
    // Saved before the allow-list changed: refused without a request.
    if (!allowed.allows(target)) return { outcome: 'gone' };
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const answer = await outbound.post(target, headers, request.body);
    if (answer.status === 404 || answer.status === 410) return { outcome: 'gone' };
    if (answer.status >= 200 && answer.status < 300) return { outcome: 'sent' };
    return { outcome: 'failed', status: answer.status };
  }

  return {
    publicKey: vapid.publicKey,
    /** Why an endpoint could not be pushed to (not a browser's push service, a private address), or null. */
    refusalOf(endpoint: string): string | null {
      const target = new URL(endpoint);
      if (!allowed.allows(target))
        return 'This browser’s push service is not one Shiplog sends to: turn push reminders on in Chrome, Firefox, Safari or Edge';
      return outbound.refusalOf(target);
    },
    send,
    /**
     * The same push to each device, `PUSHES_AT_ONCE` at a time and `PUSHES_PER_HOST` per push service;
     * each device's outcome in order (a request that failed outright is `failed` with status 0).
     */
    async sendToEach(devices: PushDevice[], message: PushMessage, topic?: string): Promise<PushOutcome[]> {
      // A device waits for its push service's turn before it takes one of the send's places.
      const perHost = new PerKeyGate(PUSHES_PER_HOST);
      const atOnce = new PerKeyGate(PUSHES_AT_ONCE);
      return Promise.all(
        devices.map((device) =>
          perHost.run(new URL(device.endpoint).host, () =>
            atOnce.run('', () =>
              send(device, message, topic).catch((): PushOutcome => ({ outcome: 'failed', status: 0 })),
            ),
          ),
        ),
      );
    },
  };
}

/**
 * The service's push sender from its configuration: the configured VAPID key, or outside production
 * one generated at first start; none in production without a key (push is off). `close` ends its
 * connections.
 */
export function pushSenderFor(
  config: Pick<RemindersEnv, 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'PUSH_ALLOWED_HOSTS' | 'NODE_ENV' | 'APP_URL'>,
  metrics?: Pick<Metrics, 'outbound'>,
): { push: PushSender | null; close: () => Promise<void> } {
  const key =
    config.VAPID_PRIVATE_KEY ?? (config.NODE_ENV === 'production' ? undefined : devSecret('VAPID_PRIVATE_KEY'));
  if (!key) return { push: null, close: async () => {} };
  const subject =
    config.VAPID_SUBJECT ??
    (config.APP_URL.startsWith('https://') ? config.APP_URL : 'mailto:reminders@shiplog.invalid');
  const allowed = hostAllowList(config.PUSH_ALLOWED_HOSTS);
  const outbound = new Outbound({
    allowedHosts: allowed.exempt,
    timeoutMs: 10_000,
    maxBytes: 64 * 1024,
    observe: (outcome) => metrics?.outbound('push', outcome),
  });
  return { push: createPushSender(vapidKeysOf(key, subject), outbound, allowed), close: () => outbound.close() };
}
