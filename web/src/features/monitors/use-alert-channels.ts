import type { AlertChannelView, AlertDeliveryView, CreateAlertChannelInput, MadeAlertChannel } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * Where the user's alerts go besides email, and the log of what was sent. With their mutations rather
 * than in lib/queries.ts, which every first load carries: only Settings › Notifications reads them.
 */
export const alertChannelsQuery = queryOptions({
  queryKey: [...keys.monitors, 'channels'],
  queryFn: () => apiRequest<AlertChannelView[]>('GET', '/api/alert-channels'),
});

/** Whether this server sends alert emails at all: without a mail server, only channels reach anyone. */
export const alertEmailQuery = queryOptions({
  queryKey: [...keys.monitors, 'email'],
  queryFn: () => apiRequest<{ sends: boolean }>('GET', '/api/alert-channels/email'),
  staleTime: Number.POSITIVE_INFINITY,
});

export const alertDeliveriesQuery = queryOptions({
  queryKey: [...keys.monitors, 'deliveries'],
  queryFn: () => apiRequest<AlertDeliveryView[]>('GET', '/api/alert-channels/deliveries'),
  // Retries happen on the server over minutes: the log is read again while it is on screen.
  refetchInterval: 30_000,
});

/** A new channel: a generic webhook's answer holds its signing secret, which is never shown again. */
export function useAddAlertChannel() {
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: CreateAlertChannelInput) => creates.post<MadeAlertChannel>('/api/alert-channels', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertChannelsQuery.queryKey }),
    meta: told({ failure: 'Failed to add the channel' }),
  });
}

export function useRemoveAlertChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: Pick<AlertChannelView, 'id' | 'name'>) =>
      apiRequest<null>('DELETE', `/api/alert-channels/${channel.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertChannelsQuery.queryKey }),
    meta: told({
      success: (_done, channel: Pick<AlertChannelView, 'name'>) => ({
        title: 'Channel removed',
        description: `Alerts no longer go to “${channel.name}”.`,
      }),
      failure: 'Failed to remove the channel',
    }),
  });
}

/** A test alert through the channel, at once: the toast says whether it arrived. */
export function useTestAlertChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: Pick<AlertChannelView, 'id' | 'name'>) =>
      apiRequest<AlertDeliveryView>('POST', `/api/alert-channels/${channel.id}/test`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertDeliveriesQuery.queryKey }),
    meta: told({
      success: (delivery: AlertDeliveryView) =>
        delivery.state === 'sent'
          ? { title: 'Test alert sent', description: `“${delivery.channelName}” accepted it.` }
          : {
              title: 'Test alert failed',
              description: `“${delivery.channelName}” answered: ${delivery.lastError ?? 'no answer'}.`,
              variant: 'destructive',
            },
      failure: 'Failed to send a test alert',
    }),
  });
}
