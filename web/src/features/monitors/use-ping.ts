import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import type { SecretLinkState } from '../../lib/secret-links';
import { useMakeSecretLink, useTurnOffSecretLink } from '../../lib/use-secret-link';

/** A run a cron job pinged: started, ended well or failed, and how long it took. */
export interface PingRun {
  startedAt: string;
  endedAt: string | null;
  outcome: 'running' | 'ok' | 'failed';
  seconds: number | null;
}

/** The project's cron ping URL (shown only when made) and its latest runs. */
export const pingQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.ping, id],
    queryFn: () => apiRequest<SecretLinkState & { runs: PingRun[] }>('GET', `/api/projects/${id}/ping`),
  });

export const useCreatePing = (projectId: string) =>
  useMakeSecretLink(`/api/projects/${projectId}/ping`, pingQuery(projectId).queryKey, {
    title: 'New ping URL',
    description: 'The old URL no longer records runs.',
  });

export const useDeletePing = (projectId: string) =>
  useTurnOffSecretLink(`/api/projects/${projectId}/ping`, pingQuery(projectId).queryKey, {
    title: 'Ping URL turned off',
    description: 'Its URL no longer works.',
  });
