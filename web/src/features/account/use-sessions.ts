import type { SessionView } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * The account's signed-in sessions, this one first, and signing them out. With its mutations rather
 * than in lib/queries.ts, which every first load carries: only Settings › Sessions reads it.
 */
export const sessionsQuery = queryOptions({
  queryKey: keys.sessions,
  queryFn: () => apiRequest<SessionView[]>('GET', '/api/sessions'),
});

/** "Firefox 128.0 on macOS Sonoma", or as much of it as the browser said. */
export function describeSession(session: SessionView): string {
  if (session.browser && session.os) return `${session.browser} on ${session.os}`;
  return session.browser || session.os || 'Unknown device';
}

/** Signs out one of the account's other sessions: it is signed out at its next request. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: SessionView) =>
      apiRequest<unknown>('DELETE', `/api/sessions/${encodeURIComponent(session.id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
    meta: told({
      success: (_done, session: SessionView) => ({
        title: 'Session signed out',
        description: `${describeSession(session)} is no longer signed in.`,
      }),
      failure: 'Failed to sign out session',
    }),
  });
}

/** Signs out every session of the account but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', '/api/sessions/end-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
    meta: told({
      success: { title: 'Signed out everywhere else', description: 'Only this session is still signed in.' },
      failure: 'Failed to sign out other sessions',
    }),
  });
}
