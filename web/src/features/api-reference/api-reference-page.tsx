import { useQuery } from '@tanstack/react-query';
import { AlertCircle } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { apiRequest } from '../../lib/api';
import { cn } from '../../lib/class-names';
import { keys } from '../../lib/queries';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Input } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';

/** The parts of the OpenAPI document (`GET /api/openapi.json`) this page reads. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}
interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, Response>;
}
interface Document {
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response> };
}

const methodColours: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  post: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  put: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  patch: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  delete: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
};

/**
 * The API's reference (Settings › API Tokens links here): every call of the OpenAPI document by tag,
 * with what it takes, what it answers and who may call it, filtered as one types. The document itself
 * is at /api/openapi.json for tools that read OpenAPI.
 */
export function ApiReferencePage() {
  const { data, error, isPending } = useQuery({
    queryKey: keys.openapi,
    queryFn: () => apiRequest<Document>('GET', '/api/openapi.json'),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [filter, setFilter] = useState('');
  const wanted = useDeferredValue(filter.trim().toLowerCase());

  if (isPending)
    return (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading the API reference">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24 w-full" />
        ))}
      </div>
    );
  if (error)
    return (
      <Card>
        <CardContent className="flex items-center gap-2 pt-6 text-destructive">
          <AlertCircle className="size-5" aria-hidden />
          <p>{error.message || 'Failed to load the API reference'}</p>
        </CardContent>
      </Card>
    );

  const operations = Object.entries(data.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const matches = ({ path, method, operation }: (typeof operations)[number]) =>
    !wanted || `${method} ${path} ${operation.summary} ${operation.tags.join(' ')}`.toLowerCase().includes(wanted);
  const shown = data.tags
    .map((tag) => ({ tag, operations: operations.filter((o) => o.operation.tags.includes(tag.name) && matches(o)) }))
    .filter((group) => group.operations.length > 0);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>
            {data.info.title} <span className="text-sm font-normal text-muted-foreground">v{data.info.version}</span>
          </CardTitle>
          <CardDescription>
            Send a personal API token as <code>Authorization: Bearer &lt;token&gt;</code> where a call takes one. Errors
            answer <code>{'{ message, code, fieldErrors? }'}</code>. The OpenAPI 3.1 document is at{' '}
            <a className="underline" href="/api/openapi.json">
              /api/openapi.json
            </a>{' '}
            for code generators and API tools.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <label className="sr-only" htmlFor="api-filter">
            Filter calls
          </label>
          <Input
            id="api-filter"
            type="search"
            placeholder="Filter by path, method or what it does"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </CardContent>
      </Card>
      {shown.length === 0 ? (
        <p className="text-center text-muted-foreground">No call matches “{filter}”.</p>
      ) : (
        shown.map(({ tag, operations }) => (
          <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="space-y-2">
            <h2 id={`tag-${tag.name}`} className="text-lg font-semibold">
              {tag.name}
            </h2>
            <p className="text-sm text-muted-foreground">{tag.description}</p>
            {operations.map(({ path, method, operation }) => (
              <OperationDetails
                key={`${method} ${path}`}
                document={data}
                path={path}
                method={method}
                operation={operation}
              />
            ))}
          </section>
        ))
      )}
    </div>
  );
}

