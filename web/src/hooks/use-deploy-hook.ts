import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { deployHookQuery } from '../lib/queries';

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
