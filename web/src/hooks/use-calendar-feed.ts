import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { calendarFeedQuery } from '../lib/queries';
import type { MadeSecretLink } from '../lib/secret-links';
import { told } from '../lib/told';

/** A new private calendar link (replacing any other). */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<MadeSecretLink>('POST', '/api/reminders/calendar'),
    onSuccess: ({ createdAt }) => queryClient.setQueryData(calendarFeedQuery.queryKey, { active: true, createdAt }),
    meta: told({ failure: 'Error' }),
  });
}

export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', '/api/reminders/calendar'),
    onSuccess: () => queryClient.setQueryData(calendarFeedQuery.queryKey, { active: false, createdAt: null }),
    meta: told({
      success: { title: 'Calendar link revoked', description: 'Calendars using it will stop updating.' },
      failure: 'Error',
    }),
  });
}
