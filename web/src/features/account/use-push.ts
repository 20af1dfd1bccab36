import type { PushState } from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { keys } from '../../lib/queries';
import { deviceLabel, devicePush, subscribeDevice, unsubscribeDevice } from '../../lib/service-worker';
import { told } from '../../lib/told';

/** The server's side: its VAPID public key (null: push is off on this server), and the user's devices. */
export const pushQuery = queryOptions({
  queryKey: keys.push,
  queryFn: () => apiRequest<PushState>('GET', '/api/reminders/push'),
});

/** This browser's side: whether it can, and whether it does. */
export const devicePushQuery = queryOptions({
  queryKey: [...keys.push, 'device'],
  queryFn: devicePush,
  staleTime: 0,
});

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.push });
}

export function useTurnOnPush() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (publicKey: string) => {
      const subscription = await subscribeDevice(publicKey);
      return apiRequest<PushState>('POST', '/api/reminders/push/subscriptions', {
        ...subscription,
        label: deviceLabel(),
      });
    },
    onSettled: refresh,
    meta: told({
      success: { title: 'Push reminders on', description: 'Reminders will reach this device.' },
      failure: 'Could not turn on push reminders',
    }),
  });
}

export function useTurnOffPush() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async () => {
      const endpoint = await unsubscribeDevice();
      if (endpoint) await apiRequest<PushState>('DELETE', '/api/reminders/push/subscriptions', { endpoint });
    },
    onSettled: refresh,
    meta: told({
      success: { title: 'Push reminders off', description: 'This device will get no more push reminders.' },
      failure: 'Could not turn off push reminders',
    }),
  });
}

export function useTestPush() {
  return useMutation({
    mutationFn: () => apiRequest<{ sent: number; devices: number }>('POST', '/api/reminders/push/test'),
    meta: told({
      success: ({ sent, devices }: { sent: number; devices: number }) => ({
        title: 'Test notification sent',
        description: `Sent to ${sent} of ${devices} device(s).`,
      }),
      failure: 'Could not send a test notification',
    }),
  });
}
