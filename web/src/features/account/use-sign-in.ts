import type { CurrentUser, LoginInput, RegisterInput } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiRequest } from '../../lib/api';
import { noteSignedIn } from '../../lib/dashboard-query';
import { userQuery } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * Sign-in and registration success: empty the cache (nothing of another account stays), store the user.
 * A push subscription the browser still holds was made in a session that has ended (the server forgot
 * its device then): it ends too, so Settings never shows push on for a device that gets none.
 */
function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (user: CurrentUser, redirectTo?: string) => {
    await (await import('../../lib/service-worker')).unsubscribeDevice().catch(() => null);
    queryClient.clear();
    queryClient.setQueryData(userQuery.queryKey, user);
    noteSignedIn(true);
    await navigate({ to: redirectTo ?? '/' });
  };
}

export function useLogin(redirectTo?: string) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<CurrentUser>('POST', '/api/login', input),
    onSuccess: (user) => signedIn(user, redirectTo),
    meta: told({ failure: 'Login failed' }),
  });
}

export function useRegister(redirectTo?: string) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<CurrentUser>('POST', '/api/register', input),
    onSuccess: (user) => signedIn(user, redirectTo),
    meta: told({ failure: 'Registration failed' }),
  });
}
