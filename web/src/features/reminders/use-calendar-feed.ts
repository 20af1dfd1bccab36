import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import type { SecretLinkState } from '../../lib/secret-links';
import { useMakeSecretLink, useTurnOffSecretLink } from '../../lib/use-secret-link';

/** Whether the user has a private calendar link, and since when (its URL is shown only when made). */
export const calendarFeedQuery = queryOptions({
  queryKey: [...keys.reminders, 'calendar'],
  queryFn: () => apiRequest<SecretLinkState>('GET', '/api/reminders/calendar'),
});

/** A new private calendar link (replacing any other). */
export const useCreateCalendarFeed = () => useMakeSecretLink('/api/reminders/calendar', calendarFeedQuery.queryKey);

export const useRevokeCalendarFeed = () =>
  useTurnOffSecretLink('/api/reminders/calendar', calendarFeedQuery.queryKey, {
    title: 'Calendar link revoked',
    description: 'Calendars using it will stop updating.',
  });
