import type {
  Activity,
  AdminComment,
  CurrentUser,
  MonitorSummary,
  MonitorView,
  Project,
  Reminder,
  WorkspaceView,
} from '@shiplog/schemas';
import { infiniteQueryOptions, MutationCache, QueryClient, queryOptions } from '@tanstack/react-query';
import { apiRequest, isUnauthorized } from './api';
import { noteSignedIn } from './dashboard-query';
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
 * Each resource's key, the one place query keys come from: its queries' keys start with it, so
 * invalidating it refreshes all of them (a mutation, the live feed). Here are the queries the shell and
 * the everyday pages read; the dashboard's query (lib/graphql.ts) and those only some pages read (the
 * account's, billing's, the admin's, chat's, integrations', sessions, a deploy webhook, a public
 * profile, a workspace's members and invites) sit with their feature's hooks and pages (features/*),
 * out of every first load.
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
  github: ['github'],
  push: ['push'],
  sessions: ['sessions'],
  ping: ['ping'],
  deployHook: ['deploy-hook'],
  publicProfile: ['public-profile'],
  publicStatus: ['public-status'],
  openapi: ['openapi'],
  workspaces: ['workspaces'],
  invites: ['invites'],
  invitePreview: ['invite-preview'],
} as const;

/** One factory per resource; invalidate by `keys`. */
export const userQuery = queryOptions({
  queryKey: keys.user,
  // The current-user read treats 401 as "no user".
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      const user = await apiRequest<CurrentUser>('GET', '/api/user');
      noteSignedIn(true);
      return user;
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
      noteSignedIn(false);
      return null;
    }
  },
});

export const projectsQuery = queryOptions({
  queryKey: keys.projects,
  queryFn: () => apiRequest<Project[]>('GET', '/api/projects'),
});

/**
 * The team workspaces the user belongs to, each with their role in it: the Team workspaces page, the
 * project lists' space filter and the project form's space. The dashboard's answer brings them too.
 */
export const workspacesQuery = queryOptions({
  queryKey: keys.workspaces,
  queryFn: () => apiRequest<WorkspaceView[]>('GET', '/api/workspaces'),
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
  'id' | 'assigneeId' | 'projectId' | 'projectName' | 'title' | 'description' | 'dueDate' | 'isCompleted'
>;

/**
 * The changes shown before the server has them (lib/optimistic.ts): loaded with the shell's
 * after-first-screen parts, or by the first change made before then.
 */
export const optimistic = () => import('./optimistic');

/**
 * The live feed (lib/live.ts): whether it is open (it then brings the bell's changes as they happen),
 * who hears each change as it comes (a long import counting its progress), and who hears of the
 * members coming and going on a team project's page.
 */
export const liveFeed = {
  open: false,
  listeners: new Set<(change: { source: string; type: string }) => void>(),
  /** Who hears that another member came to a team project's page or left it (its id). */
  presence: new Set<(projectId: string) => void>(),
};

/**
 * The bell: brought up to date by the live feed as reminders change; every 60 s while the feed is not
 * open (spec/core.md §7). Any failure is logged and shows as an empty list. On the dashboard its
 * answer comes with the dashboard's (lib/graphql.ts).
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
  refetchInterval: () => (liveFeed.open ? false : 60_000),
});

/** What the bell shows of a monitor with an open incident: a URL or domain down, or a backup or deployment missed. */
export type BellIncident = Pick<
  MonitorView,
  'id' | 'projectId' | 'projectName' | 'kind' | 'url' | 'intervalSeconds'
> & {
  openIncident: NonNullable<MonitorView['openIncident']>;
};

/** The monitors with an open incident, oldest first, as the bell lists them (also from the dashboard's answer). */
export function bellIncidentsOf(monitors: MonitorSummary[]): BellIncident[] {
  return monitors
    .filter((m): m is MonitorSummary & BellIncident => m.openIncident !== null && m.state !== 'paused')
    .map(({ id, projectId, projectName, kind, url, intervalSeconds, openIncident }) => ({
      id,
      projectId,
      projectName,
      kind,
      url,
      intervalSeconds,
      openIncident,
    }))
    .sort((a, b) => a.openIncident.startedAt.localeCompare(b.openIncident.startedAt));
}

/**
 * The bell's open incidents, oldest first: brought up to date by the live feed as monitors change
 * (every 60 s without it), as the reminders are. Any failure is logged and shows as none.
 */
export const bellIncidentsQuery = queryOptions({
  queryKey: [...keys.monitors, 'bell'],
  queryFn: async (): Promise<BellIncident[]> => {
    try {
      return bellIncidentsOf(await apiRequest<MonitorView[]>('GET', '/api/monitors'));
    } catch (error) {
      console.error('Could not load open incidents for the bell', error);
      return [];
    }
  },
  refetchInterval: () => (liveFeed.open ? false : 60_000),
});

export const projectRemindersQuery = (projectId: string) =>
  queryOptions({
    queryKey: [...keys.reminders, 'project', projectId],
    queryFn: () => apiRequest<Reminder[]>('GET', `/api/reminders/project/${projectId}`),
  });

/** Active messages from the administrators (the sidebar and Settings); on the dashboard, with its answer. */
export const adminCommentsQuery = queryOptions({
  queryKey: keys.adminComments,
  queryFn: () => apiRequest<AdminComment[]>('GET', '/api/admin/comments'),
});
