import {
  activityView,
  apiTokenView,
  currentUserView,
  errorBodyView,
  messageView,
  projectView,
  reminderView,
} from '@shiplog/schemas';
import { apiTags, limitDefaults } from '@shiplog/service-kit';
import { z } from 'zod';
import { type ApiRoute, routes } from '../routes.ts';

type JsonSchema = Record<string, unknown>;

/** The records many answers share, by the name the document gives them (`#/components/schemas/<name>`). */
const named = z.registry<{ id: string }>();
named.add(projectView, { id: 'Project' });
named.add(activityView, { id: 'Activity' });
named.add(reminderView, { id: 'Reminder' });
named.add(currentUserView, { id: 'CurrentUser' });
named.add(apiTokenView, { id: 'ApiToken' });
named.add(messageView, { id: 'Message' });

/**
 * The OpenAPI 3.1 document of the `/api` surface (`GET /api/openapi.json`): every route of the table,
 * from its one declaration (what it takes and answers, who may call it, its limit). Its schemas are JSON Schema 2020-12 made from the same zod
 * schemas the services validate with (requests, as they are read) and answer with (views, as they are
 * written); a schema used in more than one place is a component.
 */
export function openApiDocument(options: { version: string }): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const {
      $schema: _,
      $defs,
      ...json
    } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', metadata: named });
    for (const [id, definition] of Object.entries($defs ?? {})) components[id] ??= retarget(definition as JsonSchema);
    return retarget(json);
  };
  components.Error = schemaOf(errorBodyView, 'output');

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const template = route.path.replace(/:(\w+)/g, '{$1}');
    paths[template] ??= {};
    paths[template][route.method.toLowerCase()] = describe(route, schemaOf);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Shiplog API',
      version: options.version,
      description:
        'The `/api` surface of Shiplog. A browser signs in (`POST /api/login`) and sends its session cookie; the CLI and CI send a personal API token as `Authorization: Bearer <token>` where a call says so. Every error answers `{ message, code, fieldErrors? }`. Every answer carries `X-Shiplog-Api-Version`.',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(apiTags).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'shiplog.sid',
          description: 'The session of a signed-in browser.',
        },
        token: { type: 'http', scheme: 'bearer', description: 'A personal API token (Settings › API Tokens).' },
      },
      responses: {
        BadRequest: errorResponse('The input was refused: `fieldErrors` names each field with the reason.'),
        Unauthorized: errorResponse('Not signed in.'),
        Forbidden: errorResponse(
          'Refused: a write from another site, an administrators’ call, a plan that does not include it (`SUBSCRIPTION_REQUIRED`), or a sensitive change without a recent sign-in (`REAUTH_REQUIRED`).',
        ),
        NotFound: errorResponse('No such thing, or it belongs to someone else.'),
        PayloadTooLarge: errorResponse(
          'The body is over the limit: 100 kB, or 20 MB for an import (`PAYLOAD_TOO_LARGE`).',
        ),
        TooManyRequests: errorResponse('Over the limit; `Retry-After` says when to try again.'),
        Unavailable: errorResponse('The part of Shiplog that answers this is down; everything else keeps working.'),
      },
    },
  };
}

function describe(route: ApiRoute, schemaOf: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema) {
  const { method, path, declaration: operation } = route;
  const status = operation.status ?? 200;
  const parameters = [
    ...[...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(operation.query ? (schemaOf(operation.query, 'input').properties as JsonSchema) : {}).map(
      ([name, schema]) => ({ name, in: 'query', required: false, schema }),
    ),
    ...(operation.idempotent
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Makes the create safe to retry: the same key from the same user makes one record, and a repeat answers what the first made.',
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ]
      : []),
  ];
  const { answer } = operation;
  const success =
    answer === undefined
      ? { description: 'Done.' }
      : answer instanceof z.ZodType
        ? { description: 'Done.', content: { 'application/json': { schema: schemaOf(answer, 'output') } } }
        : { description: answer.description, content: { [answer.type]: { schema: {} } } };
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const responses: Record<string, unknown> = { [status]: success };
  if (operation.body || operation.query || method !== 'GET') responses['400'] = ref('BadRequest');
  if (operation.body) responses['413'] = ref('PayloadTooLarge');
  if (!route.public) responses['401'] = ref('Unauthorized');
  if (!route.public || method !== 'GET') responses['403'] = ref('Forbidden');
  // A path's id, or one in the body (a reminder's project), may name nothing of the caller's.
  if (path.includes(':') || operation.body) responses['404'] = ref('NotFound');
  if (route.limit) responses['429'] = ref('TooManyRequests');
  responses['503'] = ref('Unavailable');
  for (const [status, description] of Object.entries(operation.refusals ?? {}))
    responses[status] = { description, content: { 'application/json': { schema: {} } } };

  const limit = route.limit ? limitDefaults[route.limit] : undefined;
  const notes = [
    operation.description,
    route.recentAuth ? 'Needs the password confirmed in the last ten minutes (`POST /api/reauth`).' : '',
    limit ? `Limited to ${limit.points} per ${limit.seconds / 60} minutes per ${limit.per} by default.` : '',
  ].filter(Boolean);

  return {
    operationId: operationId(method, path),
    tags: [operation.tag ?? 'Meta'],
    summary: operation.summary,
    ...(notes.length ? { description: notes.join('\n\n') } : {}),
    security: route.public ? [] : route.token ? [{ session: [] }, { token: [] }] : [{ session: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(operation.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** `POST /api/projects/:id/backup` → `postProjectsIdBackup`. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** zod writes references to a schema's own `$defs`; in the document they live under components. */
const retarget = (json: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'));
