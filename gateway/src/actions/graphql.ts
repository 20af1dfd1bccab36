import { AppError } from '@shiplog/errors';
import { arrangeProjects, type Project } from '@shiplog/schemas';
import type { Caller, Logger, ServiceClients, ServiceName } from '@shiplog/service-kit';
import type { Request, Response } from 'express';
import {
  buildSchema,
  type DocumentNode,
  execute,
  type FormattedExecutionResult,
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';

/**
 * `/api/graphql`: the dashboard's data in one round trip. The gateway fans out to the services in
 * parallel (with the user's read-your-writes positions) and shapes the answer; REST stays for the rest.
 */
const schema = buildSchema(/* GraphQL */ `
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
    "The team workspace it belongs to; null: its maker's personal space."
    workspaceId: ID
    "The reader's role on it: owner of their own personal project, else their role in its workspace."
    role: String
  }

  "A team workspace the user belongs to, with their role in it."
  type Workspace {
    id: ID!
    name: String!
    role: String!
    memberCount: Int!
    createdAt: String!
  }

  "Who did it: null for a platform, a webhook or Shiplog's own checks."
  type ActivityActor {
    userId: ID!
    "Null once the account is deleted."
    username: String
    "The API token's name, when one made it."
    token: String
  }

  type Activity {
    id: ID!
    actor: ActivityActor
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
    "Who it reaches: its author unless given to another member of the project's workspace."
    assigneeId: ID!
    projectId: ID!
    projectName: String!
    title: String!
    description: String
    dueDate: String!
    isCompleted: Boolean!
  }

  "A message from the administrators, as the sidebar shows it."
  type AdminMessage {
    id: ID!
    message: String!
    priority: String!
    createdAt: String!
    adminUsername: String!
  }

  "An incident of a monitor that has not ended: since when, and why."
  type OpenIncident {
    id: ID!
    startedAt: String!
    cause: String!
  }

  "A monitor of one of the user's projects: what it checks and its state (pending, up, degraded, down, paused)."
  type MonitorSummary {
    id: ID!
    projectId: ID!
    projectName: String!
    "http (a URL is checked), or backup / deployment (one is expected at a cadence)."
    kind: String!
    url: String!
    "How often it is checked, or the cadence a backup or deployment is expected at, in seconds."
    intervalSeconds: Int!
    state: String!
    "Its incident while one is open (the bell lists it), else null."
    openIncident: OpenIncident
  }

  type Dashboard {
    user: User!
    counters: Counters!
    "Up to \`limit\` projects (default 6) matching the filter, in the chosen order."
    projects(filter: ProjectFilter = all, sort: ProjectSort = newest, limit: Int = 6): [Project!]!
    "The newest activities (default 3)."
    recentActivities(limit: Int = 3): [Activity!]!
    "Active reminders assigned to the user, by due date (default 5), each with its project's name."
    upcomingReminders(limit: Int = 5): [Reminder!]!
    "Every reminder of the user's, completed or not (the bell counts the active ones)."
    reminders: [Reminder!]!
    "The administrators' active messages, newest first (the sidebar)."
    adminMessages: [AdminMessage!]!
    "Every monitor of the user's projects (each project card shows its monitors' state)."
    monitors: [MonitorSummary!]!
    "The team workspaces the user belongs to (the project list's space filter, a team project's badge)."
    workspaces: [Workspace!]!
  }

  type Query {
    dashboard: Dashboard!
  }
`);

/**
 * Each field that reads a service asked for once: under another alias the same field is another read
 * (`a1: recentActivities(limit: 1) a2: recentActivities(limit: 2) …`), and a document of a hundred
 * aliases would make a hundred calls for one request. The dashboard's query names each field once.
 */
const eachReadOnce: ValidationRule = (context) => {
  const names = new Map<string, Set<string>>();
  return {
    Field(node) {
      const parent = context.getParentType()?.name;
      if (parent !== 'Query' && parent !== 'Dashboard') return;
      const field = `${parent === 'Query' ? '' : 'dashboard.'}${node.name.value}`;
      const seen = names.get(field) ?? new Set<string>();
      seen.add(node.alias?.value ?? node.name.value);
      names.set(field, seen);
      if (seen.size === 2)
        context.reportError(
          new GraphQLError(`Ask for ${field} once: each alias of it is another read.`, { nodes: node }),
        );
    },
  };
};

interface Context {
  caller: Caller;
  after: string | undefined;
  /** Each service read of this request, by service and path: two fields over one read ask once. */
  reads: Map<string, Promise<unknown>>;
}

/** A resolver's error the client may read: its message and code are meant for it. */
const clientError = (message: string, code: string, status?: number) =>
  new GraphQLError(message, { extensions: { code, ...(status ? { http: { status } } : {}) } });

/** The request's GraphQL parameters: a POST's JSON body, or a GET's query string. */
function paramsOf(req: Request): { query?: unknown; variables?: unknown; operationName?: unknown } {
  if (req.method === 'POST') {
    if (!req.is('application/json'))
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the query as application/json');
    return typeof req.body === 'object' && req.body !== null ? req.body : {};
  }
  const variables = typeof req.query.variables === 'string' ? req.query.variables : undefined;
  let parsed: unknown;
  try {
    parsed = variables === undefined ? undefined : JSON.parse(variables);
  } catch {
    throw new AppError(400, 'VALIDATION_FAILED', 'variables must be JSON');
  }
  return { query: req.query.query, variables: parsed, operationName: req.query.operationName };
}

/**
 * The endpoint, GraphQL over HTTP with graphql-js alone: a document over 1,000 tokens is refused while
 * it is parsed (the dashboard's query has about 80, and one nested a few thousand deep ran the parser
 * out of stack); a request that cannot run (not GraphQL, invalid, bad variables, not a query) is a
 * 400; an error a resolver did not make for the client is logged and masked.
 */
export function createGraphql(options: {
  services: ServiceClients;
  logger: Logger;
  callerOf: (req: Request) => Caller;
  positionsOf: (req: Request) => string | undefined;
}) {
  const { services, logger } = options;

  async function fetchJson<T>(context: Context, service: ServiceName, path: string): Promise<T> {
    const key = `${service} ${path}`;
    let read = context.reads.get(key) as Promise<T> | undefined;
    if (!read) {
      read = services.read<T>(service, path, { caller: context.caller, after: context.after });
      context.reads.set(key, read);
    }
    try {
      return await read;
    } catch (error) {
      // A field whose service could not answer is an error beside the others' data; only a signed-out
      // caller fails the whole answer.
      if (error instanceof AppError)
        throw clientError(error.message, error.code, error.status === 401 ? 401 : undefined);
      throw error;
    }
  }

  // Fields resolve by graphql-js's default: a value, or a function of (args, context) on the parent.
  const rootValue = {
    dashboard: (_args: unknown, context: Context) => {
      if (!context.caller.userId) throw clientError('Not signed in', 'UNAUTHORIZED', 401);
      // Every field is a function: only what the query asks for is read. graphql-js calls a selection's
      // fields one after another without waiting, so the reads run at once; each awaits only its own.
      return {
        user: () =>
          Promise.all([
            fetchJson<{ id: string; username: string; email: string | null; isAdmin: boolean }>(
              context,
              'identity',
              '/users/me',
            ),
            fetchJson<{ status: string | null }>(context, 'billing', '/subscription/status').catch(() => ({
              status: null,
            })),
          ]).then(([user, subscription]) => ({ ...user, subscriptionStatus: subscription.status })),
        counters: () => fetchJson(context, 'activity', '/dashboard/counters'),
        projects: async ({ filter, sort, limit }: { filter: string; sort: string; limit: number }) =>
          arrangeProjects(await fetchJson<Project[]>(context, 'projects', '/projects'), { filter, sort }).slice(
            0,
            Math.max(0, Math.min(limit, 100)),
          ),
        upcomingReminders: async ({ limit }: { limit: number }) => {
          const reminders = await fetchJson<{ isCompleted: boolean; dueDate: string; assigneeId: string }[]>(
            context,
            'reminders',
            '/reminders',
          );
          // The user's own: those assigned to them, not the rest of their teams'.
          return reminders
            .filter((r) => !r.isCompleted && r.assigneeId === context.caller.userId)
            .sort((a, b) => a.dueDate.localeCompare(b.dueDate))
            .slice(0, Math.max(0, Math.min(limit, 100)));
        },
        reminders: () => fetchJson(context, 'reminders', '/reminders'),
        adminMessages: () => fetchJson(context, 'identity', '/admin/comments'),
        monitors: () => fetchJson(context, 'monitors', '/monitors'),
        workspaces: () => fetchJson(context, 'identity', '/workspaces'),
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
  };

  const answer = (req: Request, res: Response, status: number, body: FormattedExecutionResult) => {
    const modern = req.accepts(['application/graphql-response+json', 'application/json']);
    res
      .status(status)
      .type(modern === 'application/graphql-response+json' ? modern : 'application/json')
      .send(JSON.stringify(body));
  };
  const invalid = (req: Request, res: Response, errors: readonly GraphQLError[]) =>
    answer(req, res, 400, { errors: errors.map((e) => e.toJSON()) });

  // The documents that parsed and validated, by their text: the app sends one query, again and again.
  // The oldest is forgotten past 100, and long texts are not kept, so odd queries cannot grow it.
  const validated = new Map<string, DocumentNode>();
  const remember = (query: string, document: DocumentNode) => {
    if (query.length > 10_000) return;
    if (validated.size >= 100) validated.delete(validated.keys().next().value as string);
    validated.set(query, document);
  };

  return async (req: Request, res: Response): Promise<void> => {
    const { query, variables, operationName } = paramsOf(req);
    if (typeof query !== 'string') return invalid(req, res, [new GraphQLError('Must provide query string.')]);
    if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
      return invalid(req, res, [new GraphQLError('Variables must be an object.')]);
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
      return invalid(req, res, [new GraphQLError('Operation name must be a string.')]);
    let document = validated.get(query);
    if (!document) {
      try {
        document = parse(query, { maxTokens: 1000 });
      } catch (error) {
        return invalid(req, res, [error as GraphQLError]);
      }
      const errors = validate(schema, document, [...specifiedRules, eachReadOnce]);
      if (errors.length > 0) return invalid(req, res, errors);
      remember(query, document);
    }
    const operation = getOperationAST(document, operationName ?? undefined);
    if (!operation) return invalid(req, res, [new GraphQLError('Could not determine which operation to run.')]);
    if (operation.operation !== 'query') return invalid(req, res, [new GraphQLError('Only queries can be run here.')]);
    const contextValue: Context = { caller: options.callerOf(req), after: options.positionsOf(req), reads: new Map() };
    const result = await execute({
      schema,
      document,
      rootValue,
      contextValue,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: operationName ?? undefined,
    });
    // Variables that do not fit their types: nothing ran.
    if (!('data' in result) || result.data === undefined) return invalid(req, res, result.errors ?? []);
    let status = 200;
    const shown = result.errors?.map((error) => {
      const own = error.originalError;
      if (own && !(own instanceof GraphQLError)) {
        logger.error({ err: own, path: error.path }, 'GraphQL resolver failed');
        return new GraphQLError('Unexpected error.', { path: error.path, nodes: error.nodes }).toJSON();
      }
      const { http, ...extensions } = (own ?? error).extensions as { http?: { status: number } };
      if (http) status = Math.max(status, http.status);
      return { ...error.toJSON(), extensions };
    });
    answer(req, res, status, shown ? { data: result.data, errors: shown } : { data: result.data });
  };
}
