import type {
  CreateDomainMonitorInput,
  CreateExpectationInput,
  CreateMonitorInput,
  IncidentView,
  MonitorView,
  UpdateMonitorInput,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * A project's monitors, with their state, last check and uptime. With its mutations rather than in
 * lib/queries.ts, which every first load carries: only the project page reads it.
 */
export const projectMonitorsQuery = (projectId: string) =>
  queryOptions({
    queryKey: [...keys.monitors, 'project', projectId],
    queryFn: () => apiRequest<MonitorView[]>('GET', `/api/projects/${projectId}/monitors`),
    // An incident reaches the screen through the live feed (lib/live.ts), but a check's result is not
    // an event: the last check and uptime are read again every half minute while on screen, and every
    // two seconds while a new monitor waits for its first check.
    refetchInterval: (query) => (query.state.data?.some((m) => m.state === 'pending') ? 2000 : 30_000),
  });

/** Every monitor of the account, for the project cards of /projects (the dashboard's come with its query). */
export const accountMonitorsQuery = queryOptions({
  queryKey: [...keys.monitors, 'all'],
  queryFn: () => apiRequest<MonitorView[]>('GET', '/api/monitors'),
});

/** A monitor's incidents, open and past, with their notes. */
export const monitorIncidentsQuery = (monitorId: string) =>
  queryOptions({
    queryKey: [...keys.monitors, 'incidents', monitorId],
    queryFn: () => apiRequest<IncidentView[]>('GET', `/api/monitors/${monitorId}/incidents`),
  });

/** Monitor changes refresh every monitor list and the timelines (an incident or a new monitor is on them). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [keys.monitors, keys.activities, keys.dashboard].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useAddMonitor(projectId: string) {
  const refresh = useRefresh();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: Partial<CreateMonitorInput> | CreateExpectationInput | CreateDomainMonitorInput) =>
      creates.post<MonitorView>(`/api/projects/${projectId}/monitors`, input),
    onSuccess: refresh,
    meta: told({
      success: (monitor: MonitorView) => ({
        title: 'Monitor added',
        description:
          monitor.kind === 'http'
            ? `Checking ${monitor.url}`
            : monitor.kind === 'domain'
              ? `Watching the registration of ${monitor.url}`
              : `Expecting a ${monitor.kind} on time`,
      }),
      failure: 'Failed to add monitor',
    }),
  });
}

/** A monitor's settings changed in place: its incidents, results and uptime stay. */
export function useChangeMonitor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Omit<UpdateMonitorInput, 'paused'> }) =>
      apiRequest<MonitorView>('PATCH', `/api/monitors/${id}`, changes),
    onSuccess: refresh,
    meta: told({ success: { title: 'Monitor saved' }, failure: 'Failed to save monitor' }),
  });
}

export function usePauseMonitor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      apiRequest<MonitorView>('PATCH', `/api/monitors/${id}`, { paused }),
    onSuccess: refresh,
    meta: told({
      success: (_monitor, { paused }: { paused: boolean }) => ({
        title: paused ? 'Monitor paused' : 'Monitor resumed',
      }),
      failure: 'Failed to update monitor',
    }),
  });
}

export function useRemoveMonitor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', `/api/monitors/${id}`),
    onSuccess: refresh,
    meta: told({ success: { title: 'Monitor removed' }, failure: 'Failed to remove monitor' }),
  });
}

/** The owner's note on a closed incident: what happened. */
export function useNoteIncident(monitorId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ incidentId, note }: { incidentId: string; note: string }) =>
      apiRequest<{ id: string; note: string }>('PUT', `/api/monitors/${monitorId}/incidents/${incidentId}/note`, {
        note,
      }),
    onSuccess: refresh,
    meta: told({ success: { title: 'Note saved' }, failure: 'Failed to save note' }),
  });
}
