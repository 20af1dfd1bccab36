import {
  type Activity,
  ADMIN_USERS_PAGE_SIZE,
  type AdminComment,
  type AdminCommentRow,
  type AdminUser,
  type AdminUserCounts,
  type ApiTokenView,
  type ChatUsage,
  type ContactMessage,
  type CurrentUser,
  type Domain,
  type Integration,
  type NotificationSettings,
  notificationTimeOptions,
  type Price,
  type Profile,
  type Project,
  type Reminder,
  type SubscriptionView,
} from '@shiplog/schemas';
import { infiniteQueryOptions, MutationCache, QueryClient, queryOptions } from '@tanstack/react-query';
import { apiAnswer, apiRequest, isUnauthorized } from './api';
import type { SecretLinkState } from './secret-links';
import { showTold } from './told';

/**
 * Spec defaults: fresh 60 s, kept 5 min, no retries, no refetch on focus or interval. Every
 * mutation's toasts are shown by its cache, from what the mutation declares (lib/told.ts).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache(showTold),
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

/**
 * Each resource's key: its queries' keys start with it, so invalidating it refreshes all of them (a
 * mutation, the live feed). The dashboard's query (lib/graphql.ts) and the few one page reads
 * (sessions, a deploy webhook, a public profile) sit with their code, out of every first load.
 */
export const keys = {
  user: ['user'],
  projects: ['projects'],
  activities: ['activities'],
  reminders: ['reminders'],
  dashboard: ['dashboard'],
  profile: ['profile'],
  notificationSettings: ['notification-settings'],
  apiTokens: ['api-tokens'],
  adminComments: ['admin-comments'],
  subscription: ['subscription'],
  prices: ['prices'],
  admin: ['admin'],
  chatUsage: ['chat-usage'],
  monitors: ['monitors'],
  integrations: ['integrations'],
} as const;

/** One factory per resource; invalidate by `keys`. */
export const userQuery = queryOptions({
  queryKey: keys.user,
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
  queryKey: keys.projects,
  queryFn: () => apiRequest<Project[]>('GET', '/api/projects'),
});

export const projectQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.projects, id],
    queryFn: () => apiRequest<Project>('GET', `/api/projects/${id}`),
  });

export const projectActivitiesQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.activities, 'project', id],
    queryFn: () => apiRequest<Activity[]>('GET', `/api/projects/${id}/activities`),
  });

export const ACTIVITY_PAGE_SIZE = 10;

/** Activity History: pages of 10; another page is offered while a page comes back full. */
export const activitiesInfiniteQuery = (userId: string | undefined) =>
  infiniteQueryOptions({
    // Keyed by user: paging starts over at page 1 when the user changes.
    queryKey: [...keys.activities, 'history', userId],
    queryFn: ({ pageParam }) =>
      apiRequest<Activity[]>('GET', `/api/activities?page=${pageParam}&limit=${ACTIVITY_PAGE_SIZE}`),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _pages, lastPageParam) =>
      lastPage.length >= ACTIVITY_PAGE_SIZE ? lastPageParam + 1 : undefined,
  });

export const remindersQuery = queryOptions({
  queryKey: keys.reminders,
  queryFn: () => apiRequest<Reminder[]>('GET', '/api/reminders'),
});

/** What the bell and the dashboard show of a reminder. */
export type BellReminder = Pick<
  Reminder,
  'id' | 'projectId' | 'projectName' | 'title' | 'description' | 'dueDate' | 'isCompleted'
>;

/**
 * The bell: refreshed every 60 s; any failure is logged and shows as an empty list (spec/core.md §7).
 * On the dashboard its answer comes with the dashboard's (lib/graphql.ts).
 */
export const bellRemindersQuery = queryOptions({
  queryKey: [...keys.reminders, 'bell'],
  queryFn: async (): Promise<BellReminder[]> => {
    try {
      return await apiRequest<Reminder[]>('GET', '/api/reminders');
    } catch (error) {
      console.error('Could not load reminders for the bell', error);
      return [];
    }
  },
  refetchInterval: 60_000,
});

export const projectRemindersQuery = (projectId: string) =>
  queryOptions({
    queryKey: [...keys.reminders, 'project', projectId],
    queryFn: () => apiRequest<Reminder[]>('GET', `/api/reminders/project/${projectId}`),
  });

/** The eleven reminder times; on failure, the built-in list (spec/core.md §7). */
export const notificationTimesQuery = queryOptions({
  queryKey: [...keys.reminders, 'notification-times'],
  queryFn: () =>
    apiRequest<{ value: string; label: string }[]>('GET', '/api/reminders/options/notification-times').catch(
      () => notificationTimeOptions,
    ),
  staleTime: Number.POSITIVE_INFINITY,
});

export type ProfileView = Profile & { username: string; email: string | null };

export const profileQuery = queryOptions({
  queryKey: keys.profile,
  queryFn: () => apiRequest<ProfileView>('GET', '/api/profile'),
});

export const notificationSettingsQuery = queryOptions({
  queryKey: keys.notificationSettings,
  queryFn: () => apiRequest<NotificationSettings>('GET', '/api/notifications/settings'),
});

/** The user's personal API tokens (Settings), newest first; their text is shown once, at creation. */
export const apiTokensQuery = queryOptions({
  queryKey: keys.apiTokens,
  queryFn: () => apiRequest<ApiTokenView[]>('GET', '/api/tokens'),
});

/** Whether the user has a private calendar link, and since when (its URL is shown only when made). */
export const calendarFeedQuery = queryOptions({
  queryKey: [...keys.reminders, 'calendar'],
  queryFn: () => apiRequest<SecretLinkState>('GET', '/api/reminders/calendar'),
});

/** Active messages from the administrators (the sidebar and Settings); on the dashboard, with its answer. */
export const adminCommentsQuery = queryOptions({
  queryKey: keys.adminComments,
  queryFn: () => apiRequest<AdminComment[]>('GET', '/api/admin/comments'),
});

/** The caller's plan: status, trial days, the paid period (`GET /api/subscription/status`). */
export const subscriptionQuery = queryOptions({
  queryKey: keys.subscription,
  queryFn: () => apiRequest<SubscriptionView>('GET', '/api/subscription/status'),
});

/** The two plans' prices; the server falls back to the configured ones when Stripe is away. */
export const pricesQuery = queryOptions({
  queryKey: keys.prices,
  queryFn: () => apiRequest<Price[]>('GET', '/api/stripe/prices'),
  staleTime: 5 * 60_000,
});

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

/** Today's chat allowance: remaining messages, the boost, the cap (`GET /api/chat/usage`). */
export const chatUsageQuery = queryOptions({
  queryKey: keys.chatUsage,
  queryFn: () => apiRequest<ChatUsage>('GET', '/api/chat/usage'),
});

export const integrationsQuery = queryOptions({
  queryKey: keys.integrations,
  queryFn: () => apiRequest<Integration[]>('GET', '/api/integrations'),
});

/** An integration's domains, read from its external API when the domains dialog opens (never cached stale). */
export const integrationDomainsQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.integrations, id, 'domains'],
    queryFn: () => apiRequest<(Domain & { imported: boolean })[]>('GET', `/api/integrations/${id}/projects`),
    staleTime: 0,
  });
