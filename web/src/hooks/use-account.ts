import type { ApiTokenView, ImportResult, NotificationSettings, Profile } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { apiTokensQuery, calendarFeedQuery, notificationSettingsQuery, profileQuery, userQuery } from '../lib/queries';
import type { MadeSecretLink } from '../lib/secret-links';

/**
 * The account's mutations, one hook per action. Each refreshes what it changed by query key; the
 * component that calls it says what the user sees (toasts) through `mutate`'s own callbacks.
 */

/** POST /api/user/account-info: email and phone, shown on the profile and in the user menu. */
export function useUpdateAccountInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: { email: string | null; phoneNumber: string | null }) =>
      apiRequest<{ email: string | null; phoneNumber: string | null; emailVerified: boolean }>(
        'POST',
        '/api/user/account-info',
        values,
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: userQuery.queryKey }),
      ]),
  });
}

/** A new link to the account's address, to prove it is the user's. */
export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>('POST', '/api/user/email-verification'),
  });
}

/** POST /api/profile: the whole profile, as the API takes it. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (profile: Omit<Profile, 'isReplitLinked'>) => apiRequest<Profile>('POST', '/api/profile', profile),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
  });
}

/** POST /api/user/change-password (the spec's client names the current one oldPassword). */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      apiRequest<unknown>('POST', '/api/user/change-password', { oldPassword: currentPassword, newPassword }),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: NotificationSettings) =>
      apiRequest<NotificationSettings>('POST', '/api/notifications/settings', next),
    onSuccess: (saved) => queryClient.setQueryData(notificationSettingsQuery.queryKey, saved),
  });
}

/** A new private calendar link (replacing any other). */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<MadeSecretLink>('POST', '/api/reminders/calendar'),
    onSuccess: ({ createdAt }) => queryClient.setQueryData(calendarFeedQuery.queryKey, { active: true, createdAt }),
  });
}

export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', '/api/reminders/calendar'),
    onSuccess: () => queryClient.setQueryData(calendarFeedQuery.queryKey, { active: false, createdAt: null }),
  });
}

/** A new personal API token: the answer holds its text, which is never shown again. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => apiRequest<ApiTokenView & { token: string }>('POST', '/api/tokens', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}

/** A token stops working at its next use. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', `/api/tokens/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}

/** Contact Admin's message. */
export function useContactAdmin() {
  return useMutation({
    mutationFn: (message: { subject: string; message: string }) =>
      apiRequest<unknown>('POST', '/api/contact-admin', message),
  });
}

/**
 * POST /api/import: an export file back in. Everything it brings shows at once: every query is
 * fetched again (projects, reminders, the timeline, the dashboard's counters).
 */
export function useImportData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: unknown) => apiRequest<ImportResult>('POST', '/api/import', file),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
