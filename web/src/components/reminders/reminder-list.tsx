import type { Reminder } from '@shiplog/schemas';
import { AlertCircle } from 'lucide-react';
import { Card, CardContent } from '../ui/card';
import { Skeleton } from '../ui/skeleton';

export const NO_REMINDERS = "You don't have any upcoming reminders. Add reminders to your projects to stay on track.";

/** Loading skeleton, the error card, the empty text, or the list (spec/core.md §2). */
export function ReminderListState({
  isPending,
  error,
  reminders,
  children,
}: {
  isPending: boolean;
  error: Error | null;
  reminders: Reminder[] | undefined;
  children: React.ReactNode;
}) {
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
