import { type Backend, Client, startBackend, uniqueUsername } from '@shiplog/system';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe('calendar feed', () => {
  it('serves the active reminders, with alarms and recurrence, at a private, replaceable, revocable link', async () => {
    const client = new Client(backend.url);
    await client.post('/api/register', { username: uniqueUsername('cal'), password: 'secret-pass-1' });
    expect((await new Client(backend.url).get('/api/reminders/calendar')).status).toBe(401);
    expect((await client.get('/api/reminders/calendar')).body).toEqual({ active: false, createdAt: null });

    const project = (await client.post('/api/projects', { name: 'Calendar, Inc; the app' })).body;
    const due = new Date(Date.now() + 2 * 86_400_000);
    due.setMilliseconds(0);
    const once = (
      await client.post('/api/reminders', {
        projectId: project.id,
        title: 'Renew the domain',
        description: 'Before it lapses, then check DNS',
        dueDate: due.toISOString(),
        reminderTimes: ['1_hour_before', 'at_time'],
      })
    ).body;
    const weekly = (
      await client.post('/api/reminders', {
        projectId: project.id,
        title: 'Weekly backup check',
        dueDate: due.toISOString(),
        frequency: 'weekly',
      })
    ).body;
    const done = (
      await client.post('/api/reminders', { projectId: project.id, title: 'Already done', dueDate: due.toISOString() })
    ).body;
    await client.post(`/api/reminders/${done.id}/complete`);

    const created = await client.post('/api/reminders/calendar');
    expect(created.status).toBe(201);
    const url: string = created.body.url;
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[A-Za-z0-9_-]{20,}\.ics$/);
    // Shown once: afterwards only that a link is active, and since when; the store keeps only its hash.
    const listed = (await client.get('/api/reminders/calendar')).body;
    expect(listed).toEqual({ active: true, createdAt: created.body.createdAt });
    expect(JSON.stringify(listed)).not.toContain(new URL(url).pathname.slice(14, 40));
    const path = new URL(url).pathname;
    const secret = path.slice('/api/calendar/'.length, -'.ics'.length);
    const stored = await backend.service('reminders').context.pool.query('SELECT * FROM reminders.calendar_feeds');
    expect(JSON.stringify(stored.rows)).not.toContain(secret);

    // Fetched without a session, as a calendar app does.
    await client.get('/api/reminders');
    const feed = await fetch(`${backend.url}${path}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await feed.text();
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.map((e) => e.uid).sort()).toEqual([`${once.id}@shiplog`, `${weekly.id}@shiplog`].sort());
    const renew = events.find((e) => e.uid === `${once.id}@shiplog`)!;
    expect(renew.summary).toBe('Renew the domain (Calendar, Inc; the app)');
    expect(renew.startDate.toJSDate().toISOString()).toBe(due.toISOString());
    expect(String(renew.description)).toContain('Before it lapses, then check DNS');
    expect(String(renew.description)).toContain(`/reminders/${once.id}/complete`);
    // Alarms at the reminder times: 1 hour before and at the time; the weekly one's default, 1 day before.
    expect(text.match(/TRIGGER:-PT\d+M/g)?.sort()).toEqual(['TRIGGER:-PT0M', 'TRIGGER:-PT1440M', 'TRIGGER:-PT60M']);
    const backup = events.find((e) => e.uid === `${weekly.id}@shiplog`)!;
    expect(String(backup.component.getFirstPropertyValue('rrule'))).toContain('FREQ=WEEKLY');

    // A new link replaces the old one; revoking ends both.
    const replaced = (await client.post('/api/reminders/calendar')).body.url as string;
    expect(replaced).not.toBe(url);
    expect((await fetch(`${backend.url}${path}`)).status).toBe(404);
    expect((await fetch(`${backend.url}${new URL(replaced).pathname}`)).status).toBe(200);
    expect((await client.request('DELETE', '/api/reminders/calendar')).status).toBe(204);
    expect((await client.get('/api/reminders/calendar')).body).toEqual({ active: false, createdAt: null });
    expect((await fetch(`${backend.url}${new URL(replaced).pathname}`)).status).toBe(404);
    expect((await fetch(`${backend.url}/api/calendar/not-a-token.ics`)).status).toBe(404);
  });
});