function OperationDetails(props: { document: Document; path: string; method: string; operation: Operation }) {
  const { document, path, method, operation } = props;
  const body = operation.requestBody?.content['application/json'].schema;
  // Each answer with its first media type and schema, references resolved.
  const answers = Object.entries(operation.responses).map(([status, response]) => {
    const resolved = resolveResponse(document, response);
    const [type, content] = Object.entries(resolved.content ?? {})[0] ?? [];
    return { status, description: resolved.description, type, schema: content?.schema };
  });
  const who =
    operation.security.length === 0
      ? 'Anyone'
      : operation.security.some((s) => 'token' in s)
        ? 'Session or API token'
        : 'Session';
  return (
    <details id={operation.operationId} className="group rounded-lg border bg-card">
      <summary className="flex cursor-pointer flex-wrap items-center gap-3 px-4 py-3">
        <span
          className={cn(
            'w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-semibold uppercase',
            methodColours[method],
          )}
        >
          {method}
        </span>
        <code className="min-w-0 break-all font-mono text-sm">{path}</code>
        <span className="text-sm text-muted-foreground">{operation.summary}</span>
      </summary>
      <div className="space-y-4 border-t px-4 py-3 text-sm">
        {operation.description && <p className="whitespace-pre-line">{operation.description}</p>}
        <p>
          <span className="font-medium">Who may call it:</span> {who}
        </p>
        {operation.parameters && (
          <FieldTable
            title="Parameters"
            rows={operation.parameters.map((p) => ({
              name: p.name,
              where: p.in,
              type: typeOf(p.schema),
              required: p.in === 'path',
              notes: notesOf(p.schema),
            }))}
          />
        )}
        {body && <FieldTable title="Body (JSON)" rows={fieldsOf(document, body)} />}
        <div>
          <h3 className="font-medium">Answers</h3>
          <ul className="mt-1 space-y-1">
            {answers.map(({ status, description, type, schema }) => (
              <li key={status}>
                <code className="font-mono">{status}</code> {description}
                {type && type !== 'application/json' && <span className="text-muted-foreground"> ({type})</span>}
                {schema && status.startsWith('2') && (schema.$ref || schema.type === 'array') && (
                  <span className="text-muted-foreground"> {typeOf(schema)}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
        {answers
          .flatMap(({ schema }) => {
            const named = schema?.$ref ?? schema?.items?.$ref;
            return named && !named.endsWith('/Error') ? [named] : [];
          })
          .map((named) => (
            <FieldTable key={named} title={nameOf(named)} rows={fieldsOf(document, { $ref: named })} />
          ))}
      </div>
    </details>
  );
}

interface Row {
  name: string;
  where?: string;
  type: string;
  required: boolean;
  notes: string;
}

function FieldTable({ title, rows }: { title: string; rows: Row[] }) {
  if (rows.length === 0) return null;
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      <div className="mt-1 overflow-x-auto">
        <table className="w-full text-left">
          <thead className="text-muted-foreground">
            <tr>
              <th className="py-1 pr-4 font-normal">Field</th>
              <th className="py-1 pr-4 font-normal">Type</th>
              <th className="py-1 font-normal">Notes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.where ?? ''}${row.name}`} className="border-t align-top">
                <td className="py-1 pr-4 font-mono">
                  {row.name}
                  {row.required && (
                    <>
                      <span aria-hidden> *</span>
                      <span className="sr-only"> (required)</span>
                    </>
                  )}
                </td>
                <td className="py-1 pr-4 font-mono">{row.type}</td>
                <td className="py-1">{[row.where && `in ${row.where}`, row.notes].filter(Boolean).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const nameOf = (ref: string) => ref.split('/').pop() ?? ref;

function resolve(document: Document, schema: Schema): Schema {
  return schema.$ref ? (document.components.schemas[nameOf(schema.$ref)] ?? {}) : schema;
}

function resolveResponse(document: Document, response: Response): Response {
  return response.$ref ? (document.components.responses[nameOf(response.$ref)] ?? {}) : response;
}

/** An object's fields, its nested objects' fields named with a dot (`checklist.deployed`). */
function fieldsOf(document: Document, schema: Schema, prefix = ''): Row[] {
  const object = resolve(document, schema);
  const variants = object.anyOf ?? object.oneOf;
  if (variants) return variants.flatMap((variant) => fieldsOf(document, variant, prefix));
  return Object.entries(object.properties ?? {}).flatMap(([name, field]) => {
    const row = {
      name: prefix + name,
      type: typeOf(field),
      required: object.required?.includes(name) ?? false,
      notes: notesOf(field),
    };
    const inner = resolve(document, field);
    return inner.properties && !field.$ref ? [row, ...fieldsOf(document, inner, `${prefix}${name}.`)] : [row];
  });
}

function typeOf(schema: Schema): string {
  if (schema.$ref) return nameOf(schema.$ref);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(' | ');
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

function notesOf(schema: Schema): string {
  const notes: string[] = [];
  if (schema.description) notes.push(schema.description);
  if (schema.minLength !== undefined) notes.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) notes.push(`at most ${schema.maxLength} characters`);
  if (schema.minimum !== undefined) notes.push(`from ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`up to ${schema.maximum}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join('; ');
}
