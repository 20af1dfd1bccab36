import { createScheduler } from '@shiplog/reminders/scheduler';
import { pushSenderFor } from '@shiplog/reminders/web-push';
import { createMailer } from '@shiplog/service-kit';
import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { metricValue, scrapeMetrics } from '@shiplog/testing/prometheus';
import { type PushStandIn, startPushStandIn } from '@shiplog/testing/push';
import { type SmtpStandIn, startSmtpStandIn } from '@shiplog/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;
let smtp: SmtpStandIn;
/** A Web Push service: it decrypts what it is sent with each subscription's keys. */
let pushService: PushStandIn;
/** The server's VAPID private key in these tests (32 bytes, base64url). */
const VAPID_PRIVATE_KEY = 'kJ0ZDk3VNOdDQx2CCtJ2PRfvYNQXd6dKfaDXIdOqF7w';
let received: SmtpStandIn['received'];
let client: Client;
let projectId: string;

beforeAll(async () => {
  // A real SMTP server on a free port: nodemailer speaks the real protocol to it. Identity mails the
  // links that prove an address through it too.
  [smtp, pushService] = await Promise.all([startSmtpStandIn(), startPushStandIn()]);
  received = smtp.received;
  backend = await startBackend({
    env: {
      ...smtp.env,
      VAPID_PRIVATE_KEY,
      VAPID_SUBJECT: 'mailto:ops@shiplog.test',
      PUSH_ALLOWED_HOSTS: pushService.host,
    },
  });
  client = new Client(backend.url);
  await client.post('/api/register', {
    username: uniqueUsername('mail'),
    password: 'secret-pass-1',
    email: 'builder@example.com',
  });
  await verifyAddress(client, 'builder@example.com');
  projectId = (await client.post('/api/projects', { name: 'Mail Project' })).body.id;
});

/** Opens the link identity mailed to `address`, as its owner would. */
async function verifyAddress(owner: Client, address: string) {
  let secret: string | undefined;
  await waitUntil(() => {
    const mail = received.findLast((m) => m.to.includes(address) && m.raw.includes('/verify-email#'));
    secret = mail && /\/verify-email#([\w-]{64})/.exec(mail.raw)?.[1];
    return Boolean(secret);
  });
  const verified = await owner.post('/api/email-verification', { token: secret });
  expect(verified.status).toBe(200);
  expect((await owner.get('/api/profile')).body.emailVerified).toBe(true);
}
afterAll(async () => {
  // The backend first: its mailers hold pooled connections, which the stand-in waits for when it stops.
  await backend?.stop();
  await Promise.all([smtp?.stop(), pushService?.stop()]);
});

const pushSenders: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(pushSenders.map((close) => close()));
});

function scheduler() {
  const { context } = backend.service('reminders');
  const { push, close } = pushSenderFor(context.config);
  pushSenders.push(close);
  return createScheduler(
    context,
    createMailer({ smtpUrl: smtp.url, from: 'Shiplog <reminders@shiplog.test>', logger: context.logger }),
    push,
  );
}

async function addReminder(body: Record<string, unknown>) {
  const response = await client.post('/api/reminders', { projectId, ...body });
  expect(response.status).toBe(201);
  // Read through the gateway: the reminder's schedule is in place once this answers.
  await client.get(`/api/reminders/${response.body.id}`);
  return response.body as { id: string; dueDate: string };
}

const minutes = (n: number) => n * 60_000;

