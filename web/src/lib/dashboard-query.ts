import type { ProjectFilter, ProjectSort } from '@shiplog/schemas';

/**
 * The dashboard's one GraphQL query, with what the shell shows beside it (the bell's reminders, the
 * administrators' messages), as plain text: the route's loader sends it on the app's first
 * visit before urql and the page have loaded (router.tsx), and urql sends the same text afterwards.
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
      kind
      url
      state
      __typename
    }
    recentActivities {
      id
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
    __typename
  }
}

fragment ReminderItem on Reminder {
  id
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

/** How a GraphQL GET is known among the page's early requests (lib/api.ts): its operation and variables. */
export function graphqlEarlyKey(operationName: string, variables: Record<string, unknown>): string {
  const pairs = Object.keys(variables)
    .sort()
    .map((name) => `${name}=${JSON.stringify(variables[name])}`);
  return `graphql ${operationName} ${pairs.join('&')}`;
}

/** The dashboard's query sent without urql, as the gateway takes a GraphQL GET. */
export function fetchDashboard(variables: DashboardVariables): Promise<Response> {
  const search = new URLSearchParams({
    query: DASHBOARD_QUERY,
    operationName: 'Dashboard',
    variables: JSON.stringify(variables),
  });
  return fetch(`/api/graphql?${search}`, {
    credentials: 'include',
    headers: { accept: 'application/graphql-response+json, application/json' },
  });
}
