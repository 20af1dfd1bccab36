import type { ApiTokenView } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/** The user's personal API tokens (Settings), newest first; their text is shown once, at creation. */
export const apiTokensQuery = queryOptions({
  queryKey: keys.apiTokens,
  queryFn: () => apiRequest<ApiTokenView[]>('GET', '/api/tokens'),
});

/** A new personal API token: the answer holds its text, which is never shown again. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: { name: string }) => creates.post<ApiTokenView & { token: string }>('/api/tokens', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
    meta: told({ failure: 'Failed to create token' }),
  });
}

/** A token stops working at its next use. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: Pick<ApiTokenView, 'id' | 'name'>) => apiRequest<null>('DELETE', `/api/tokens/${token.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
    meta: told({
      success: (_done, token: Pick<ApiTokenView, 'name'>) => ({
        title: 'Token revoked',
        description: `“${token.name}” no longer works.`,
      }),
      failure: 'Failed to revoke token',
    }),
  });
}
