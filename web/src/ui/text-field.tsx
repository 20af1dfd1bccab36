import type { ComponentProps } from 'react';
import { FieldError, Input, Label } from './input';

/** A labelled input with its validation message, wired for screen readers. */
export function TextField({
  id,
  label,
  error,
  ...input
}: ComponentProps<'input'> & { id: string; label: string; error: string | undefined }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={Boolean(error)} aria-describedby={`${id}-error`} {...input} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
