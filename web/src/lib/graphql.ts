import type { ProjectFilter, ProjectSort } from '@shiplog/schemas';
import { Client, cacheExchange, fetchExchange, gql } from 'urql';

/** urql for the gateway's GraphQL: the dashboard in one round trip. */
export const graphqlClient = new Client({
  url: '/api/graphql',
  exchanges: [cacheExchange, fetchExchange],
  fetchOptions: { credentials: 'include' },
});

export const DASHBOARD_QUERY = gql`
  query Dashboard($filter: ProjectFilter, $sort: ProjectSort) {
    dashboard {
      counters {
        totalProjects
        activeProjects
        completedProjects
        totalChange
        activeChange
        completedChange
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
          }
        }
        createdAt
        updatedAt
      }
      upcomingReminders {
        id
        projectId
        projectName
        title
        description
        dueDate
        isCompleted
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
      }
    }
  }
`;

export interface DashboardVariables {
  filter: ProjectFilter;
  sort: ProjectSort;
}

/**
 * The dashboard's data, asked for afresh, as the dashboard's route loads (router.tsx): the one round
 * trip runs beside the page's code download rather than after the page has rendered, and the page
 * reads the answer from urql's cache, or joins the request still in flight. The first visit waits
 * for the answer, so the page renders once, with its data (issue 19: LCP); a later one shows what
 * the cache has at once, and the answer when it comes.
 */
export function loadDashboard(variables: DashboardVariables): Promise<unknown> | undefined {
  const cached = graphqlClient.readQuery(DASHBOARD_QUERY, variables);
  const fresh = graphqlClient.query(DASHBOARD_QUERY, variables, { requestPolicy: 'network-only' }).toPromise();
  return cached?.data ? undefined : fresh;
}
