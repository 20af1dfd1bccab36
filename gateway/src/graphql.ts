import { arrangeProjects, type Project } from '@shiplog/schemas';
import type { Caller, ServiceClients } from '@shiplog/service-kit';
import type { Request } from 'express';
// Yoga's own error factory: `graphql` ships ESM and CJS builds, and an error from the other build
// would not be recognised (and so be masked).
import { createGraphQLError, createSchema, createYoga, type Plugin } from 'graphql-yoga';

/**
 * A document over 1,000 tokens is refused as a syntax error (400) while it is parsed: the dashboard's
 * query has about 80, and one nested a few thousand deep ran the parser out of stack (a 500). The
 * parse function wrapped is yoga's own (see the note on createGraphQLError above).
 */
const tokenLimit: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn((source, parseOptions) => parseFn(source, { ...parseOptions, maxTokens: 1000 }));
  },
};

/**
 * `/api/graphql`: the dashboard's data in one round trip. The gateway fans out to the services in
 * parallel (with the user's read-your-writes positions) and shapes the answer; REST stays for the rest.
 */
const typeDefs = /* GraphQL */ `
  enum ProjectFilter { all planning development deployed blocked }
  enum ProjectSort { newest oldest name_asc name_desc }

  type User {
    id: ID!
    username: String!
    email: String
    subscriptionStatus: String
    isAdmin: Boolean!
  }

  "Each count, and how many of those projects were created in the last 7 days."
  type Counters {
    totalProjects: Int!
    activeProjects: Int!
    completedProjects: Int!
    totalChange: Int!
    activeChange: Int!
    completedChange: Int!
  }

  type Checklist {
    databaseAdded: Boolean!
    authenticationAdded: Boolean!
    deployed: Boolean!
    backedUp: Boolean!
    hasTests: Boolean!
  }

  type SocialLinks { github: String website: String docs: String twitter: String instagram: String }
  type ProjectMetadata { socialLinks: SocialLinks! }

  type Project {
    id: ID!
    name: String!
    description: String
    status: String!
    checklist: Checklist!
    costEstimate: Int
    replitId: String
    isPublic: Boolean!
    metadata: ProjectMetadata!
    createdAt: String!
    updatedAt: String!
  }

  type Activity {
    id: ID!
    projectId: ID
    eventType: String!
    action: String!
    details: String!
    version: String
    status: String!
    metadata: String!
    timestamp: String!
  }

  type Reminder {
    id: ID!
    projectId: ID!
    projectName: String!
    title: String!
    description: String
    dueDate: String!
    isCompleted: Boolean!
  }

  type Dashboard {
    user: User!
    counters: Counters!
    "Up to \`limit\` projects (default 6) matching the filter, in the chosen order."
    projects(filter: ProjectFilter = all, sort: ProjectSort = newest, limit: Int = 6): [Project!]!
    "The newest activities (default 3)."
    recentActivities(limit: Int = 3): [Activity!]!
    "Active reminders by due date (default 5), each with its project's name."
    upcomingReminders(limit: Int = 5): [Reminder!]!
  }

  type Query {
    dashboard: Dashboard!
  }
`;

interface Context {
  req: Request;
  caller: Caller;
  after: string | undefined;
}

export function createGraphql(options: {
  services: ServiceClients;
  callerOf: (req: Request) => Caller;
  positionsOf: (req: Request) => string | undefined;
}) {
  const { services } = options;

  async function fetchJson<T>(
    context: Context,
    service: 'identity' | 'billing' | 'projects' | 'reminders' | 'activity',
    path: string,
  ): Promise<T> {
    const result = await services.call<T>(service, {
      method: 'GET',
      path,
      caller: context.caller,
      after: context.after,
    });
    if (result.status === 401)
      throw createGraphQLError('Not signed in', { extensions: { code: 'UNAUTHORIZED', http: { status: 401 } } });
    if (result.status !== 200)
      throw createGraphQLError(`The ${service} service answered ${result.status}`, {
        extensions: { code: 'UPSTREAM_ERROR' },
      });
    return result.body;
  }

  const schema = createSchema<Context>({
    typeDefs,
    resolvers: {
      Query: {
        dashboard: (_root, _args, context) => {
          if (!context.caller.userId)
            throw createGraphQLError('Not signed in', { extensions: { code: 'UNAUTHORIZED', http: { status: 401 } } });
          // Start every read at once; each field awaits only its own.
          const projects = fetchJson<Project[]>(context, 'projects', '/projects');
          return {
            user: Promise.all([
              fetchJson<{ id: string; username: string; email: string | null; isAdmin: boolean }>(
                context,
                'identity',
                '/users/me',
              ),
              fetchJson<{ status: string | null }>(context, 'billing', '/subscription/status').catch(() => ({
                status: null,
              })),
            ]).then(([user, subscription]) => ({ ...user, subscriptionStatus: subscription.status })),
            counters: fetchJson(context, 'activity', '/dashboard/counters'),
            projects: async ({ filter, sort, limit }: { filter: string; sort: string; limit: number }) =>
              arrangeProjects(await projects, { filter, sort }).slice(0, Math.max(0, Math.min(limit, 100))),
            upcomingReminders: async ({ limit }: { limit: number }) => {
              const reminders = await fetchJson<{ isCompleted: boolean; dueDate: string }[]>(
                context,
                'reminders',
                '/reminders',
              );
              return reminders
                .filter((r) => !r.isCompleted)
                .sort((a, b) => a.dueDate.localeCompare(b.dueDate))
                .slice(0, Math.max(0, Math.min(limit, 100)));
            },
            recentActivities: async ({ limit }: { limit: number }) => {
              const rows = await fetchJson<Record<string, unknown>[]>(
                context,
                'activity',
                `/activities?page=1&limit=${Math.max(1, Math.min(limit, 100))}`,
              );
              return rows.map((row) => ({ ...row, metadata: JSON.stringify(row.metadata ?? {}) }));
            },
          };
        },
      },
    },
  });

  return createYoga<{ req: Request }, Context>({
    schema,
    graphqlEndpoint: '/api/graphql',
    graphiql: false,
    landingPage: false,
    maskedErrors: true,
    context: ({ req }) => ({ req, caller: options.callerOf(req), after: options.positionsOf(req) }),
    plugins: [tokenLimit],
  });
}
