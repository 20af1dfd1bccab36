import {
  type AdminComment,
  type CurrentUser,
  type NotificationSettings,
  notificationTimeOptions,
  type Profile,
  type Project,
  type Reminder,
} from '@shiplog/schemas';
import { infiniteQueryOptions, QueryClient, queryOptions } from '@tanstack/react-query';
import { apiRequest, isUnauthorized } from './api';

/** Spec defaults: fresh 60 s, kept 5 min, no retries, no refetch on focus or interval. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 300_000,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

/** One factory per resource; invalidate by these keys. */
export const userQuery = queryOptions({
  queryKey: ['user'],
  // The current-user read treats 401 as "no user".
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await apiRequest<CurrentUser>('GET', '/api/user');
    } catch (error) {
      if (isUnauthorized(error)) return null;
      throw error;
    }
  },
});

export const projectsQuery = queryOptions({
  queryKey: ['projects'],
  queryFn: () => apiRequest<Project[]>('GET', '/api/projects'),
});

export const projectQuery = (id: string) =>
  queryOptions({
    queryKey: ['projects', id],
    queryFn: () => apiRequest<Project>('GET', `/api/projects/${id}`),
  });

export interface Activity {
  id: string;
  userId: string;
  projectId: string | null;
  eventType: string;
  action: string;
  details: string;
  metadata: Record<string, unknown>;
  version: string | null;
  status: string;
  timestamp: string;
}

export const projectActivitiesQuery = (id: string) =>
  queryOptions({
    queryKey: ['activities', 'project', id],
    queryFn: () => apiRequest<Activity[]>('GET', `/api/projects/${id}/activities`),
  });

export const ACTIVITY_PAGE_SIZE = 10;

/** Activity History: pages of 10; another page is offered while a page comes back full. */
export const activitiesInfiniteQuery = (userId: string | undefined) =>
  infiniteQueryOptions({
    // Keyed by user: paging starts over at page 1 when the user changes.
    queryKey: ['activities', 'history', userId],
    queryFn: ({ pageParam }) =>
      apiRequest<Activity[]>('GET', `/api/activities?page=${pageParam}&limit=${ACTIVITY_PAGE_SIZE}`),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _pages, lastPageParam) =>
      lastPage.length >= ACTIVITY_PAGE_SIZE ? lastPageParam + 1 : undefined,
  });

export const remindersQuery = queryOptions({
  queryKey: ['reminders'],
  queryFn: () => apiRequest<Reminder[]>('GET', '/api/reminders'),
});

/** The bell: refreshed every 60 s; any failure is logged and shows as an empty list (spec/core.md §7). */
export const bellRemindersQuery = queryOptions({
  queryKey: ['reminders', 'bell'],
  queryFn: async () => {
    try {
      return await apiRequest<Reminder[]>('GET', '/api/reminders');
    } catch (error) {
      console.error('Could not load reminders for the bell', error);
      return [] as Reminder[];
    }
  },
  refetchInterval: 60_000,
});

export const projectRemindersQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['reminders', 'project', projectId],
    queryFn: () => apiRequest<Reminder[]>('GET', `/api/reminders/project/${projectId}`),
  });

export const reminderQuery = (id: string) =>
  queryOptions({
    queryKey: ['reminders', 'one', id],
    queryFn: () => apiRequest<Reminder>('GET', `/api/reminders/${id}`),
  });

/** The eleven reminder times; on failure, the built-in list (spec/core.md §7). */
export const notificationTimesQuery = queryOptions({
  queryKey: ['reminders', 'notification-times'],
  queryFn: () =>
    apiRequest<{ value: string; label: string }[]>('GET', '/api/reminders/options/notification-times').catch(
      () => notificationTimeOptions,
    ),
  staleTime: Number.POSITIVE_INFINITY,
});

export type ProfileView = Profile & { username: string; email: string | null };

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: () => apiRequest<ProfileView>('GET', '/api/profile'),
});

export const notificationSettingsQuery = queryOptions({
  queryKey: ['notification-settings'],
  queryFn: () => apiRequest<NotificationSettings>('GET', '/api/notifications/settings'),
});

/** Active messages from the administrators (the sidebar and Settings). */
export const adminCommentsQuery = queryOptions({
  queryKey: ['admin-comments'],
  queryFn: () => apiRequest<AdminComment[]>('GET', '/api/admin/comments'),
});
