import type {
  DiagnosticsResponse,
  Domain,
  ImportDomainsInput,
  ImportDomainsResponse,
  Integration,
  IntegrationForm,
  TestConnectionResponse,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

export const integrationsQuery = queryOptions({
  queryKey: keys.integrations,
  queryFn: () => apiRequest<Integration[]>('GET', '/api/integrations'),
});

/** An integration's domains, read from its external API when the domains dialog opens (never cached stale). */
export const integrationDomainsQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.integrations, id, 'domains'],
    queryFn: () => apiRequest<(Domain & { imported: boolean })[]>('GET', `/api/integrations/${id}/projects`),
    staleTime: 0,
  });

export function useSaveIntegration() {
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (form: IntegrationForm) => creates.post<Integration>('/api/integrations', form),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsQuery.queryKey }),
    meta: told({
      success: { title: 'Integration configured successfully', description: 'Your API connection has been saved' },
      failure: 'Failed to save configuration',
    }),
  });
}

/** Test Connection: the form's values, nothing stored. */
export function useTestConnection() {
  return useMutation({
    mutationFn: (form: IntegrationForm) => apiRequest<TestConnectionResponse>('POST', '/api/integration/test', form),
  });
}

/** Advanced Diagnostics: each way of sending the key, tried (up to 30 seconds). */
export function useDiagnostics() {
  return useMutation({
    mutationFn: (form: IntegrationForm) =>
      apiRequest<DiagnosticsResponse>('POST', '/api/integration/diagnostics', form),
  });
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', `/api/integrations/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsQuery.queryKey }),
    meta: told({ success: { title: 'Integration deleted' }, failure: 'Failed to delete integration' }),
  });
}

/** Imports the selected domains as projects: every screen that shows projects, the timeline or reminders refreshes. */
export function useImportDomains(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportDomainsInput) =>
      apiRequest<ImportDomainsResponse>('POST', `/api/integrations/${id}/import`, input),
    onSuccess: async () => {
      await Promise.all(
        [keys.integrations, keys.projects, keys.activities, keys.reminders, keys.dashboard].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    meta: told({
      success: (result: ImportDomainsResponse) => ({
        title: 'Domains imported successfully',
        description: result.message,
      }),
      failure: 'Failed to import domains',
    }),
  });
}
