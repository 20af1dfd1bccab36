import type { Project, ProjectStatus } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys, optimistic } from '../../lib/queries';
import { told } from '../../lib/told';
import { useRefresh } from './use-projects';

/** What a bulk change does to each selected project (My Projects' selection). */
export type BulkChange = { status: ProjectStatus } | { isPublic: boolean } | 'delete';

/** How many of the selected projects took the change. */
interface BulkOutcome {
  done: number;
  of: number;
  failure: string | null;
}

const nameOf = (change: BulkChange) =>
  change === 'delete' ? 'deleted' : 'status' in change ? 'updated' : change.isPublic ? 'made public' : 'made private';

/**
 * One change to several projects: shown at once on every screen, then sent for each (the server takes
 * them one project at a time); the ones it refuses go back, and the toast counts what was done. A
 * deletion is told at once with an Undo and sent ten seconds later (lib/held.ts, decision 038).
 */
export function useBulkChange() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ ids, change }: { ids: string[]; change: BulkChange }): Promise<BulkOutcome> => {
      const { changeEverywhere } = await optimistic();
      const putBacks = new Map<string, () => void>();
      for (const id of ids)
        putBacks.set(
          id,
          await changeEverywhere<Project>(queryClient, [keys.projects, keys.dashboard], id, (project) =>
            change === 'delete' ? null : { ...project, ...change },
          ),
        );
      if (change === 'delete')
        try {
          await (await import('../../lib/held')).holdDeletion({ title: `${ids.length} project(s) ${nameOf(change)}` });
        } catch (undone) {
          for (const putBack of putBacks.values()) putBack();
          throw undone;
        }
      // One after another: each answer moves the read-your-writes position on, so the reads that follow
      // wait for the last change. Sent at once, whichever answer came last would set it, perhaps an
      // earlier position, and a read could show a project as it was before the others' changes.
      let done = 0;
      let failure: string | null = null;
      for (const id of ids) {
        try {
          if (change === 'delete') await apiRequest<null>('DELETE', `/api/projects/${id}`);
          else await apiRequest<Project>('PUT', `/api/projects/${id}`, change);
          done += 1;
        } catch (error) {
          putBacks.get(id)?.();
          failure ??= (error as Error).message;
        }
      }
      return { done, of: ids.length, failure };
    },
    onSettled: refresh,
    meta: told({
      success: ({ done, of, failure }: BulkOutcome, { change }: { change: BulkChange }) =>
        failure
          ? { title: `${done} of ${of} projects ${nameOf(change)}`, description: failure, variant: 'destructive' }
          : // A deletion was told, with its Undo, when it was made.
            change === 'delete'
            ? null
            : { title: `${done} project(s) ${nameOf(change)}` },
      failure: 'Failed to change the projects',
    }),
  });
}
