import type { Reminder } from '@shiplog/schemas';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { remindersCalendar } from './ics.ts';

const reminder = (fields: Partial<Reminder>): Reminder => ({
  id: '01890000-0000-7000-8000-000000000001',
  userId: 'u',
  assigneeId: 'u',
  projectId: 'p',
  projectName: 'Shiplog',
  title: 'Renew',
  description: null,
  dueDate: '2026-12-01T09:30:00.000Z',
  reminderTimes: ['1_hour_before'],
  frequency: 'once',
  isCompleted: false,
  emailsSent: {},
  lastSentAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...fields,
});

const now = new Date('2026-11-23T12:00:00.000Z');

/** Parsed by ical.js (Mozilla's iCalendar library), which throws on a malformed content line. */
function parse(text: string) {
  return new ICAL.Component(ICAL.parse(text));
}

describe('the reminders calendar (RFC 5545)', () => {
  it('is CRLF-delimited content lines of at most 75 octets, with the required properties', () => {
    const text = remindersCalendar([reminder({ title: `Ünïcödé ${'é'.repeat(120)}`, description: 'x'.repeat(300) })], {
      appUrl: 'https://shiplog.example/',
      now,
    });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.slice(0, -2).split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const calendar = parse(text);
    expect(calendar.name).toBe('vcalendar');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Shiplog//Reminders//EN');
    const [event] = calendar.getAllSubcomponents('vevent');
    for (const required of ['uid', 'dtstamp', 'dtstart']) expect(event!.hasProperty(required)).toBe(true);
    // Folding is undone exactly, multi-byte characters intact.
    expect(event!.getFirstPropertyValue('summary')).toBe(`Ünïcödé ${'é'.repeat(120)} (Shiplog)`);
  });

  it('escapes text so that commas, semicolons, backslashes and new lines come back as written', () => {
    const title = 'Back up; then, check \\ restore';
    const description = 'Line one\nLine two, with; marks';
    const [event] = parse(
      remindersCalendar([reminder({ title, description, projectName: 'Calendar, Inc' })], {
        appUrl: 'https://shiplog.example',
        now,
      }),
    ).getAllSubcomponents('vevent');
    const parsed = new ICAL.Event(event!);
    expect(parsed.summary).toBe(`${title} (Calendar, Inc)`);
    expect(parsed.description).toBe(
      `${description}\nMark it done: https://shiplog.example/reminders/${reminder({}).id}/complete`,
    );
  });

  it('gives UTC times, a half-hour event, an alarm per reminder time and a rule for recurring reminders', () => {
    const [event] = parse(
      remindersCalendar([reminder({ frequency: 'monthly', reminderTimes: ['at_time', '1_day_before'] })], {
        appUrl: 'https://shiplog.example',
        now,
      }),
    ).getAllSubcomponents('vevent');
    const parsed = new ICAL.Event(event!);
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-12-01T09:30:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(event!.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-23T12:00:00Z');
    expect(String(event!.getFirstPropertyValue('rrule'))).toBe('FREQ=MONTHLY');
    const triggers = event!.getAllSubcomponents('valarm').map((alarm) => {
      expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
      // `-PT0M` (at the time) reads as -0.
      return (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds() + 0;
    });
    expect(triggers.sort((a, b) => a - b)).toEqual([-86_400, 0]);
  });

  it('is a valid empty calendar with no reminders', () => {
    const calendar = parse(remindersCalendar([], { appUrl: 'https://shiplog.example', now }));
    expect(calendar.getAllSubcomponents('vevent')).toEqual([]);
  });
});
