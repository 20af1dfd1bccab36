import { declareRoutes, madeSecretLink, secretLinkState } from '@shiplog/service-kit';

/** The private calendar feed and its secret link (answered in `api.ts`). */
export const calendarRoutes = declareRoutes({
  'GET /reminders/calendar': {
    tag: 'Reminders',
    summary: 'Whether the private calendar feed is on',
    access: 'user',
    answer: secretLinkState,
  },
  'POST /reminders/calendar': {
    tag: 'Reminders',
    summary: 'Make (or replace) the private calendar feed’s link',
    access: 'user',
    status: 201,
    answer: madeSecretLink,
  },
  'DELETE /reminders/calendar': {
    tag: 'Reminders',
    summary: 'Turn the calendar feed off',
    access: 'user',
    status: 204,
  },
  // Calendar apps fetch it without a session: the secret in the path (`<secret>.ics`) is the credential.
  'GET /calendar/:secret': {
    tag: 'Reminders',
    summary: 'The private calendar feed (iCalendar)',
    description: 'The secret in the file name is the credential: calendar apps subscribe without a session.',
    access: 'public',
    limit: 'publicRead',
    answer: { type: 'text/calendar', description: 'The active reminders as events with alarms.' },
  },
});
