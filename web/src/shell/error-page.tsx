import type { ErrorComponentProps } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

/** A page's code that could not be downloaded (Chromium, Firefox and Safari word it so). */
const CODE_NOT_LOADED = /dynamically imported module|Importing a module script failed/i;

/**
 * What a page shows when it fails to render: the reason, and a way out. Offline, a page whose code
 * this device never downloaded says that it is not available offline, where to go back to (the
 * dashboard, My Projects and Reminders open offline), and comes by itself once back online.
 */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const offline = !navigator.onLine && error instanceof Error && CODE_NOT_LOADED.test(error.message);
  useEffect(() => {
    if (!offline) return;
    // Loaded afresh: the router keeps a part that failed to load as failed.
    const reload = () => location.reload();
    addEventListener('online', reload);
    // Back online between this page's drawing and now, unheard: at once.
    if (navigator.onLine) reload();
    return () => removeEventListener('online', reload);
  }, [offline]);
  return (
    <main className="flex min-h-[60vh] items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          <div className="flex items-center gap-2">
            <AlertTriangle className="size-6 text-destructive" aria-hidden />
            <h1 className="text-xl font-semibold">
              {offline ? 'This page is not available offline' : 'Something went wrong'}
            </h1>
          </div>
          <p className="text-sm text-muted-foreground">
            {offline
              ? 'It opens once you are back online. The dashboard, My Projects and Reminders can be read offline.'
              : error instanceof Error
                ? error.message
                : String(error)}
          </p>
          <div className="flex flex-wrap gap-2">
            {offline ? (
              <Button onClick={() => history.back()}>Go back</Button>
            ) : (
              <Button onClick={reset}>Try again</Button>
            )}
            <Button variant="outline" asChild>
              <a href="/">Go to Dashboard</a>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
