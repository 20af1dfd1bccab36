import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminCommentRow,
  type AdminUser,
  type AdminUserCounts,
  type ContactMessage,
  type SubscriptionStatus,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiAnswer, apiRequest, useCreates } from '../../lib/api';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/** The admin dashboard's user table: one page of a server-side search. */
export const adminUsersQuery = (search: { q: string; page: number }) =>
  queryOptions({
    queryKey: [...keys.admin, 'users', search],
    queryFn: async () => {
      const { data, headers } = await apiAnswer<AdminUser[]>(
        'GET',
        `/api/admin/users?q=${encodeURIComponent(search.q)}&page=${search.page}&limit=${ADMIN_USERS_PAGE_SIZE}`,
      );
      return { users: data, total: Number(headers.get('x-total-count') ?? 0) };
    },
    placeholderData: (previous) => previous,
  });

export const adminUserCountsQuery = queryOptions({
  queryKey: [...keys.admin, 'users', 'summary'],
  queryFn: () => apiRequest<AdminUserCounts>('GET', '/api/admin/users/summary'),
});

export const allAdminCommentsQuery = queryOptions({
  queryKey: [...keys.adminComments, 'all'],
  queryFn: () => apiRequest<AdminCommentRow[]>('GET', '/api/admin/comments/all'),
});

export const contactMessagesQuery = queryOptions({
  queryKey: [...keys.admin, 'contact-messages'],
  queryFn: () => apiRequest<ContactMessage[]>('GET', '/api/admin/contact-messages'),
});

/** After any admin change: the dashboard's lists and counters, and everyone's messages. */
function useAdminRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.admin }),
      queryClient.invalidateQueries({ queryKey: keys.adminComments }),
    ]);
}

export function useChangeSubscriptionStatus() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: ({ userId, status }: { userId: string; status: SubscriptionStatus }) =>
      apiRequest('PUT', `/api/admin/users/${userId}/subscription`, { subscriptionStatus: status }),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to update subscription' }),
  });
}

export function useExtendTrial() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: ({ userId, days }: { userId: string; days: number }) =>
      apiRequest('POST', `/api/admin/users/${userId}/extend-trial`, { days }),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to extend trial' }),
  });
}

export function useDeleteUser() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: (userId: string) => apiRequest('DELETE', `/api/admin/users/${userId}`),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to delete user' }),
  });
}

type Priority = 'normal' | 'high' | 'urgent';

export function useCreateComment() {
  const refresh = useAdminRefresh();
  const creates = useCreates();
  return useMutation({
    mutationFn: (input: { message: string; priority: Priority }) => creates.post('/api/admin/comments', input),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to create comment' }),
  });
}

export function useUpdateComment() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: ({
      id,
      ...change
    }: { id: string } & ({ message: string; priority: Priority } | { isActive: boolean })) =>
      apiRequest('PUT', `/api/admin/comments/${id}`, { id, ...change }),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to update comment' }),
  });
}

export function useDeleteComment() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/admin/comments/${id}`),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to delete comment' }),
  });
}

export function useMarkContactMessage() {
  const refresh = useAdminRefresh();
  return useMutation({
    mutationFn: ({ id, handled }: { id: string; handled: boolean }) =>
      apiRequest('PUT', `/api/admin/contact-messages/${id}`, { handled }),
    onSuccess: refresh,
    meta: told({ failure: 'Failed to update message' }),
  });
}
