import type { ErrorComponentProps } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';

/** What a page shows when it fails to render: the reason, and a way out. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  return (
    <main className="flex min-h-[60vh] items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6">
          <div className="flex items-center gap-2">
            <AlertTriangle className="size-6 text-destructive" aria-hidden />
            <h1 className="text-xl font-semibold">Something went wrong</h1>
          </div>
          <p className="text-sm text-muted-foreground">{error instanceof Error ? error.message : String(error)}</p>
          <div className="flex gap-2">
            <Button onClick={reset}>Try again</Button>
            <Button variant="outline" asChild>
              <a href="/">Go to Dashboard</a>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
