import type { LucideIcon } from 'lucide-react';
import type { ComponentProps } from 'react';

/**
 * A warning where it applies (a workspace without a plan, an invite this account cannot take, a token
 * GitHub refuses): its icon and its words, announced as `role` says (`alert` when it answers what the
 * user just did, `status` otherwise).
 */
export function WarningNotice({
  icon: Icon,
  role = 'status',
  children,
  ...rest
}: Omit<ComponentProps<'div'>, 'role'> & { icon: LucideIcon; role?: 'status' | 'alert' }) {
  return (
    <div role={role} className="flex gap-2 rounded-lg border border-destructive/50 p-3 text-sm" {...rest}>
      <Icon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <p>{children}</p>
    </div>
  );
}
