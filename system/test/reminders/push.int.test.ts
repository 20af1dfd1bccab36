import { MAX_PUSH_DEVICES } from '@shiplog/reminders/push-subscriptions';
import { PUSHES_AT_ONCE, PUSHES_PER_HOST } from '@shiplog/reminders/web-push';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type PushStandIn, startPushStandIn } from '@shiplog/testing/push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What keeps push reminders from being turned against someone else: endpoints only at the push
 * services allowed, a few devices per user, a few pushes at once per send and per push service.
 * Two push services, so that one can be slow while the other answers.
 */
let backend: Backend;
let fast: PushStandIn;
let slow: PushStandIn;

beforeAll(async () => {
  [fast, slow] = await Promise.all([startPushStandIn(), startPushStandIn()]);
  backend = await startBackend({
    env: {
      VAPID_PRIVATE_KEY: 'kJ0ZDk3VNOdDQx2CCtJ2PRfvYNQXd6dKfaDXIdOqF7w',
      VAPID_SUBJECT: 'mailto:ops@shiplog.test',
      PUSH_ALLOWED_HOSTS: `${fast.host},${slow.host}`,
    },
  });
});
afterAll(async () => {
  await backend?.stop();
  await Promise.all([fast?.stop(), slow?.stop()]);
});

async function signUp(): Promise<Client> {
  return (await account()).client;
}

/** A new account, signed in; `signIn` opens another session of it (at `url`: another gateway replica). */
async function account() {
  const username = uniqueUsername('push');
  const client = new Client(backend.url);
  const registered = await client.post('/api/register', { username, password: 'secret-pass-1' });
  expect(registered.status).toBe(201);
  return {
    client,
    async signIn(url = backend.url, password = 'secret-pass-1') {
      const session = new Client(url);
      expect((await session.post('/api/login', { username, password })).status).toBe(200);
      return session;
    },
  };
}

/** The devices the user has push on, by label, as any of their sessions reads them. */
async function labels(client: Client): Promise<string[]> {
  const { body } = await client.get('/api/reminders/push');
  return body.devices.map((device: { label: string }) => device.label).sort();
}

async function turnOn(client: Client, label: string, service = fast) {
  const on = await client.post('/api/reminders/push/subscriptions', { ...service.subscribe(), label });
  expect(on.status).toBe(201);
}

describe('push devices', () => {
  it('takes endpoints only at the push services allowed, with a message that says why', async () => {
    const client = await signUp();
    for (const endpoint of [
      // Any public host: what would make Shiplog post to a victim.
      'https://victim.example/push/x',
      'https://fcm.googleapis.com.victim.example/push/x',
      // An allowed host on another port is another service.
      'http://127.0.0.1:1/push/x',
    ]) {
      const refused = await client.post('/api/reminders/push/subscriptions', { ...fast.subscribe(), endpoint });
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        fieldErrors: { endpoint: [expect.stringContaining('push service is not one Shiplog sends to')] },
      });
    }
    expect((await client.get('/api/reminders/push')).body.devices).toEqual([]);
    expect((await client.post('/api/reminders/push/subscriptions', fast.subscribe())).status).toBe(201);
  });

  it(`keeps ${MAX_PUSH_DEVICES} devices per user: one more replaces the one turned on longest ago`, async () => {
    const client = await signUp();
    const devices = Array.from({ length: MAX_PUSH_DEVICES + 1 }, () => fast.subscribe());
    for (const [index, device] of devices.entries()) {
      const on = await client.post('/api/reminders/push/subscriptions', { ...device, label: `Device ${index}` });
      expect(on.status).toBe(201);
    }
    const { body } = await client.get('/api/reminders/push');
    expect(body.devices.map((d: { label: string }) => d.label)).toEqual(
      devices.slice(1).map((_, index) => `Device ${index + 1}`),
    );

    const before = fast.received.length;
    const test = await client.post('/api/reminders/push/test');
    expect(test.body).toEqual({ sent: MAX_PUSH_DEVICES, devices: MAX_PUSH_DEVICES });
    const reached = fast.received.slice(before).map((push) => push.id);
    expect(reached).toHaveLength(MAX_PUSH_DEVICES);
    expect(reached).not.toContain(devices[0]!.endpoint.split('/').pop());
  });

  it('sends a few at a time, a few per push service: a slow one holds only its own share', async () => {
    const client = await signUp();
    const onSlow = Array.from({ length: 6 }, () => slow.subscribe());
    const onFast = Array.from({ length: 4 }, () => fast.subscribe());
    for (const device of [...onSlow, ...onFast])
      expect((await client.post('/api/reminders/push/subscriptions', device)).status).toBe(201);

    slow.hold();
    slow.mostInFlight = 0;
    fast.mostInFlight = 0;
    const fastBefore = fast.received.length;
    const test = client.post('/api/reminders/push/test');
    // Every device at the answering service is reached while the slow one sits on its requests.
    await waitUntil(() => fast.received.length - fastBefore === onFast.length);
    expect(slow.inFlight).toBe(PUSHES_PER_HOST);
    slow.release();
    expect((await test).body).toEqual({ sent: 10, devices: 10 });
    expect(slow.mostInFlight).toBe(PUSHES_PER_HOST);
    expect(fast.mostInFlight).toBeLessThanOrEqual(PUSHES_PER_HOST);
    expect(slow.mostInFlight + fast.mostInFlight).toBeLessThanOrEqual(PUSHES_AT_ONCE);
  });
});

