import { type FieldErrors, ValidationError } from '@shiplog/errors';
import { newId } from '@shiplog/events';
import { isStorableText } from '@shiplog/messaging';
import type { z } from 'zod';
import { deterministicId } from './command.ts';

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

/** A create's `Idempotency-Key` header: the same key from the same user creates one thing, once. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The id a create gives what it makes: derived from the caller and their `Idempotency-Key` when they
 * send one (a retried request then appends the same event ids, which the store takes as a no-op and
 * answers as before), else a fresh one.
 */
export function createdId(
  req: { headers: Record<string, string | string[] | undefined> },
  userId: string,
  kind: string,
) {
  const key = req.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return { id: newId(), idempotencyKey: undefined };
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new ValidationError({ 'Idempotency-Key': ['Idempotency-Key must be 1 to 200 visible ASCII characters'] });
  }
  const id = deterministicId(`${kind}:${userId}:${key}`);
  return { id, idempotencyKey: id };
}
