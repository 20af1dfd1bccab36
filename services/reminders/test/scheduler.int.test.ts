import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/gateway/testing';
import { createMailer } from '@shiplog/service-kit';
import { waitUntil } from '@shiplog/testing';
import { type SmtpStandIn, startSmtpStandIn } from '@shiplog/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../src/reactions/send-due-reminders/index.ts';

let backend: Backend;
let smtp: SmtpStandIn;
let received: SmtpStandIn['received'];
let client: Client;
let projectId: string;

beforeAll(async () => {
  // A real SMTP server on a free port: nodemailer speaks the real protocol to it. Identity mails the
  // links that prove an address through it too.
  smtp = await startSmtpStandIn();
  received = smtp.received;
  backend = await startBackend({ env: smtp.env });
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
  await smtp?.stop();
});

function scheduler() {
  const { context } = backend.service('reminders');
  return createScheduler(
    context,
    createMailer({ smtpUrl: smtp.url, from: 'Shiplog <reminders@shiplog.test>', logger: context.logger }),
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
    expect((await first.tick(new Date(due.getTime() - minutes(59)))).sent).toBe(1);
    expect(received.length - before).toBe(1);
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
