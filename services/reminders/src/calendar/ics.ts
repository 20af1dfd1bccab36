import { type Reminder, reminderTimeOffsets } from '@shiplog/schemas';

/**
 * An iCalendar (RFC 5545) document of reminders: one event each, an alarm per reminder time, a rule
 * for recurring ones. Text is escaped and long lines folded at 75 octets, as the format requires.
 */
export function remindersCalendar(reminders: Reminder[], options: { appUrl: string; now: Date }): string {
  const stamp = icsDate(options.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Shiplog//Reminders//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Shiplog reminders',
  ];
  for (const reminder of reminders) {
    const start = new Date(reminder.dueDate);
    const link = `${options.appUrl.replace(/\/$/, '')}/reminders/${reminder.id}/complete`;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${reminder.id}@shiplog`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsDate(start)}`,
      `DTEND:${icsDate(new Date(start.getTime() + 30 * 60_000))}`,
      `SUMMARY:${text(`${reminder.title} (${reminder.projectName})`)}`,
      `DESCRIPTION:${text([reminder.description, `Mark it done: ${link}`].filter(Boolean).join('\n'))}`,
      `URL:${link}`,
    );
    if (reminder.frequency !== 'once') lines.push(`RRULE:FREQ=${reminder.frequency.toUpperCase()}`);
    for (const time of reminder.reminderTimes) {
      const minutes = reminderTimeOffsets[time].ms / 60_000;
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${text(reminder.title)}`,
        `TRIGGER:-PT${minutes}M`,
        'END:VALARM',
      );
    }
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

function icsDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function text(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets continue on the next line after a space. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    if (Buffer.byteLength(current + char, 'utf8') > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
