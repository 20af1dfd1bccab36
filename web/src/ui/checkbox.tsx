import { Check } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../lib/class-names';

/** A two-state control drawn as a button (the checkbox, the switch): its state, and what changes it. */
export type ToggleProps = Omit<ComponentProps<'button'>, 'onChange' | 'value'> & {
  checked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * A checkbox drawn as the design has it: a button with the checkbox role, toggled by a click or Space
 * (not Enter, as for a native checkbox), its state in `aria-checked` and `data-state`. `busy` disables
 * it for a moment (while its change is saved) without taking the keyboard's focus away from it, as
 * `disabled` would: it is announced as unavailable, looks it, and ignores clicks and Space.
 */
export function Checkbox({
  checked = false,
  onCheckedChange,
  busy = false,
  className,
  ...props
}: ToggleProps & { busy?: boolean }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a button with the checkbox role, as Radix draws it, so the box can hold the check icon; its state is aria-checked
    <button
      type="button"
      role="checkbox"
      aria-checked={checked}
      aria-disabled={busy || undefined}
      data-state={checked ? 'checked' : 'unchecked'}
      onClick={() => {
        if (!busy) onCheckedChange?.(!checked);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
      className={cn(
        'peer size-4 shrink-0 rounded-sm border border-primary ring-offset-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
        'data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground',
        className,
      )}
      {...props}
    >
      {checked && (
        <span className="flex items-center justify-center">
          <Check className="size-3.5" strokeWidth={3} />
        </span>
      )}
    </button>
  );
}
