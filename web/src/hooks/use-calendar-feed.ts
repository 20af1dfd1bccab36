import { calendarFeedQuery } from '../lib/queries';
import { useMakeSecretLink, useTurnOffSecretLink } from './use-secret-link';

/** A new private calendar link (replacing any other). */
export const useCreateCalendarFeed = () => useMakeSecretLink('/api/reminders/calendar', calendarFeedQuery.queryKey);

export const useRevokeCalendarFeed = () =>
  useTurnOffSecretLink('/api/reminders/calendar', calendarFeedQuery.queryKey, {
    title: 'Calendar link revoked',
    description: 'Calendars using it will stop updating.',
  });
