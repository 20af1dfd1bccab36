import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { Logo } from '../../ui/logo';
import { Skeleton } from '../../ui/skeleton';

/** The public pages' header (a profile, its status page): the logo, and the way in or back. */
export function PublicHeader() {
  const { data: user } = useQuery(userQuery);
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-3">
        <Link to={user ? '/' : '/auth'} aria-label="Shiplog">
          <Logo />
        </Link>
        <Button asChild variant="outline" size="sm">
          {user ? <Link to="/">Dashboard</Link> : <Link to="/auth">Sign in</Link>}
        </Button>
      </div>
    </header>
  );
}

/**
 * A public page (a profile, its status page): the header, and its data's loading, failure (with
 * Retry) and "not found" (a private profile, or no one by that name) before `children` shows it.
 */
export function PublicPageFrame<T>({
  query,
  notFound,
  children,
}: {
  query: UseQueryResult<T | null>;
  notFound: string;
  children: (data: T) => ReactNode;
}) {
  const { data, isPending, error, refetch } = query;
  return (
    <div className="min-h-screen bg-background">
      <PublicHeader />
      <main className="mx-auto max-w-4xl space-y-6 px-4 py-6">
        {isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : error ? (
          <Card>
            <CardContent className="space-y-3 pt-6">
              <p>This page could not be loaded.</p>
              <Button variant="outline" onClick={() => void refetch()}>
                Retry
              </Button>
            </CardContent>
          </Card>
        ) : !data ? (
          <Card>
            <CardContent className="space-y-2 pt-6 text-center">
              <h1 className="text-2xl font-semibold">{notFound}</h1>
              <p className="text-muted-foreground">This profile is private, or there is no one by that name.</p>
            </CardContent>
          </Card>
        ) : (
          children(data)
        )}
      </main>
    </div>
  );
}
