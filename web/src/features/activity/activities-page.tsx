import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { Fragment } from 'react';
import { activitiesInfiniteQuery, userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { ActivityCard } from './activity-card';

export function ActivitiesPage() {
  const { data: user } = useQuery(userQuery);
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery(
    activitiesInfiniteQuery(user?.id),
  );

  if (isPending)
    return (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading activities">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-16 w-full" />
        ))}
      </div>
    );
  if (error)
    return (
      <Card>
        <CardContent className="space-y-2 pt-6">
          <div className="flex items-center gap-2 text-destructive">
            <AlertCircle className="size-5" aria-hidden />
            <h2 className="font-semibold">Error loading activities</h2>
          </div>
          <p className="text-sm text-muted-foreground">{error.message || 'Failed to fetch activities'}</p>
        </CardContent>
      </Card>
    );
  const activities = data.pages.flat();
  if (activities.length === 0)
    return (
      <Card>
        <CardContent className="py-12 text-center text-muted-foreground">No activity recorded yet</CardContent>
      </Card>
    );
  return (
    <Card>
      <CardContent className="pt-3">
        {activities.map((activity, index) => (
          <Fragment key={activity.id}>
            {index > 0 ? <hr className="border-border" /> : null}
            <ActivityCard activity={activity} />
          </Fragment>
        ))}
        {hasNextPage ? (
          <div className="pt-4 text-center">
            {/* The name stays put while the next page loads: the button is only disabled and busy. */}
            <Button
              variant="outline"
              disabled={isFetchingNextPage}
              aria-busy={isFetchingNextPage}
              onClick={() => fetchNextPage()}
            >
              {isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden /> : null}
              Load More Activities
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
