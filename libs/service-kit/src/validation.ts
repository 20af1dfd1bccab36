import { type FieldErrors, ValidationError } from '@shiplog/errors';
import type { z } from 'zod';

/**
 * Parses input with the same zod schema the web form uses; failure is a 400 whose `fieldErrors` carry
 * the schema's own messages (the spec's texts), keyed by field path.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : 'body';
    const list = fieldErrors[key] ?? [];
    list.push(issue.message);
    fieldErrors[key] = list;
  }
  throw new ValidationError(fieldErrors);
}
