import { type Integration, RENEWAL_REMINDER_DAYS } from '@shiplog/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDate } from '../../lib/format';
import { useLiveCount } from '../../lib/use-live-count';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { Dialog } from '../../ui/dialog';
import { Progress } from '../../ui/progress';
import { ScrollArea } from '../../ui/scroll-area';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { integrationDomainsQuery, integrationsQuery, useImportDomains } from './use-integrations';

/**
 * An integration's domains in a 400 px scrolling list (spec/account.md §2): pick some, import them as
 * projects. Loaded when first opened, or when its button is pointed at (integrations-page.tsx).
 */
export function DomainsDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const domains = useQuery({ ...integrationDomainsQuery(integration.id), throwOnError: false });
  const importDomains = useImportDomains(integration.id);
  // Each domain becomes a project through the projects service, one after another: counted as they come.
  const imported = useLiveCount(importDomains.isPending, ['ProjectCreated']);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [renewalReminders, setRenewalReminders] = useState(true);
  // Reading the domains marks the integration used: its "Last used" shows it.
  const queryClient = useQueryClient();
  const loadedAt = domains.dataUpdatedAt;
  useEffect(() => {
    if (loadedAt) void queryClient.invalidateQueries({ queryKey: integrationsQuery.queryKey, exact: true });
  }, [loadedAt, queryClient]);
  const failure = domains.error?.message;
  useEffect(() => {
    if (failure) toast({ title: 'Failed to fetch domains', description: failure, variant: 'destructive' });
  }, [failure]);
  const selectable = (domains.data ?? []).filter((d) => !d.imported);
  const allSelected = selectable.length > 0 && selectable.every((d) => selected.has(d.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const close = () => {
    setSelected(new Set());
    onClose();
  };
  const runImport = () => importDomains.mutate({ projectIds: [...selected], renewalReminders }, { onSuccess: close });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && close()}
      className="max-w-4xl"
      title={`Domains from ${integration.siteName}`}
      description="Select the domains to import as projects."
    >
      {domains.isPending ? (
        <div className="space-y-2" role="status" aria-label="Loading domains">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      ) : null}
      {domains.isError ? <p className="text-sm text-destructive">{domains.error.message}</p> : null}
      {domains.data?.length === 0 ? <p className="text-sm text-muted-foreground">No domains found.</p> : null}
      {domains.data && domains.data.length > 0 ? (
        <ScrollArea className="max-h-[400px] rounded-md border" data-testid="domain-list">
          <table className="w-full text-sm">
            <thead className="sticky top-0 bg-card text-left">
              <tr className="border-b">
                <th className="w-10 p-2">
                  <Checkbox
                    aria-label="Select all domains"
                    checked={allSelected}
                    disabled={selectable.length === 0}
                    onCheckedChange={(on) =>
                      setSelected(on === true ? new Set(selectable.map((d) => d.id)) : new Set())
                    }
                  />
                </th>
                <th className="p-2">Domain Name</th>
                <th className="p-2">Status</th>
                <th className="p-2">Hosting Provider</th>
                <th className="p-2">Expiry Date</th>
                <th className="p-2">Last Checked</th>
              </tr>
            </thead>
            <tbody>
              {domains.data.map((domain) => (
                <tr key={domain.id} className="border-b last:border-0">
                  <td className="p-2">
                    <Checkbox
                      aria-label={`Select ${domain.domainName}`}
                      checked={domain.imported || selected.has(domain.id)}
                      disabled={domain.imported}
                      onCheckedChange={(on) => toggle(domain.id, on === true)}
                    />
                  </td>
                  <td className="p-2 font-medium">
                    {domain.domainName}
                    {domain.imported ? (
                      <span className="ml-2 text-xs font-normal text-muted-foreground">Imported</span>
                    ) : null}
                  </td>
                  <td className="p-2">{domain.status ?? 'N/A'}</td>
                  <td className="p-2">{domain.hostingProvider ?? 'N/A'}</td>
                  <td className="p-2">{dateOrText(domain.expiryDate)}</td>
                  <td className="p-2">{dateOrText(domain.lastChecked)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      ) : null}
      {importDomains.isPending ? <ImportProgress of={selected.size} done={imported.ProjectCreated ?? 0} /> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-2 text-sm">
          <p aria-live="polite">
            {selected.size} domain{selected.size === 1 ? '' : 's'} selected
          </p>
          <label className="flex items-center gap-2" htmlFor="renewal-reminders">
            <Checkbox
              id="renewal-reminders"
              checked={renewalReminders}
              onCheckedChange={(on) => setRenewalReminders(on === true)}
            />
            Remind me {RENEWAL_REMINDER_DAYS} days before each domain expires
          </label>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button disabled={selected.size === 0 || importDomains.isPending} onClick={runImport}>
            {importDomains.isPending ? 'Importing...' : 'Import Selected Domains'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** How far an import of `of` domains has come, from the live feed's count of the projects made. */
function ImportProgress({ of, done }: { of: number; done: number }) {
  const shown = Math.min(done, of);
  return (
    <div className="flex flex-col gap-2" data-testid="domains-import-progress">
      <Progress label="Domain import progress" value={shown} max={of} />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Importing: {shown} of {of} domains done…
      </p>
    </div>
  );
}

/** A date the external API gave, shown as one when it reads as one. */
function dateOrText(value: string | null): string {
  if (!value) return 'N/A';
  return Number.isNaN(new Date(value).getTime()) ? value : formatDate(value);
}
