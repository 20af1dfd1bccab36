import { cn } from '../lib/class-names';
import { initials } from '../lib/format';

export function Avatar({ username, className }: { username: string | null | undefined; className?: string }) {
  return (
    <span
      aria-hidden
      data-testid="avatar"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground',
        className,
      )}
    >
      {initials(username)}
    </span>
  );
}
