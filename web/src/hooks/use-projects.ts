import type {
  CreateProjectInput,
  Project,
  QuickUpdateInput,
  RecordBackupInput,
  RecordDeploymentInput,
  RecordVersionInput,
  UpdateProjectInput,
} from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../lib/api';
import { keys, projectQuery, userQuery } from '../lib/queries';
import { told } from '../lib/told';

/**
 * Project mutations. Each refreshes the project list, the timelines and the dashboard (TanStack Query
 * keys), so every screen shows the change; the gateway's read-your-writes makes the refetch include it.
 */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [keys.projects, keys.activities, keys.dashboard].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useCreateProject() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: Partial<CreateProjectInput>) => apiRequest<Project>('POST', '/api/projects', input),
    onSuccess: refresh,
    meta: told({
      success: { title: 'Project created successfully!', description: 'Your project has been created.' },
      failure: 'Failed to create project',
    }),
  });
}

/** What an update says (spec/core.md §8): made in place (a tick, the status) or saved from the edit form. */
const updateTold = {
  inPlace: told({
    failure: (error) => ({ title: 'Error', description: `Failed to update project: ${error.message}` }),
  }),
  form: told({
    success: { title: 'Project updated successfully!', description: 'Your project has been updated.' },
    failure: 'Failed to update project',
  }),
};

export function useUpdateProject(id: string, from: keyof typeof updateTold = 'inPlace') {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: Partial<UpdateProjectInput>) => apiRequest<Project>('PUT', `/api/projects/${id}`, input),
    onSuccess: refresh,
    meta: updateTold[from],
  });
}

export function useDeleteProject() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<null>('DELETE', `/api/projects/${id}`),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: projectQuery(id).queryKey });
      await refresh();
    },
    meta: told({
      success: { title: 'Project deleted', description: 'The project has been successfully deleted.' },
      failure: (error) => ({ title: 'Error', description: `Failed to delete project: ${error.message}` }),
    }),
  });
}

export function useQuickUpdate() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: QuickUpdateInput) =>
      apiRequest<unknown>('POST', '/api/activities', {
        projectId: input.projectId,
        notes: input.notes,
        eventType: input.redeployed ? 'deployment' : input.backedUp ? 'backup_created' : 'project_updated',
        status: 'success',
        metadata: { redeployed: input.redeployed, backedUp: input.backedUp, timestamp: new Date().toISOString() },
      }),
    onSuccess: refresh,
    // The plan changed elsewhere (cancelled, say): read it again so the button shows the truth.
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'SUBSCRIPTION_REQUIRED')
        void queryClient.invalidateQueries({ queryKey: userQuery.queryKey });
    },
    meta: told({
      success: { title: 'Update saved', description: 'Your changes have been recorded in the project timeline.' },
      failure: (error) => ({ title: 'Error', description: `Failed to save update: ${error.message}` }),
    }),
  });
}

export function useRecordBackup(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: Partial<RecordBackupInput>) => apiRequest<unknown>('POST', `/api/projects/${id}/backup`, input),
    onSuccess: refresh,
    meta: told({
      success: { title: 'Backup recorded', description: 'The backup is on the project timeline.' },
      failure: 'Failed to record backup',
    }),
  });
}

export function useRecordDeployment(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: Partial<RecordDeploymentInput>) =>
      apiRequest<unknown>('POST', `/api/projects/${id}/deployment`, input),
    onSuccess: refresh,
    meta: told({
      success: { title: 'Deployment recorded', description: 'The deployment is on the project timeline.' },
      failure: 'Failed to record deployment',
    }),
  });
}

export function useRecordVersion(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: Partial<RecordVersionInput>) =>
      apiRequest<unknown>('POST', `/api/projects/${id}/version`, input),
    onSuccess: refresh,
    meta: told({
      success: { title: 'Version release recorded', description: 'The release is on the project timeline.' },
      failure: 'Failed to record version release',
    }),
  });
}
