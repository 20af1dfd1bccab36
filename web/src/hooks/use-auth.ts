import type { CurrentUser, LoginInput, RegisterInput } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '../components/ui/toast';
import { apiRequest } from '../lib/api';
import { userQuery } from '../lib/queries';
import { THEME_STORAGE_KEY } from '../lib/theme';

/** Sign-in and registration success: reset the cache first, store the user, refresh everything. */
function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (user: CurrentUser, redirectTo?: string) => {
    queryClient.clear();
    queryClient.setQueryData(userQuery.queryKey, user);
    await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'user' });
    await navigate({ to: redirectTo ?? '/' });
  };
}

export function useLogin(redirectTo?: string) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<CurrentUser>('POST', '/api/login', input),
    onSuccess: (user) => signedIn(user, redirectTo),
    onError: (error) => toast({ title: 'Login failed', description: error.message, variant: 'destructive' }),
  });
}

export function useRegister(redirectTo?: string) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<CurrentUser>('POST', '/api/register', input),
    onSuccess: (user) => signedIn(user, redirectTo),
    onError: (error) => toast({ title: 'Registration failed', description: error.message, variant: 'destructive' }),
  });
}

/**
 * Signed out (logout, or the account deleted): clears the user, resets the cache, clears local and
 * session storage (the chat's conversation) and goes to /auth. The theme preference is the one key kept: it is the device's setting, not the
 * account's data.
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
    await navigate({ to: '/auth' });
  };
}

export function useLogout() {
  const signedOut = useSignedOut();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', '/api/logout'),
    onSuccess: signedOut,
    onError: (error) => toast({ title: 'Logout failed', description: error.message, variant: 'destructive' }),
  });
}

/** Deletes the caller's account and everything in it; the server ends the session, the app signs out. */
export function useDeleteAccount() {
  const signedOut = useSignedOut();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('DELETE', '/api/user'),
    onSuccess: async () => {
      await signedOut();
      toast({ title: 'Account deleted', description: 'Your account and all of its data have been deleted.' });
    },
    onError: (error) =>
      toast({ title: 'Failed to delete account', description: error.message, variant: 'destructive' }),
  });
}
