import { describe, expect, it } from 'vitest';
import { remindersEnv } from '../env.ts';
import { pushSenderFor } from './web-push.ts';

describe('push endpoints', () => {
  const senderWith = (env: Record<string, string>) =>
    pushSenderFor(remindersEnv.parse({ VAPID_PRIVATE_KEY: 'kJ0ZDk3VNOdDQx2CCtJ2PRfvYNQXd6dKfaDXIdOqF7w', ...env }));

  it('are taken by default only at the push services browsers subscribe with', async () => {
    const { push, close } = senderWith({});
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://eu.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGz',
      'https://api.push.apple.com/3/device/abc',
      'https://db5p.notify.windows.com/w/?token=abc',
    ])
      expect(push!.refusalOf(endpoint), endpoint).toBeNull();
    for (const endpoint of [
      'https://victim.example/hook',
      'https://fcm.googleapis.com.victim.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com.victim.example/x',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://127.0.0.1:4000/push/x',
    ])
      expect(push!.refusalOf(endpoint), endpoint).toMatch(/push service is not one Shiplog sends to/);
    await close();
  });

  it('are taken where PUSH_ALLOWED_HOSTS says instead, a host:port also on a private address', async () => {
    const { push, close } = senderWith({ PUSH_ALLOWED_HOSTS: '127.0.0.1:4000, *.push.example' });
    expect(push!.refusalOf('http://127.0.0.1:4000/push/x')).toBeNull();
    expect(push!.refusalOf('https://eu.push.example/x')).toBeNull();
    expect(push!.refusalOf('https://fcm.googleapis.com/fcm/send/abc')).toMatch(/not one Shiplog sends to/);
    await close();
  });

  it('refuses a PUSH_ALLOWED_HOSTS entry that is not a host', () => {
    expect(remindersEnv.safeParse({ PUSH_ALLOWED_HOSTS: 'https://fcm.googleapis.com/' }).success).toBe(false);
  });
});
