import { AlertCircle } from 'lucide-react';
import { isNotFound } from '../../lib/api';
import { BackLink } from '../../ui/back-link';
import { Card, CardContent } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';

export function ProjectLoading() {
  return (
    <div className="space-y-4" role="status" aria-busy="true" aria-label="Loading project">
      <Skeleton className="h-8 w-1/3" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

/** The detail and edit pages' failure states (spec/core.md §2). */
export function ProjectLoadError({ error }: { error: Error }) {
  if (isNotFound(error)) return <ProjectNotFound />;
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <div className="flex items-center gap-2 text-destructive">
          <AlertCircle className="size-5" aria-hidden />
          <h2 className="font-semibold">Error loading project</h2>
        </div>
        <p className="text-sm text-muted-foreground">{error.message}</p>
        <BackLink to="/projects">Back to Projects</BackLink>
      </CardContent>
    </Card>
  );
}

/** A project the services do not have for this user, or a path whose id is not an id at all. */
export function ProjectNotFound() {
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <p>
          <strong>Project not found:</strong> The project you're looking for doesn't exist or has been deleted.
        </p>
        <BackLink to="/projects">Back to Projects</BackLink>
      </CardContent>
    </Card>
  );
}
