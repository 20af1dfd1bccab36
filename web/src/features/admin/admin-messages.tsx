import { useQuery } from '@tanstack/react-query';
import { cn } from '../../lib/class-names';
import { adminCommentsQuery } from '../../lib/queries';

const priorityStyles: Record<string, string> = {
  urgent: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
  high: 'bg-orange-100 text-orange-700 dark:bg-orange-950 dark:text-orange-300',
};

/**
 * The sidebar's messages from administrators (spec/core.md §2): three at most, hidden when there are
 * none. Loaded a moment after the shell (shell/sidebar.tsx), out of every page's first load.
 */
export function AdminMessagesPanel() {
  const { data, isPending } = useQuery(adminCommentsQuery);
  if (isPending) return <p className="px-1 text-xs text-muted-foreground">Loading messages...</p>;
  if (!data || data.length === 0) return null;
  return (
    <section
      aria-label="Messages from the admin"
      className="space-y-2 rounded-lg border bg-accent/40 p-3"
      data-testid="admin-messages"
    >
      {data.slice(0, 3).map((comment) => (
        <article key={comment.id} className="space-y-1">
          {comment.priority !== 'normal' ? (
            <span
              className={cn(
                'inline-block rounded-full px-2 py-0.5 text-[10px] font-semibold uppercase',
                priorityStyles[comment.priority] ?? 'bg-blue-100 text-blue-700',
              )}
            >
              {comment.priority}
            </span>
          ) : null}
          <p className="line-clamp-3 text-xs">{comment.message}</p>
        </article>
      ))}
      {data.length > 3 ? <p className="text-xs text-muted-foreground">+{data.length - 3} more messages</p> : null}
    </section>
  );
}
