import { Client, cacheExchange, fetchExchange, gql } from 'urql';

/** urql for the gateway's GraphQL: the dashboard in one round trip. */
export const graphqlClient = new Client({
  url: '/api/graphql',
  exchanges: [cacheExchange, fetchExchange],
  fetchOptions: { credentials: 'include' },
  requestPolicy: 'cache-and-network',
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
