import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiRequest } from '../../lib/api';
import { userQuery } from '../../lib/queries';
import { THEME_STORAGE_KEY } from '../../lib/theme';
import { told } from '../../lib/told';

/**
 * Signing out and deleting the account, which the shell offers on every page; signing in and up are
 * in use-sign-in.ts, loaded with the sign-in page only.
 *
 * Signed out (logout, or the account deleted): clears the user, resets the cache, clears local and
 * session storage (the chat's conversation), ends the browser's push subscription and goes to /auth.
 * The theme preference is the one key kept: it is the device's setting, not the account's data.
 */
function useSignedOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    queryClient.setQueryData(userQuery.queryKey, null);
    queryClient.clear();
    const theme = localStorage.getItem(THEME_STORAGE_KEY);
    localStorage.clear();
    if (theme) localStorage.setItem(THEME_STORAGE_KEY, theme);
    // The chat's conversation, and anything else kept for the browser session.
    sessionStorage.clear();
    // The copies kept for reading offline (web/public/sw.js): nothing of the account stays on the device.
    if ('caches' in window) await caches.delete('shiplog-data');
    // Nor its push reminders: the browser's subscription ends (the server's record went with the session).
    await (await import('../../lib/service-worker')).unsubscribeDevice();
    await navigate({ to: '/auth' });
  };
}

/**
 * Before the session ends, while the delete is still the user's to make: this browser's push
 * subscription ends and the server forgets it, so the next person here gets none of this account's
 * reminders. The server also forgets it when the session ends, so a failure here does not stop sign-out.
 */
async function turnOffDevicePush(): Promise<void> {
  try {
    const { unsubscribeDevice } = await import('../../lib/service-worker');
    const endpoint = await unsubscribeDevice();
    if (endpoint) await apiRequest('DELETE', '/api/reminders/push/subscriptions', { endpoint });
  } catch (error) {
    console.warn('Push reminders on this device end with the session instead:', error);
  }
}

export function useLogout() {
  const signedOut = useSignedOut();
  return useMutation({
    mutationFn: async () => {
      await turnOffDevicePush();
      return apiRequest<unknown>('POST', '/api/logout');
    },
    onSuccess: signedOut,
    meta: told({ failure: 'Logout failed' }),
  });
}

/** Deletes the caller's account and everything in it; the server ends the session, the app signs out. */
export function useDeleteAccount() {
  const signedOut = useSignedOut();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('DELETE', '/api/user'),
    onSuccess: signedOut,
    meta: told({
      success: { title: 'Account deleted', description: 'Your account and all of its data have been deleted.' },
      failure: 'Failed to delete account',
    }),
  });
}
