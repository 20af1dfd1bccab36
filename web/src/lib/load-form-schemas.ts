import type * as FormSchemas from './form-schemas';

export type Schemas = typeof FormSchemas;

let schemas: Promise<Schemas> | undefined;

/**
 * The form schemas' chunk (zod and the resolver with it), fetched once: by forms (lib/forms.ts), and by
 * a page that validates without react-hook-form (the admin dashboard's two small forms).
 */
export function loadFormSchemas(): Promise<Schemas> {
  schemas ??= import('./form-schemas').catch((error: unknown) => {
    schemas = undefined; // a failed fetch is tried again at the next validation
    throw error;
  });
  return schemas;
}
