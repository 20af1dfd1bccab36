import { cn } from '../../lib/class-names';

/** Each status's name and colours: the badge, and wherever a status is chosen. */
export const statuses = {
  planning: { label: 'Planning', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  development: { label: 'Development', className: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-200' },
  deployed: { label: 'Deployed', className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200' },
  blocked: { label: 'Blocked', className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200' },
} as const;

/** An unknown status shows as Planning (spec/core.md §4). */
export function StatusBadge({ status }: { status: string }) {
  const { label, className } = statuses[status as keyof typeof statuses] ?? statuses.planning;
  return (
    <span className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', className)}>
      {label}
    </span>
  );
}
