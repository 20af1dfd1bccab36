import type { Reminder } from '@shiplog/schemas';
import { AlertCircle } from 'lucide-react';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';

export const NO_REMINDERS = "You don't have any upcoming reminders. Add reminders to your projects to stay on track.";

/**
 * Loading skeleton, the error card, the empty text, or the list (spec/core.md §2). With `onRetry` the
 * error is the spec's other variant, 'Error Loading Reminders' with a Retry button (the full page).
 */
export function ReminderListState({
  isPending,
  error,
  reminders,
  onRetry,
  retrying,
  children,
}: {
  isPending: boolean;
  error: Error | null;
  reminders: Reminder[] | undefined;
  onRetry?: () => void;
  retrying?: boolean;
  children: React.ReactNode;
}) {
  if (error && onRetry)
    return (
      <Card>
        <CardContent className="space-y-3 pt-6">
          <div className="flex items-center gap-2 text-destructive">
            <AlertCircle className="size-5" aria-hidden />
            <h3 className="font-semibold">Error Loading Reminders</h3>
          </div>
          <p className="text-sm text-muted-foreground">{error.message}</p>
          <p className="text-sm text-muted-foreground">Please try refreshing the page.</p>
          <Button variant="outline" onClick={onRetry} disabled={retrying}>
            Retry
          </Button>
        </CardContent>
      </Card>
    );
  if (isPending)
    return (
      <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading reminders">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  if (error)
    return (
      <Card>
        <CardContent className="space-y-1 pt-6">
          <div className="flex items-center gap-2 text-destructive">
            <AlertCircle className="size-5" aria-hidden />
            <h3 className="font-semibold">Unable to load reminders</h3>
          </div>
          <p className="text-sm text-muted-foreground">
            There was an error loading your reminders. Please try again later.
          </p>
        </CardContent>
      </Card>
    );
  if (!reminders || reminders.length === 0) return <p className="text-sm text-muted-foreground">{NO_REMINDERS}</p>;
  return <>{children}</>;
}
