import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import type { MadeSecretLink, SecretLinkState } from '../lib/secret-links';
import { told } from '../lib/told';

/**
 * Whether the project has a deploy webhook, and since when (its URL is shown only when made). With
 * its mutations rather than in lib/queries.ts, which every first load carries: only the project
 * page's webhook card reads it.
 */
export const deployHookQuery = (id: string) =>
  queryOptions({
    queryKey: ['deploy-hook', id],
    queryFn: () => apiRequest<SecretLinkState>('GET', `/api/projects/${id}/deploy-hook`),
  });

/** A new deploy webhook URL for the project (the old one, if any, stops working): the only time it is shown. */
export function useCreateDeployHook(projectId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = deployHookQuery(projectId);
  return useMutation({
    mutationFn: () => apiRequest<MadeSecretLink>('POST', `/api/projects/${projectId}/deploy-hook`),
    // Whether a hook was on before this one, noted before the request: then this one replaced it.
    onMutate: () => ({ replacing: queryClient.getQueryData(queryKey)?.active === true }),
    onSuccess: ({ createdAt }) => queryClient.setQueryData(queryKey, { active: true, createdAt }),
    meta: told({
      success: (_made: MadeSecretLink, _sent: unknown, before: { replacing: boolean } | undefined) =>
        before?.replacing
          ? { title: 'New webhook URL', description: 'The old URL no longer records deployments.' }
          : null,
      failure: 'Error',
    }),
  });
}

export function useDeleteDeployHook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', `/api/projects/${projectId}/deploy-hook`),
    onSuccess: () => queryClient.setQueryData(deployHookQuery(projectId).queryKey, { active: false, createdAt: null }),
    meta: told({
      success: { title: 'Deploy webhook turned off', description: 'Its URL no longer works.' },
      failure: 'Error',
    }),
  });
}
