import type { SessionView } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';

/**
 * The account's signed-in sessions, this one first, and signing them out. With its mutations rather
 * than in lib/queries.ts, which every first load carries: only Settings › Sessions reads it.
 */
export const sessionsQuery = queryOptions({
  queryKey: ['sessions'],
  queryFn: () => apiRequest<SessionView[]>('GET', '/api/sessions'),
});

/** Signs out one of the account's other sessions: it is signed out at its next request. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('DELETE', `/api/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}

/** Signs out every session of the account but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', '/api/sessions/end-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}
