import type { AlertChannelView, AlertDeliveryView, CreateAlertChannelInput, MadeAlertChannel } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/**
 * Where alerts go besides email, and the log of what was sent: the user's own (`OWN_CHANNELS`), or a
 * team workspace's (`teamChannels(id)`). With their mutations rather than in lib/queries.ts, which
 * every first load carries: only Settings › Notifications and a workspace's page read them.
 */
export const OWN_CHANNELS = '/api/alert-channels';
export const teamChannels = (workspaceId: string) => `/api/workspaces/${workspaceId}/alert-channels`;

export const alertChannelsQuery = (base = OWN_CHANNELS) =>
  queryOptions({
    queryKey: [...keys.monitors, 'channels', base],
    queryFn: () => apiRequest<AlertChannelView[]>('GET', base),
  });

/** Whether this server sends alert emails at all: without a mail server, only channels reach anyone. */
export const alertEmailQuery = queryOptions({
  queryKey: [...keys.monitors, 'email'],
  queryFn: () => apiRequest<{ sends: boolean }>('GET', '/api/alert-channels/email'),
  staleTime: Number.POSITIVE_INFINITY,
});

export const alertDeliveriesQuery = (base = OWN_CHANNELS) =>
  queryOptions({
    queryKey: [...keys.monitors, 'deliveries', base],
    queryFn: () => apiRequest<AlertDeliveryView[]>('GET', `${base}/deliveries`),
    // Retries happen on the server over minutes: the log is read again while it is on screen.
    refetchInterval: 30_000,
  });

/** A new channel: a generic webhook's answer holds its signing secret, which is never shown again. */
export function useAddAlertChannel(base = OWN_CHANNELS) {
  const queryClient = useQueryClient();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: CreateAlertChannelInput) => creates.post<MadeAlertChannel>(base, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertChannelsQuery(base).queryKey }),
    meta: told({ failure: 'Failed to add the channel' }),
  });
}

export function useRemoveAlertChannel(base = OWN_CHANNELS) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: Pick<AlertChannelView, 'id' | 'name'>) => apiRequest<null>('DELETE', `${base}/${channel.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertChannelsQuery(base).queryKey }),
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
export function useTestAlertChannel(base = OWN_CHANNELS) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: Pick<AlertChannelView, 'id' | 'name'>) =>
      apiRequest<AlertDeliveryView>('POST', `${base}/${channel.id}/test`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertDeliveriesQuery(base).queryKey }),
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
