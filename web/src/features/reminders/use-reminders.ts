import {
  type CreateReminderInput,
  notificationTimeOptions,
  type Reminder,
  type UpdateReminderInput,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys, optimistic } from '../../lib/queries';
import { told } from '../../lib/told';

/** The eleven reminder times; on failure, the built-in list (spec/core.md §7). */
export const notificationTimesQuery = queryOptions({
  queryKey: [...keys.reminders, 'notification-times'],
  queryFn: () =>
    apiRequest<{ value: string; label: string }[]>('GET', '/api/reminders/options/notification-times').catch(
      () => notificationTimeOptions,
    ),
  staleTime: Number.POSITIVE_INFINITY,
});

type ReminderBody = Omit<CreateReminderInput, 'dueDate'> & { dueDate: string };

/** Reminder mutations refresh every reminder list, the timelines and the dashboard. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [keys.reminders, keys.activities, keys.dashboard].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useSaveReminder(id?: string) {
  const refresh = useRefresh();
  const creates = useCreates();
  return useMutation({
    mutationFn: (body: ReminderBody | (Omit<UpdateReminderInput, 'dueDate'> & { dueDate?: string })) =>
      id ? apiRequest<Reminder>('PATCH', `/api/reminders/${id}`, body) : creates.post<Reminder>('/api/reminders', body),
    onSuccess: refresh,
    meta: told({
      success: (_saved, body: { title?: string }) => ({
        title: id ? 'Reminder updated' : 'Reminder added',
        description: body.title,
      }),
      failure: (error) => ({
        title: 'Failed to save reminder',
        description: error.message || 'There was an error saving your reminder',
      }),
    }),
  });
}

const actionFailures = {
  complete: 'Failed to complete reminder',
  reactivate: 'Failed to reactivate reminder',
  delete: 'Failed to delete reminder',
} as const;

/**
 * Completing, reactivating or deleting a reminder shows at once in every list, the bell and the
 * dashboard, and goes back if the server refuses it. A deletion waits ten seconds for an Undo before
 * it is sent (lib/held.ts, decision 038).
 */
export function useReminderAction(action: keyof typeof actionFailures) {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      if (action !== 'delete') return apiRequest<Reminder>('POST', `/api/reminders/${id}/${action}`);
      await (await import('../../lib/held')).holdDeletion({ title: 'Reminder deleted' });
      return apiRequest<null>('DELETE', `/api/reminders/${id}`);
    },
    onMutate: async (id) =>
      (await optimistic()).changeEverywhere<Reminder>(queryClient, [keys.reminders, keys.dashboard], id, (reminder) =>
        action === 'delete' ? null : { ...reminder, isCompleted: action === 'complete' },
      ),
    onError: (_error, _id, putBack) => putBack?.(),
    onSettled: refresh,
    meta: told({ failure: actionFailures[action] }),
  });
}
