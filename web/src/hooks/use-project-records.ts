import type { RecordBackupInput, RecordDeploymentInput, RecordVersionInput } from '@shiplog/schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { told } from '../lib/told';
import { useRefresh } from './use-projects';

/**
 * Recording a backup, a deployment or a release on a project (the record forms, loaded when one first
 * opens): each refreshes what useRefresh does, so every screen shows it on the timeline.
 */
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
