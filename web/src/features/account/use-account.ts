import type { NotificationSettings, Profile } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys, userQuery } from '../../lib/queries';
import { told } from '../../lib/told';

export type ProfileView = Profile & { username: string; email: string | null };

export const profileQuery = queryOptions({
  queryKey: keys.profile,
  queryFn: () => apiRequest<ProfileView>('GET', '/api/profile'),
});

export const notificationSettingsQuery = queryOptions({
  queryKey: keys.notificationSettings,
  queryFn: () => apiRequest<NotificationSettings>('GET', '/api/notifications/settings'),
});

/**
 * The account's mutations, one hook per action: each refreshes what it changed and says what it tells
 * the user. API tokens, the calendar link and import have their own modules, loaded with their tabs.
 */

type SavedAccountInfo = { email: string | null; phoneNumber: string | null; emailVerified: boolean };

/**
 * POST /api/user/account-info: email and phone, shown on the profile and in the user menu. Saved from
 * Settings › Account, or as the second half of the profile page's save (which says "Profile updated").
 */
export function useUpdateAccountInfo(from: 'account' | 'profile' = 'account') {
  const queryClient = useQueryClient();
  const toldFrom = {
    // The address before the change, as `onMutate` noted it: the live feed may have read the new one
    // by the time the answer comes.
    account: told({
      success: (saved: SavedAccountInfo, _sent: unknown, before: { email: string | null } | undefined) => ({
        title: 'Account information updated',
        description:
          saved.email && !saved.emailVerified && saved.email !== before?.email
            ? `We sent a link to ${saved.email}: open it to get your reminders by email.`
            : undefined,
      }),
      failure: 'Failed to update account information',
    }),
    profile: told({
      success: { title: 'Profile updated', description: 'Your profile has been saved.' },
      failure: 'Failed to update account information',
    }),
  };
  return useMutation({
    mutationFn: (values: { email: string | null; phoneNumber: string | null }) =>
      apiRequest<SavedAccountInfo>('POST', '/api/user/account-info', values),
    onMutate: () => ({ email: queryClient.getQueryData(profileQuery.queryKey)?.email ?? null }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: userQuery.queryKey }),
      ]),
    meta: toldFrom[from],
  });
}

/** A new link to the account's address, to prove it is the user's. */
export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>('POST', '/api/user/email-verification'),
    meta: told({
      success: { title: 'Verification email sent', description: 'Open the link in it.' },
      failure: 'Failed to send verification email',
    }),
  });
}

/** What saving the profile says: the profile page's success is told by the account info saved after it. */
const profileTold = {
  profile: told({ failure: 'Failed to update profile' }),
  privacy: told({ success: { title: 'Privacy updated' }, failure: 'Failed to update settings' }),
};

/** POST /api/profile: the whole profile, as the API takes it. */
export function useUpdateProfile(from: keyof typeof profileTold) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (profile: Omit<Profile, 'isReplitLinked'>) => apiRequest<Profile>('POST', '/api/profile', profile),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
    meta: profileTold[from],
  });
}

/** POST /api/user/change-password (the spec's client names the current one oldPassword). */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      apiRequest<unknown>('POST', '/api/user/change-password', { oldPassword: currentPassword, newPassword }),
    meta: told({ failure: 'Failed to change password' }),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: NotificationSettings) =>
      apiRequest<NotificationSettings>('POST', '/api/notifications/settings', next),
    onSuccess: (saved) => queryClient.setQueryData(notificationSettingsQuery.queryKey, saved),
    meta: told({ failure: 'Failed to update settings' }),
  });
}

/** Contact Admin's message. */
export function useContactAdmin() {
  const creates = useCreates();
  return useMutation({
    mutationFn: (message: { subject: string; message: string }) => creates.post<unknown>('/api/contact-admin', message),
    meta: told({
      success: { title: 'Message sent', description: 'Your message has been sent to the admin successfully.' },
      failure: (error) => ({ title: 'Error', description: error.message || 'Failed to send message' }),
    }),
  });
}
