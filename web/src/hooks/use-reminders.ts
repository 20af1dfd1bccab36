import type { CreateReminderInput, Reminder, UpdateReminderInput } from '@shiplog/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api';
import { keys } from '../lib/queries';

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
  return useMutation({
    mutationFn: (body: ReminderBody | (Omit<UpdateReminderInput, 'dueDate'> & { dueDate?: string })) =>
      id
        ? apiRequest<Reminder>('PATCH', `/api/reminders/${id}`, body)
        : apiRequest<Reminder>('POST', '/api/reminders', body),
    onSuccess: refresh,
  });
}

export function useReminderAction(action: 'complete' | 'reactivate' | 'delete') {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) =>
      action === 'delete'
        ? apiRequest<null>('DELETE', `/api/reminders/${id}`)
        : apiRequest<Reminder>('POST', `/api/reminders/${id}/${action}`),
    onSuccess: refresh,
  });
}
