import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
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

/**
 * `useForm` with the named schema's resolver (`formResolver`), typed by the schema, whose submissions
 * run one at a time: from the first click (or Enter) until its handler's promise settles (return the
 * mutation's, `mutateAsync`), another submit does nothing, and `formState.isSubmitting` holds the
 * button busy. The schema is checked first and may still be loading, so a handler that only starts a
 * request (`mutate`) would leave a second click a moment to send the same thing again.
 */
export function useSchemaForm<N extends FormName>(
  name: N,
  options: Omit<UseFormProps<FormInput<N>, unknown, FormOutput<N>>, 'resolver'>,
) {
  const form = useForm<FormInput<N>, unknown, FormOutput<N>>({ ...options, resolver: formResolver(name) });
  const submitting = useRef(false);
  const mutations = useQueryClient().getMutationCache();
  const handleSubmit: typeof form.handleSubmit = (onValid, onInvalid) => async (event) => {
    if (submitting.current) {
      event?.preventDefault();
      return;
    }
    submitting.current = true;
    try {
      await form.handleSubmit(onValid, onInvalid)(event);
    } catch (error) {
      // A mutation's failure was told already (lib/told.ts, by the mutation cache); anything else is a fault.
      if (!mutations.getAll().some((mutation) => mutation.state.error === error)) throw error;
    } finally {
      submitting.current = false;
    }
  };
  return { ...form, handleSubmit };
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
