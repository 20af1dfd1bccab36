import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/**
 * A 400's field errors (the server's rules a form cannot check itself, e.g. a too common password)
 * shown under the form's own fields, as its own rules are.
 */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (!(error instanceof ApiError) || !error.fieldErrors) return;
  for (const field of fields) {
    const message = error.fieldErrors[field]?.[0];
    if (message) setError(field, { type: 'server', message });
  }
}
