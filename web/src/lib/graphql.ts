import type { Activity, AdminComment, MonitorSummary, Project, WorkspaceView } from '@shiplog/schemas';
import { queryOptions } from '@tanstack/react-query';
import { Client, fetchExchange } from 'urql';
import { readAt, takeEarly } from './api';
import { DASHBOARD_QUERY, type DashboardVariables, dashboardEarlyKey, graphqlEarlyKey } from './dashboard-query';
import { positionHeaders } from './positions';
import {
  adminCommentsQuery,
  type BellReminder,
  bellIncidentsOf,
  bellIncidentsQuery,
  bellRemindersQuery,
  keys,
  workspacesQuery,
} from './queries';

export interface DashboardData {
  counters: {
    totalProjects: number;
    activeProjects: number;
    completedProjects: number;
    totalChange: number;
    activeChange: number;
    completedChange: number;
  };
  projects: Project[];
  upcomingReminders: BellReminder[];
  recentActivities: (Omit<Activity, 'metadata' | 'userId'> & { metadata: string })[];
  /** The shell's, asked for in the same round trip: every reminder (the bell), the admin messages. */
  reminders: BellReminder[];
  adminMessages: AdminComment[];
  /** Every monitor's state: each project card shows its own. */
  monitors: MonitorSummary[];
  /** The user's team workspaces: the space filter, and each team project's badge. */
  workspaces: WorkspaceView[];
}

/** Each GraphQL GET's answer, by operation and variables, until its query reads where it stands. */
const answers = new Map<string, Response>();

/** A GET the page already sent for this operation and these variables (router.tsx), else a new one. */
const fetchOrEarly: typeof fetch = async (input, init) => {
  if ((init?.method ?? 'GET') !== 'GET') return fetch(input, init);
  const params = new URL(String(input), window.location.origin).searchParams;
  const key = graphqlEarlyKey(params.get('operationName') ?? '', JSON.parse(params.get('variables') ?? '{}'));
  const response = await (takeEarly(key) ?? fetch(input, init));
  answers.set(key, response);
  return response;
};

/** urql for the gateway's GraphQL: the dashboard in one round trip. TanStack Query keeps the answers. */
const graphqlClient = new Client({
  url: '/api/graphql',
  exchanges: [fetchExchange],
  // Asked each time: the newest positions of this tab's writes go with every query (lib/positions.ts).
  fetchOptions: () => ({ credentials: 'include', headers: positionHeaders() }),
  fetch: fetchOrEarly,
  // Always a GET, as the early request is (urql's default falls back to a POST past 2,048 characters
  // of URL, which the dashboard's query is near): its answer is taken, and says where it stands.
  preferGetMethod: 'force',
});

/**
 * The dashboard's data. The route's loader asks for it as the page's code loads (router.tsx): on the
 * app's first visit the request is already on its way, sent before urql had loaded. A change made
 * here, in another tab or by the scheduler makes it stale (`keys.dashboard`), and the next visit, or
 * the one on screen, asks again. Its answer also fills the bell's and the sidebar's queries, so the
 * shell asks for nothing of its own on the dashboard; its workspaces fill the Team workspaces list's.
 */
export const dashboardQuery = (variables: DashboardVariables) =>
  queryOptions({
    queryKey: [...keys.dashboard, variables],
    queryFn: async ({ client }) => {
      const result = await graphqlClient
        .query<{ dashboard: DashboardData }, DashboardVariables>(DASHBOARD_QUERY, variables)
        .toPromise();
      if (result.error || !result.data) throw result.error ?? new Error('The dashboard did not answer');
      const key = dashboardEarlyKey(variables);
      const response = answers.get(key);
      answers.delete(key);
      const { dashboard } = result.data;
      const stand = <T>(data: T) => (response ? readAt(data, response) : data);
      client.setQueryData(bellRemindersQuery.queryKey, stand(dashboard.reminders));
      client.setQueryData(adminCommentsQuery.queryKey, stand(dashboard.adminMessages));
      client.setQueryData(bellIncidentsQuery.queryKey, stand(bellIncidentsOf(dashboard.monitors)));
      client.setQueryData(workspacesQuery.queryKey, stand(dashboard.workspaces));
      return stand(dashboard);
    },
  });
