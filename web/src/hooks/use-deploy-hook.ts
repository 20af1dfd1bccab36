import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';

/**
 * A project's deploy webhook URL, if its owner made one. With its mutations rather than in
 * lib/queries.ts, which every first load carries: only the project page's webhook card reads it.
 */
export const deployHookQuery = (id: string) =>
  queryOptions({
    queryKey: ['deploy-hook', id],
    queryFn: () => apiRequest<{ url: string | null }>('GET', `/api/projects/${id}/deploy-hook`),
  });

/** A new deploy webhook URL for the project (the old one, if any, stops working). */
export function useCreateDeployHook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', `/api/projects/${projectId}/deploy-hook`),
    onSuccess: ({ url }) => queryClient.setQueryData(deployHookQuery(projectId).queryKey, { url }),
  });
}

export function useDeleteDeployHook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', `/api/projects/${projectId}/deploy-hook`),
    onSuccess: () => queryClient.setQueryData(deployHookQuery(projectId).queryKey, { url: null }),
  });
}
