import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/**
 * Real answers checked against the OpenAPI document (`GET /api/openapi.json`) with Ajv: the status
 * must be one the call documents, and a JSON answer must match its schema (closed objects: a field
 * the document does not name fails).
 */
export function contractOf(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi');
  const components = document.components as { responses: Record<string, Json> };
  const compiled = new Map<string, ValidateFunction>();
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

  return {
    /** The problems with one answer to `method path` (an Express-style template: `/api/projects/:id`); none: it conforms. */
    check(method: string, template: string, status: number, body: unknown): string[] {
      const path = template.replace(/:(\w+)/g, '{$1}');
      const operation = (document.paths as Record<string, Record<string, Json>>)[path]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${template} is not in the document`];
      const responses = operation.responses as Record<string, Json>;
      let response = responses[String(status)];
      if (!response) return [`${method} ${template} answered ${status}, which the document does not list`];
      let at = `#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status))}`;
      if (typeof response.$ref === 'string') {
        at = response.$ref;
        response = components.responses[response.$ref.split('/').pop()!]!;
      }
      if (!(response.content as Json | undefined)?.['application/json']) return [];
      const ref = `openapi${at}/content/application~1json/schema`;
      let validate = compiled.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        compiled.set(ref, validate);
      }
      return validate(body)
        ? []
        : (validate.errors ?? []).map((e) => `${method} ${template} ${status}: ${e.instancePath || '/'} ${e.message}`);
    },
  };
}