describe('a device’s push reminders end with the session they were turned on in', () => {
  it('at sign-out, when another session ends it, at a password change, and when it expires', async () => {
    const { client: laptop, signIn } = await account();
    const [phone, tablet, kiosk] = [await signIn(), await signIn(), await signIn()];
    await turnOn(laptop, 'Laptop');
    await turnOn(phone, 'Phone');
    await turnOn(tablet, 'Tablet');
    await turnOn(kiosk, 'Kiosk');
    expect(await labels(phone)).toEqual(['Kiosk', 'Laptop', 'Phone', 'Tablet']);

    // Signed out without turning push off first (the app does; an API client may not).
    expect((await kiosk.post('/api/logout')).status).toBe(200);
    await waitUntil(async () => (await labels(phone)).length === 3, 15_000, 'the kiosk’s device gone');
    expect(await labels(phone)).toEqual(['Laptop', 'Phone', 'Tablet']);

    // Settings › Sessions › Sign out all other sessions, from the phone.
    expect((await phone.post('/api/sessions/end-others')).status).toBe(200);
    await waitUntil(async () => (await labels(phone)).length === 1, 15_000, 'the other sessions’ devices gone');
    expect(await labels(phone)).toEqual(['Phone']);

    // A password changed in one session ends the others, and their devices.
    const desk = await signIn();
    await turnOn(desk, 'Desk');
    const changed = await phone.post('/api/user/change-password', {
      currentPassword: 'secret-pass-1',
      newPassword: 'secret-pass-2',
    });
    expect(changed.status).toBe(200);
    await waitUntil(async () => (await labels(phone)).length === 1, 15_000, 'the desk’s device gone');
    expect(await labels(phone)).toEqual(['Phone']);

    // A session left idle past its end: a gateway whose sessions idle out after two seconds.
    const quick = await backend.startReplica({ SESSION_IDLE_TIMEOUT_SECONDS: '2' });
    const idle = await signIn(quick, 'secret-pass-2');
    await turnOn(idle, 'Idle');
    expect(await labels(phone)).toEqual(['Idle', 'Phone']);
    await waitUntil(async () => (await labels(phone)).length === 1, 15_000, 'the idle session’s device gone');
    expect(await labels(phone)).toEqual(['Phone']);
    expect((await idle.get('/api/reminders/push')).status).toBe(401);
    // Only the phone's own session keeps its device; a test reaches it alone.
    expect((await phone.post('/api/reminders/push/test')).body).toEqual({ sent: 1, devices: 1 });
  });
});
