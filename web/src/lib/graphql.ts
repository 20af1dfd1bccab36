import type { Activity, Project } from '@shiplog/schemas';
import { queryOptions } from '@tanstack/react-query';
import { Client, fetchExchange } from 'urql';
import { readAt, takeEarly } from './api';
import { DASHBOARD_QUERY, type DashboardVariables, graphqlEarlyKey } from './dashboard-query';

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
  upcomingReminders: {
    id: string;
    projectId: string;
    projectName: string;
    title: string;
    description: string | null;
    dueDate: string;
    isCompleted: boolean;
  }[];
  recentActivities: (Omit<Activity, 'metadata' | 'userId'> & { metadata: string })[];
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
  fetchOptions: { credentials: 'include' },
  fetch: fetchOrEarly,
});

/**
 * The dashboard's data. The route's loader asks for it as the page's code loads (router.tsx): on the
 * app's first visit the request is already on its way, sent before urql had loaded. A change made
 * here, in another tab or by the scheduler makes it stale (`['dashboard']`), and the next visit, or
 * the one on screen, asks again.
 */
export const dashboardQuery = (variables: DashboardVariables) =>
  queryOptions({
    queryKey: ['dashboard', variables],
    queryFn: async () => {
      const result = await graphqlClient
        .query<{ dashboard: DashboardData }, DashboardVariables>(DASHBOARD_QUERY, variables)
        .toPromise();
      if (result.error || !result.data) throw result.error ?? new Error('The dashboard did not answer');
      const key = graphqlEarlyKey('Dashboard', { ...variables });
      const response = answers.get(key);
      answers.delete(key);
      return response ? readAt(result.data.dashboard, response) : result.data.dashboard;
    },
  });
