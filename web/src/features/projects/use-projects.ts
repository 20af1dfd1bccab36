import {
  type ChecklistKey,
  type CreateProjectInput,
  checklistKeys,
  type Project,
  type QuickUpdateInput,
  type UpdateProjectInput,
} from '@shiplog/schemas';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, useCreates } from '../../lib/api';
import { keys, optimistic, projectQuery, projectsQuery, userQuery } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * Project mutations. Each refreshes the project list, the timelines and the dashboard (TanStack Query
 * keys), so every screen shows the change; the gateway's read-your-writes makes the refetch include it.
 */
export function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [keys.projects, keys.activities, keys.dashboard].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useCreateProject() {
  const refresh = useRefresh();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: Partial<CreateProjectInput>) => creates.post<Project>('/api/projects', input),
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

/** The project `id` as the screens show it now: its page's copy, or its card's in the list. */
function shownProject(queryClient: QueryClient, id: string): Project | undefined {
  return (
    queryClient.getQueryData(projectQuery(id).queryKey) ??
    queryClient.getQueryData(projectsQuery.queryKey)?.find((project) => project.id === id)
  );
}

/**
 * A change made in place (a checklist tick, a status) shows at once on every screen and goes back if
 * the server refuses it; the changes to one project are sent one after another, in the order made.
 * A tick names its one flag; its PUT carries all five (spec/core.md §4) as the screens show them when
 * it is sent, so a second tick made before the first was drawn cannot send the first one's old value.
 */
export function useUpdateProject(id: string, from: keyof typeof updateTold = 'inPlace') {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<UpdateProjectInput>) => {
      const ticked = checklistKeys.some((key) => key in input);
      const checklist = ticked ? shownProject(queryClient, id)?.checklist : undefined;
      return apiRequest<Project>('PUT', `/api/projects/${id}`, { id, ...checklist, ...input });
    },
    onMutate: async (input) =>
      from === 'inPlace'
        ? (await optimistic()).changeEverywhere<Project>(
            queryClient,
            [keys.projects, keys.dashboard],
            id,
            (project) => ({
              ...project,
              status: input.status ?? project.status,
              // A tick sends the five flags at the top level (spec/core.md §4), the form inside `checklist`.
              checklist: Object.fromEntries(
                checklistKeys.map((key) => [
                  key,
                  (input as Partial<Record<ChecklistKey, boolean>>)[key] ??
                    input.checklist?.[key] ??
                    project.checklist[key],
                ]),
              ) as Project['checklist'],
            }),
          )
        : undefined,
    onError: (_error, _input, putBack) => putBack?.(),
    // Read again once the last of a quick run of ticks is saved: an earlier answer would undo a later tick.
    onSettled: () => (queryClient.isMutating({ mutationKey: ['update-project', id] }) <= 1 ? refresh() : undefined),
    mutationKey: ['update-project', id],
    scope: { id: `project-${id}` },
    meta: updateTold[from],
  });
}

/**
 * Deleting a project: gone from every screen at once, with an Undo in the spec's toast for ten
 * seconds; only then is it sent (lib/held.ts, decision 038). A refusal puts it back and says why.
 */
export function useDeleteProject() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await (await import('../../lib/held')).holdDeletion({
        title: 'Project deleted',
        description: 'The project has been successfully deleted.',
      });
      await apiRequest<null>('DELETE', `/api/projects/${id}`);
    },
    onMutate: async (id) =>
      (await optimistic()).changeEverywhere<Project>(queryClient, [keys.projects, keys.dashboard], id, () => null),
    onError: (_error, _id, putBack) => putBack?.(),
    onSuccess: (_data, id) => queryClient.removeQueries({ queryKey: projectQuery(id).queryKey }),
    onSettled: refresh,
    meta: told({
      failure: (error) => ({ title: 'Error', description: `Failed to delete project: ${error.message}` }),
    }),
  });
}

export function useQuickUpdate() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: QuickUpdateInput) =>
      creates.post<unknown>('/api/activities', {
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

/**
 * Moving a project to a team workspace (`workspaceId`), or to the user's personal space (null): every
 * screen reads it again in its new space. The caller is an owner or admin of both sides.
 */
export function useMoveProject(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (move: { workspaceId: string | null; to: string }) =>
      apiRequest<Project>('POST', `/api/projects/${id}/move`, { workspaceId: move.workspaceId }),
    onSuccess: refresh,
    meta: told<Project, { workspaceId: string | null; to: string }>({
      success: (project, move) => ({ title: 'Project moved', description: `${project.name} is in ${move.to} now.` }),
      failure: 'Failed to move project',
    }),
  });
}
