import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ToastInput } from '../ui/toast-item';
import { apiRequest } from './api';
import type { MadeSecretLink, SecretLinkState } from './secret-links';
import { told } from './told';

/**
 * A new secret link at `path` (the old one, if any, stops working): the only time its URL is shown.
 * `replaced` is said when it replaced one, noted before the request.
 */
export function useMakeSecretLink(path: string, queryKey: QueryKey, replaced?: ToastInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<MadeSecretLink>('POST', path),
    onMutate: () => ({ replacing: queryClient.getQueryData<SecretLinkState>(queryKey)?.active === true }),
    onSuccess: ({ createdAt }) =>
      queryClient.setQueryData<SecretLinkState>(queryKey, (state) => ({ ...state, active: true, createdAt })),
    meta: told({
      success: (_made: MadeSecretLink, _sent: unknown, before: { replacing: boolean } | undefined) =>
        replaced && before?.replacing ? replaced : null,
      failure: 'Error',
    }),
  });
}

/** Turns the secret link at `path` off: its URL no longer works. */
export function useTurnOffSecretLink(path: string, queryKey: QueryKey, turnedOff: ToastInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', path),
    onSuccess: () =>
      queryClient.setQueryData<SecretLinkState>(queryKey, (state) => ({ ...state, active: false, createdAt: null })),
    meta: told({ success: turnedOff, failure: 'Error' }),
  });
}
