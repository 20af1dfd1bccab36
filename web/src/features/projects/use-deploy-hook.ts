import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import type { SecretLinkState } from '../../lib/secret-links';
import { useMakeSecretLink, useTurnOffSecretLink } from '../../lib/use-secret-link';

/**
 * Whether the project has a deploy webhook, and since when (its URL is shown only when made). With
 * its mutations rather than in lib/queries.ts, which every first load carries: only the project
 * page's webhook card reads it.
 */
export const deployHookQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.deployHook, id],
    queryFn: () => apiRequest<SecretLinkState>('GET', `/api/projects/${id}/deploy-hook`),
  });

/** A new deploy webhook URL for the project (the old one, if any, stops working): the only time it is shown. */
export const useCreateDeployHook = (projectId: string) =>
  useMakeSecretLink(`/api/projects/${projectId}/deploy-hook`, deployHookQuery(projectId).queryKey, {
    title: 'New webhook URL',
    description: 'The old URL no longer records deployments.',
  });

export const useDeleteDeployHook = (projectId: string) =>
  useTurnOffSecretLink(`/api/projects/${projectId}/deploy-hook`, deployHookQuery(projectId).queryKey, {
    title: 'Deploy webhook turned off',
    description: 'Its URL no longer works.',
  });
