import { cn } from '../lib/class-names';
import type { ToggleProps } from './checkbox';

/**
 * An on/off switch drawn as the design has it: a button with the switch role, toggled by a click,
 * Space or Enter (a native button's keys), its state in `aria-checked` and `data-state`. Our own few
 * lines, as the checkbox: Radix's Switch put about 4 KB gzipped into the settings page (decision 023).
 */
export function Switch({ checked = false, onCheckedChange, className, ...props }: ToggleProps) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      onClick={() => onCheckedChange?.(!checked)}
      className={cn(
        'peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50',
        'data-[state=checked]:bg-primary data-[state=unchecked]:bg-input',
        className,
      )}
      {...props}
    >
      <span
        data-state={state}
        className="pointer-events-none block size-5 rounded-full bg-background shadow-lg ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
