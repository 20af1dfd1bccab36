import type { Activity, RecordBackupInput, RecordDeploymentInput, RecordVersionInput } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCreates } from '../../lib/api';
import { projectActivitiesQuery, projectQuery, userQuery } from '../../lib/queries';
import { type Told, told } from '../../lib/told';
import { useRefresh } from './use-projects';

/** What a record adds to the timeline, as the activity service writes it (services/activity timeline.ts). */
type Entry = Pick<Activity, 'eventType' | 'action' | 'details' | 'version' | 'metadata'>;

const blank = (value: string | null | undefined) => (value ? value : null);

/**
 * Recording a backup, a deployment or a release on a project (the record forms, loaded when one first
 * opens). The entry is on the project's timeline at once, before the server answers; a refusal takes it
 * off and says why. Then every screen is read again (useRefresh), which brings the server's own entry.
 */
function useRecord<TInput>(
  id: string,
  path: 'backup' | 'deployment' | 'version',
  entry: (input: TInput, name: string) => Entry,
  texts: Told<unknown, TInput>,
) {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const timeline = projectActivitiesQuery(id).queryKey;
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: TInput) => creates.post<unknown>(`/api/projects/${id}/${path}`, input),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: timeline });
      const before = queryClient.getQueryData(timeline);
      const name = queryClient.getQueryData(projectQuery(id).queryKey)?.name ?? '';
      const provisional: Activity = {
        id: `pending-${crypto.randomUUID()}`,
        userId: queryClient.getQueryData(userQuery.queryKey)?.id ?? '',
        // The user's own, made in the app: nothing to say of who.
        actor: null,
        projectId: id,
        status: 'success',
        timestamp: new Date().toISOString(),
        ...entry(input, name),
      };
      queryClient.setQueryData(timeline, (old) => [provisional, ...(old ?? [])]);
      return () => queryClient.setQueryData(timeline, before);
    },
    onError: (_error, _input, putBack) => putBack?.(),
    onSettled: refresh,
    meta: told(texts),
  });
}

export const useRecordBackup = (id: string) =>
  useRecord<Partial<RecordBackupInput>>(
    id,
    'backup',
    (input, name) => ({
      eventType: 'backup_created',
      action: 'created',
      details: `Backup created: ${name}`,
      version: blank(input.version),
      metadata: {
        notes: blank(input.notes),
        location: blank(input.backupDetails?.location),
        size: blank(input.backupDetails?.size),
      },
    }),
    {
      success: { title: 'Backup recorded', description: 'The backup is on the project timeline.' },
      failure: 'Failed to record backup',
    },
  );

export const useRecordDeployment = (id: string) =>
  useRecord<Partial<RecordDeploymentInput>>(
    id,
    'deployment',
    (input, name) => {
      const environment = input.environment ?? 'production';
      return {
        eventType: 'deployment',
        action: 'deployed',
        details: `Deployed to ${environment}: ${name}`,
        version: blank(input.version),
        metadata: { environment, deploymentUrl: blank(input.url), notes: blank(input.notes) },
      };
    },
    {
      success: { title: 'Deployment recorded', description: 'The deployment is on the project timeline.' },
      failure: 'Failed to record deployment',
    },
  );

export const useRecordVersion = (id: string) =>
  useRecord<Partial<RecordVersionInput>>(
    id,
    'version',
    (input, name) => ({
      eventType: 'version_release',
      action: 'released',
      details: `Released ${input.version}: ${name}`,
      version: blank(input.version),
      metadata: { changes: input.changes ?? [], notes: blank(input.notes) },
    }),
    {
      success: { title: 'Version release recorded', description: 'The release is on the project timeline.' },
      failure: 'Failed to record version release',
    },
  );
