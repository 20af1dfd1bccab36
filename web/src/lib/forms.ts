import { type FieldValues, type Resolver, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { loadFormSchemas, type Schemas } from './load-form-schemas';

/** The name of each form schema in lib/form-schemas.ts. */
export type FormName = { [K in keyof Schemas]: Schemas[K] extends z.ZodType ? K : never }[keyof Schemas];
type SchemaOf<N extends FormName> = Schemas[N] extends z.ZodType ? Schemas[N] : never;
/** What a form holds while it is edited, and what its submit handler receives once the schema has parsed it. */
export type FormInput<N extends FormName> = z.input<SchemaOf<N>> & FieldValues;
export type FormOutput<N extends FormName> = z.output<SchemaOf<N>> & FieldValues;

/**
 * The one way a form gets its resolver: the named schema from lib/form-schemas.ts, loaded on the first
 * validation if `loadFormSchemasOnFirstUse` has not already fetched it when the form was first touched.
 */
export function formResolver<N extends FormName>(name: N): Resolver<FormInput<N>, unknown, FormOutput<N>> {
  return async (values, context, options) => {
    const loaded = await loadFormSchemas();
    const resolve = loaded.zodResolver as (schema: z.ZodType) => Resolver<FormInput<N>, unknown, FormOutput<N>>;
    return resolve(loaded[name] as z.ZodType)(values, context, options);
  };
}

/** `useForm` with the named schema's resolver (`formResolver`), typed by the schema. */
export function useSchemaForm<N extends FormName>(
  name: N,
  options: Omit<UseFormProps<FormInput<N>, unknown, FormOutput<N>>, 'resolver'>,
) {
  return useForm<FormInput<N>, unknown, FormOutput<N>>({ ...options, resolver: formResolver(name) });
}

/**
 * Fetches the form schemas when the user first types or presses anything inside a form, so they are
 * here before the first validation. Focus alone does not: a form that puts the cursor in its first
 * field (New Project) would otherwise fetch them with the page. Installed when this module first
 * loads, that is with the first page that has a form; pages without one never fetch them.
 */
function loadFormSchemasOnFirstUse(root: Document): void {
  const events = ['keydown', 'pointerdown'] as const;
  const start = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest('form')) return;
    for (const type of events) root.removeEventListener(type, start, true);
    void loadFormSchemas();
  };
  for (const type of events) root.addEventListener(type, start, true);
}

if (typeof document !== 'undefined') loadFormSchemasOnFirstUse(document);