describe('reminder scheduler', () => {
  it('sends each reminder time once, by email, with the one-tap link, never twice across a restart', async () => {
    const due = new Date(Date.now() + 2 * 86_400_000);
    const { id } = await addReminder({
      title: 'Renew the domain',
      dueDate: due.toISOString(),
      reminderTimes: ['1_hour_before', 'at_time'],
    });
    const first = scheduler();
    const before = received.length;

    expect((await first.tick(new Date(due.getTime() - minutes(120)))).sent).toBe(0);
    const delays = async () =>
      metricValue(await scrapeMetrics(backend.service('reminders').url), 'shiplog_reminder_send_delay_seconds') ?? 0;
    const delaysBefore = await delays();
    expect((await first.tick(new Date(due.getTime() - minutes(59)))).sent).toBe(1);
    expect(received.length - before).toBe(1);
    // How late it went (a minute after its hour-before time) is in the metrics.
    expect(await delays()).toBe(delaysBefore + 1);
    const email = received.at(-1)!;
    expect(email.to).toEqual(['builder@example.com']);
    expect(email.raw).toContain('Subject: Reminder: Renew the domain - Mail Project');
    expect(email.raw).toContain('Mail Project');
    expect(email.raw).toContain(`/reminders/${id}/complete`);

    // The same moment again, and a restarted scheduler: nothing more.
    expect((await first.tick(new Date(due.getTime() - minutes(58)))).sent).toBe(0);
    await first.stop();
    const restarted = scheduler();
    expect((await restarted.tick(new Date(due.getTime() - minutes(30)))).sent).toBe(0);
    expect(received.length - before).toBe(1);

    // Two schedulers at the due time: the at_time email goes once.
    const other = scheduler();
    const [a, b] = await Promise.all([
      restarted.tick(new Date(due.getTime() + 1000)),
      other.tick(new Date(due.getTime() + 1000)),
    ]);
    expect(a.sent + b.sent).toBe(1);
    expect(received.length - before).toBe(2);
    const reminder = (await client.get(`/api/reminders/${id}`)).body;
    await waitUntil(
      async () => Object.keys((await client.get(`/api/reminders/${id}`)).body.emailsSent).length === 2,
      5000,
      'both sends recorded',
    );
    expect(reminder.lastSentAt).not.toBeNull();
    await Promise.all([restarted.stop(), other.stop()]);
  });

  it('moves a recurring reminder to its next occurrence and reminds again', async () => {
    const due = new Date(Date.now() + 3 * 86_400_000);
    const { id } = await addReminder({
      title: 'Daily standup notes',
      dueDate: due.toISOString(),
      reminderTimes: ['at_time'],
      frequency: 'daily',
    });
    const s = scheduler();
    const before = received.length;
    expect((await s.tick(new Date(due.getTime() + minutes(1)))).sent).toBe(1);
    const next = new Date(due.getTime() + 86_400_000).toISOString();
    await waitUntil(
      async () => (await client.get(`/api/reminders/${id}`)).body.dueDate === next,
      5000,
      'the next occurrence',
    );
    expect((await s.tick(new Date(due.getTime() + minutes(2)))).sent).toBe(0);
    expect((await s.tick(new Date(due.getTime() + 86_400_000 + minutes(1)))).sent).toBe(1);
    expect(received.length - before).toBe(2);
    await s.stop();
    // It would keep reminding every day; later tests jump days ahead.
    expect((await client.request('DELETE', `/api/reminders/${id}`)).status).toBe(204);
    await client.get('/api/reminders');
  });

  it('skips completed reminders', async () => {
    const due = new Date(Date.now() + 4 * 86_400_000);
    const { id } = await addReminder({ title: 'Already done', dueDate: due.toISOString(), reminderTimes: ['at_time'] });
    await client.post(`/api/reminders/${id}/complete`);
    await client.get(`/api/reminders/${id}`);
    const s = scheduler();
    const before = received.length;
    expect((await s.tick(new Date(due.getTime() + minutes(1)))).sent).toBe(0);
    expect(received.length).toBe(before);
    await s.stop();
  });

  it('emails no reminder to an address its owner has not proven, and does once they have', async () => {
    const owner = new Client(backend.url);
    const address = `${uniqueUsername('unproven')}@example.com`;
    await owner.post('/api/register', {
      username: uniqueUsername('unproven'),
      password: 'secret-pass-1',
      email: address,
    });
    const project = (await owner.post('/api/projects', { name: 'Not my inbox' })).body.id;
    const remind = async (days: number) => {
      const due = new Date(Date.now() + days * 86_400_000);
      const created = await owner.post('/api/reminders', {
        projectId: project,
        title: `Spam ${days}`,
        dueDate: due.toISOString(),
        reminderTimes: ['at_time'],
      });
      await owner.get(`/api/reminders/${created.body.id}`);
      return due;
    };
    const toAddress = () => received.filter((m) => m.to.includes(address) && m.raw.includes('Subject: Reminder:'));
    const s = scheduler();
    try {
      const first = await remind(6);
      expect((await s.tick(new Date(first.getTime() + minutes(1)))).sent).toBe(1);
      expect(toAddress()).toHaveLength(0);
      await verifyAddress(owner, address);
      // The reminders service has the proof once a read through the gateway answers after it.
      await owner.get('/api/reminders');
      const second = await remind(7);
      expect((await s.tick(new Date(second.getTime() + minutes(1)))).sent).toBe(1);
      expect(toAddress()).toHaveLength(1);
      // A new address is unproven again: nothing goes to it until it is.
      const moved = `${uniqueUsername('moved')}@example.com`;
      expect((await owner.post('/api/user/account-info', { email: moved })).status).toBe(200);
      await owner.get('/api/reminders');
      const third = await remind(8);
      expect((await s.tick(new Date(third.getTime() + minutes(1)))).sent).toBe(1);
      expect(received.filter((m) => m.to.includes(moved) && m.raw.includes('Subject: Reminder:'))).toHaveLength(0);
    } finally {
      await s.stop();
    }
  });

  it('logs instead of emailing when the account has no email address', async () => {
    const nomail = new Client(backend.url);
    await nomail.post('/api/register', { username: uniqueUsername('nomail'), password: 'secret-pass-1' });
    const project = (await nomail.post('/api/projects', { name: 'Quiet' })).body.id;
    const due = new Date(Date.now() + 5 * 86_400_000);
    const created = await nomail.post('/api/reminders', {
      projectId: project,
      title: 'Silent one',
      dueDate: due.toISOString(),
      reminderTimes: ['at_time'],
    });
    await nomail.get(`/api/reminders/${created.body.id}`);
    const s = scheduler();
    const before = received.length;
    expect((await s.tick(new Date(due.getTime() + minutes(1)))).sent).toBe(1);
    expect(received.length).toBe(before);
    await s.stop();
  });
});

