import { type FieldErrors, ValidationError } from '@shiplog/errors';
import { isStorableText } from '@shiplog/messaging';
import type { z } from 'zod';

/**
 * Parses input with the same zod schema the web form uses; failure is a 400 whose `fieldErrors` carry
 * the schema's own messages (the spec's texts), keyed by field path.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) {
    const unstorable: FieldErrors = {};
    findUnstorable(result.data, [], unstorable);
    if (Object.keys(unstorable).length > 0) throw new ValidationError(unstorable);
    return result.data;
  }
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : 'body';
    const list = fieldErrors[key] ?? [];
    list.push(issue.message);
    fieldErrors[key] = list;
  }
  throw new ValidationError(fieldErrors);
}

export const UNSTORABLE_TEXT_MESSAGE = 'Contains characters that cannot be stored';

/**
 * Text PostgreSQL cannot hold: a NUL character, or half of a surrogate pair (neither fits a text
 * column or a jsonb value). Refused here, at the door: sealed inside an event, such a string would
 * pass the event store and then stop every projection that writes it, for every user, on each retry.
 */
function findUnstorable(value: unknown, path: string[], out: FieldErrors): void {
  const bad = (text: string) => !isStorableText(text);
  if (typeof value === 'string') {
    if (bad(value)) out[path.length > 0 ? path.join('.') : 'body'] = [UNSTORABLE_TEXT_MESSAGE];
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) findUnstorable(item, [...path, String(index)], out);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      if (bad(key)) out[path.length > 0 ? path.join('.') : 'body'] = [UNSTORABLE_TEXT_MESSAGE];
      findUnstorable(item, [...path, key], out);
    }
  }
}
