import type { ProjectFilter, ProjectSort } from '@shiplog/schemas';
import { positionHeaders } from './positions';

/**
 * The dashboard's one GraphQL query, with what the shell shows beside it (the bell's reminders, the
 * administrators' messages), as plain text: on the app's first visit it is sent before urql and the
 * page have loaded (by index.html on a visit to the dashboard itself, see `earlyDashboard` in
 * vite.config.ts; else by the route, router.tsx), and urql sends the same text afterwards.
 * `__typename` is written out where urql would add it, so both answers are alike.
 */
export const DASHBOARD_QUERY = `query Dashboard($filter: ProjectFilter, $sort: ProjectSort) {
  dashboard {
    counters {
      totalProjects
      activeProjects
      completedProjects
      totalChange
      activeChange
      completedChange
      __typename
    }
    projects(filter: $filter, sort: $sort) {
      id
      name
      description
      status
      checklist {
        databaseAdded
        authenticationAdded
        deployed
        backedUp
        hasTests
        __typename
      }
      costEstimate
      replitId
      isPublic
      metadata {
        socialLinks {
          github
          website
          docs
          twitter
          instagram
          __typename
        }
        __typename
      }
      createdAt
      updatedAt
      workspaceId
      role
      __typename
    }
    upcomingReminders {
      ...ReminderItem
    }
    reminders {
      ...ReminderItem
    }
    adminMessages {
      id
      message
      priority
      createdAt
      adminUsername
      __typename
    }
    monitors {
      id
      projectId
      projectName
      kind
      url
      intervalSeconds
      state
      openIncident {
        id
        startedAt
        cause
        __typename
      }
      __typename
    }
    recentActivities {
      id
      actor {
        userId
        username
        token
        __typename
      }
      projectId
      eventType
      action
      details
      version
      status
      metadata
      timestamp
      __typename
    }
    workspaces {
      id
      name
      role
      memberCount
      createdAt
      __typename
    }
    __typename
  }
}

fragment ReminderItem on Reminder {
  id
  assigneeId
  projectId
  projectName
  title
  description
  dueDate
  isCompleted
  __typename
}`;

export interface DashboardVariables {
  filter: ProjectFilter;
  sort: ProjectSort;
}

/** The query's variables from the dashboard's search params: all projects, newest first, unless asked. */
export const dashboardVariables = (search: { status?: ProjectFilter; sort?: ProjectSort }): DashboardVariables => ({
  filter: search.status ?? 'all',
  sort: search.sort ?? 'newest',
});

/** How a GraphQL GET is known among the page's early requests (lib/api.ts): its operation and variables. */
export function graphqlEarlyKey(operationName: string, variables: Record<string, unknown>): string {
  const pairs = Object.keys(variables)
    .sort()
    .map((name) => `${name}=${JSON.stringify(variables[name])}`);
  return `graphql ${operationName} ${pairs.join('&')}`;
}

/**
 * Kept in local storage while this browser holds a session: set when the app learns who is signed in,
 * removed when the server says nobody is, and gone at sign-out with the rest of local storage. The
 * page asks for the dashboard's data before the app loads only then (`earlyDashboard` in
 * vite.config.ts), so a signed-out visit sends no request bound to be refused.
 */
export const SIGNED_IN_HINT_KEY = 'shiplog-signed-in';

/** Notes whether this browser holds a session, for the next visit's early ask (`SIGNED_IN_HINT_KEY`). */
export function noteSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_HINT_KEY);
  } catch {
    // Storage refused (a private mode, a full quota): the next visit asks once it knows the user.
  }
}

/** How the dashboard's query with these variables is known among the page's early requests. */
export const dashboardEarlyKey = (variables: DashboardVariables): string =>
  graphqlEarlyKey('Dashboard', { ...variables });

/** The dashboard's query as the gateway takes a GraphQL GET: its URL, and the request's options. */
export function dashboardRequest(variables: DashboardVariables): [string, RequestInit] {
  const search = new URLSearchParams({
    query: DASHBOARD_QUERY,
    operationName: 'Dashboard',
    variables: JSON.stringify(variables),
  });
  return [
    `/api/graphql?${search}`,
    {
      credentials: 'include',
      headers: { accept: 'application/graphql-response+json, application/json', ...positionHeaders() },
    },
  ];
}

/** The dashboard's query sent without urql. */
export const fetchDashboard = (variables: DashboardVariables): Promise<Response> =>
  fetch(...dashboardRequest(variables));