describe('assigned reminders', () => {
  /** A user with a proven address, as `client` is. */
  async function person(prefix: string) {
    const personClient = new Client(backend.url);
    const address = `${uniqueUsername(prefix)}@example.com`;
    const username = uniqueUsername(prefix);
    const registered = await personClient.post('/api/register', {
      username,
      password: 'secret-pass-1',
      email: address,
    });
    await verifyAddress(personClient, address);
    return { client: personClient, address, username, id: registered.body.id as string };
  }
  const remindersTo = (address: string, title: string) =>
    received.filter((m) => m.to.includes(address) && m.raw.includes(`Subject: Reminder: ${title}`));

  it('mails the assignee alone, follows a re-assignment, and mails nobody once they are removed', async () => {
    const [ada, bo, cy] = [await person('assignada'), await person('assignbo'), await person('assigncy')];
    const workspace = (await ada.client.post('/api/workspaces', { name: 'Assigned' })).body.id as string;
    for (const [who, role] of [
      [bo, 'member'],
      [cy, 'viewer'],
    ] as const) {
      const invite = await ada.client.post(`/api/workspaces/${workspace}/invites`, { username: who.username, role });
      await waitUntil(async () => (await who.client.get('/api/invites')).body.length === 1);
      expect((await who.client.post(`/api/invites/${invite.body.id}/accept`)).status).toBe(200);
    }
    const project = (await ada.client.post('/api/projects', { name: 'Team Mail', workspaceId: workspace })).body
      .id as string;
    const personal = (await ada.client.post('/api/projects', { name: 'Ada Only' })).body.id as string;
    await waitUntil(async () => (await bo.client.get(`/api/projects/${project}`)).status === 200);
    const due = new Date(Date.now() + 20 * 86_400_000);
    const body = { projectId: project, dueDate: due.toISOString(), reminderTimes: ['at_time'] };

    // Only someone who may change the project is given it: not a viewer, an outsider, nor on a personal one.
    const outsider = await person('assignout');
    for (const [projectId, assigneeId] of [
      [project, cy.id],
      [project, outsider.id],
      [personal, bo.id],
    ]) {
      const refused = await ada.client.post('/api/reminders', { ...body, projectId, title: 'Refused', assigneeId });
      expect(refused.status).toBe(400);
      expect(refused.body.fieldErrors).toEqual({
        assigneeId: ['Assignee must be a member of the project’s workspace who can change it'],
      });
    }
    expect((await ada.client.get(`/api/reminders/project/${project}`)).body).toEqual([]);

    const made = await ada.client.post('/api/reminders', { ...body, title: 'Renew team cert', assigneeId: bo.id });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ userId: ada.id, assigneeId: bo.id });
    // Bo's list has it (once Ada's write has reached the service: Bo's reads do not wait for hers).
    await waitUntil(async () =>
      ((await bo.client.get('/api/reminders')).body as { id: string }[]).some((r) => r.id === made.body.id),
    );
    const listed = (await bo.client.get('/api/reminders')).body as { id: string; assigneeName: string }[];
    expect(listed.find((r) => r.id === made.body.id)?.assigneeName).toBe(bo.username);
    const s = scheduler();
    try {
      expect((await s.tick(new Date(due.getTime() + minutes(1)))).sent).toBeGreaterThanOrEqual(1);
      expect(remindersTo(bo.address, 'Renew team cert')).toHaveLength(1);
      expect(remindersTo(ada.address, 'Renew team cert')).toHaveLength(0);

      // Given to Ada: the next one is hers, and only hers.
      const later = new Date(due.getTime() + 86_400_000);
      const moved = await bo.client.request('PATCH', `/api/reminders/${made.body.id}`, {
        assigneeId: ada.id,
        dueDate: later.toISOString(),
      });
      expect(moved.status).toBe(200);
      expect(moved.body.assigneeId).toBe(ada.id);
      // Read by Bo, who made the change: the schedule has it once this answers.
      await bo.client.get(`/api/reminders/${made.body.id}`);
      await s.tick(new Date(later.getTime() + minutes(1)));
      expect(remindersTo(ada.address, 'Renew team cert')).toHaveLength(1);
      expect(remindersTo(bo.address, 'Renew team cert')).toHaveLength(1);

      // Given to Bo, who is then removed: nobody is mailed about it.
      const last = new Date(later.getTime() + 86_400_000);
      await ada.client.request('PATCH', `/api/reminders/${made.body.id}`, {
        assigneeId: bo.id,
        dueDate: last.toISOString(),
      });
      expect((await ada.client.request('DELETE', `/api/workspaces/${workspace}/members/${bo.id}`)).status).toBe(204);
      await waitUntil(async () => (await bo.client.get(`/api/projects/${project}`)).status === 404);
      await ada.client.get(`/api/reminders/${made.body.id}`);
      await s.tick(new Date(last.getTime() + minutes(1)));
      // Its time came and went (the send is recorded), to nobody.
      await waitUntil(async () =>
        Object.keys((await ada.client.get(`/api/reminders/${made.body.id}`)).body.emailsSent).includes(
          `at_time@${last.toISOString()}`,
        ),
      );
      expect(remindersTo(bo.address, 'Renew team cert')).toHaveLength(1);
      expect(remindersTo(ada.address, 'Renew team cert')).toHaveLength(1);
    } finally {
      await s.stop();
    }
  });
});

