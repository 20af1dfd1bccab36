import type { Integration } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Globe, Trash2 } from 'lucide-react';
import { Suspense, useState } from 'react';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { lazyPart, preloading } from '../../lib/on-demand';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { Skeleton } from '../../ui/skeleton';
import { integrationsQuery, useDeleteIntegration } from './use-integrations';

// The domains dialog (its table, Radix's scroll area and the dialog's panel) loads on first use.
const DomainsDialog = lazyPart(() => import('./domains-dialog'), 'DomainsDialog');
const preloadDomainsDialog = preloading(DomainsDialog);

/** The user's integrations: view their domains, or delete one after confirming. */
export function IntegrationsList() {
  const { data: integrations, isPending, isError } = useQuery(integrationsQuery);
  const remove = useDeleteIntegration();
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [viewing, setViewing] = useState<Integration | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your Integrations</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {isPending ? <Skeleton className="h-20 w-full" /> : null}
        {isError ? <p className="text-sm text-destructive">Failed to fetch integrations</p> : null}
        {integrations?.length === 0 ? (
          <p className="text-sm text-muted-foreground">No integrations configured yet.</p>
        ) : null}
        {integrations?.map((integration) => (
          <article
            key={integration.id}
            className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between"
            aria-label={integration.siteName}
          >
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold">{integration.siteName}</h3>
                <span
                  className={cn(
                    'rounded-full px-2.5 py-0.5 text-xs font-semibold',
                    integration.isActive
                      ? 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200'
                      : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
                  )}
                >
                  {integration.isActive ? 'Active' : 'Inactive'}
                </span>
              </div>
              <p className="truncate text-sm text-muted-foreground">{integration.baseUrl}</p>
              <p className="text-xs text-muted-foreground">
                Last used: {integration.lastUsed ? formatDate(integration.lastUsed) : 'Never'}
              </p>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button
                variant="outline"
                size="sm"
                aria-haspopup="dialog"
                onClick={() => setViewing(integration)}
                onPointerEnter={preloadDomainsDialog}
                onFocus={preloadDomainsDialog}
              >
                <Globe className="size-4" aria-hidden />
                View Domains
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Delete ${integration.siteName}`}
                onClick={() => setDeleting(integration)}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </div>
          </article>
        ))}
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete integration?"
        description="This will delete the integration configuration permanently. Your imported projects will remain in your dashboard."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
      {viewing ? (
        <Suspense fallback={null}>
          <DomainsDialog integration={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
    </Card>
  );
}