describe('push reminders', () => {
  it('turns push on per device, refuses what is not a subscription, and keeps each user to their own devices', async () => {
    const state = await client.get('/api/reminders/push');
    expect(state.status).toBe(200);
    // The public half of VAPID_PRIVATE_KEY: what a browser subscribes with.
    expect(state.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(state.body.devices).toEqual([]);

    const bad = await client.post('/api/reminders/push/subscriptions', {
      endpoint: 'not a url',
      keys: { p256dh: 'short', auth: '' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      endpoint: ['Endpoint must be an http(s) URL'],
      'keys.p256dh': ['keys.p256dh must be a P-256 public key (65 bytes, base64url)'],
      'keys.auth': ['keys.auth must be 16 bytes, base64url'],
    });
    // A push service is on the internet: a private address is refused before anything is sent there.
    const inside = await client.post('/api/reminders/push/subscriptions', {
      ...pushService.subscribe(),
      endpoint: 'http://10.0.0.7/push/x',
    });
    expect(inside.status).toBe(400);
    expect(inside.body.fieldErrors.endpoint).toHaveLength(1);

    const device = pushService.subscribe();
    const on = await client.post('/api/reminders/push/subscriptions', { ...device, label: 'Chrome on Android' });
    expect(on.status).toBe(201);
    expect(on.body.devices).toEqual([{ label: 'Chrome on Android', createdAt: expect.any(String) }]);
    // The endpoint and keys are credentials: never read back.
    expect(JSON.stringify((await client.get('/api/reminders/push')).body)).not.toContain(device.endpoint);

    // Another user can neither see nor turn off this device.
    const other = new Client(backend.url);
    await other.post('/api/register', { username: uniqueUsername('other'), password: 'secret-pass-1' });
    expect((await other.get('/api/reminders/push')).body.devices).toEqual([]);
    const theirs = await other.request('DELETE', '/api/reminders/push/subscriptions', { endpoint: device.endpoint });
    expect(theirs.status).toBe(404);
    expect((await other.post('/api/reminders/push/test')).status).toBe(404);

    // A test notification: encrypted to the device's keys, signed with the server's VAPID key.
    const before = pushService.received.length;
    const test = await client.post('/api/reminders/push/test');
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ sent: 1, devices: 1 });
    const push = pushService.received.at(-1)!;
    expect(pushService.received.length - before).toBe(1);
    expect(JSON.parse(push.payload!)).toMatchObject({ title: 'Shiplog', body: 'Push reminders reach this device.' });
    expect(push.vapid).toMatchObject({ sub: 'mailto:ops@shiplog.test', publicKey: state.body.publicKey });

    const off = await client.request('DELETE', '/api/reminders/push/subscriptions', { endpoint: device.endpoint });
    expect(off.status).toBe(200);
    expect(off.body.devices).toEqual([]);
  });

  it('pushes each send beside the email, once, with the one-tap link, and forgets a device the push service says is gone', async () => {
    const phone = pushService.subscribe();
    const laptop = pushService.subscribe();
    for (const device of [phone, laptop])
      expect((await client.post('/api/reminders/push/subscriptions', device)).status).toBe(201);
    const due = new Date(Date.now() + 8 * 86_400_000);
    const { id } = await addReminder({
      title: 'Rotate the keys',
      dueDate: due.toISOString(),
      reminderTimes: ['1_day_before', 'at_time'],
    });
    const s = scheduler();
    const before = pushService.received.length;
    const mailsBefore = received.length;

    expect((await s.tick(new Date(due.getTime() - 86_400_000 + minutes(1)))).sent).toBe(1);
    const pushes = pushService.received.slice(before);
    expect(pushes.map((p) => p.id).sort()).toEqual([phone, laptop].map((d) => d.endpoint.split('/').pop()).sort());
    const { config } = backend.service('reminders').context as { config: { APP_URL: string } };
    for (const push of pushes) {
      expect(JSON.parse(push.payload!)).toEqual({
        title: 'Rotate the keys',
        body: 'Mail Project is due 1 day from now',
        url: `${config.APP_URL}/reminders/${id}/complete`,
        tag: `reminder-${id}`,
      });
      expect(push.urgency).toBe('high');
      expect(push.topic).toBe(id.replaceAll('-', ''));
    }
    // The email went too, with the same link.
    expect(received.length - mailsBefore).toBe(1);
    expect(received.at(-1)!.raw).toContain(`/reminders/${id}/complete`);
    // Nothing twice.
    expect((await s.tick(new Date(due.getTime() - 86_400_000 + minutes(2)))).sent).toBe(0);
    expect(pushService.received.length - before).toBe(2);

    // The phone's browser dropped the subscription: the push service answers 410, and it is forgotten.
    pushService.gone(phone.endpoint);
    expect((await s.tick(new Date(due.getTime() + minutes(1)))).sent).toBe(1);
    expect(pushService.received.length - before).toBe(3);
    expect((await client.get('/api/reminders/push')).body.devices).toHaveLength(1);
    await s.stop();
    await client.request('DELETE', '/api/reminders/push/subscriptions', { endpoint: laptop.endpoint });
  });
});
