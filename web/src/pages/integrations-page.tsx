import type { DiagnosticsResponse, Integration, IntegrationForm, TestConnectionResponse } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Globe, Loader2, ShieldCheck, Trash2, XCircle } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { TextField } from '../components/text-field';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { ConfirmDialog } from '../components/ui/dialog';
import { Skeleton } from '../components/ui/skeleton';
import { toast } from '../components/ui/toast';
import { useDeleteIntegration, useDiagnostics, useSaveIntegration, useTestConnection } from '../hooks/use-integrations';
import { cn } from '../lib/class-names';
import { formatDate } from '../lib/format';
import { useSchemaForm } from '../lib/forms';
import { lazyPart, preloading } from '../lib/on-demand';
import { integrationsQuery } from '../lib/queries';

// The domains dialog (its table, Radix's scroll area and the dialog's panel) loads on first use.
const DomainsDialog = lazyPart(() => import('../components/integrations/domains-dialog'), 'DomainsDialog');
const preloadDomainsDialog = preloading(DomainsDialog);

/** `/integrations` and `/integration-config` (spec/account.md §2): one page. */
export function IntegrationsPage() {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <ConfigurationCard />
      <IntegrationsList />
    </div>
  );
}

function ConfigurationCard() {
  const form = useSchemaForm('integrationFormSchema', {
    defaultValues: { siteName: '', baseUrl: window.location.origin, apiKey: '' },
  });
  const save = useSaveIntegration();
  const test = useTestConnection();
  const diagnostics = useDiagnostics();
  const [tested, setTested] = useState<TestConnectionResponse | null>(null);
  const [diagnosed, setDiagnosed] = useState<DiagnosticsResponse | { failed: string } | null>(null);

  const runTest = (values: IntegrationForm) => {
    setTested(null);
    test.mutate(values, {
      onSuccess: setTested,
      onError: (error) =>
        setTested({
          success: false,
          message: `Connection failed: ${error.message}`,
          debug: { statusCode: null, contentType: null, responseData: null },
        }),
    });
  };
  const runDiagnostics = (values: IntegrationForm) => {
    setDiagnosed(null);
    diagnostics.mutate(values, {
      onSuccess: setDiagnosed,
      onError: (error) => setDiagnosed({ failed: `Diagnostics failed: ${error.message}` }),
    });
  };
  const submit = (values: IntegrationForm) =>
    save.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Integration configured successfully', description: 'Your API connection has been saved' });
        form.reset({ siteName: '', baseUrl: values.baseUrl, apiKey: '' });
        setTested(null);
        setDiagnosed(null);
      },
      onError: (error) =>
        toast({ title: 'Failed to save configuration', description: error.message, variant: 'destructive' }),
    });
  const busy = save.isPending || test.isPending || diagnostics.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Configure External API</CardTitle>
        <CardDescription>
          Connect your domain-management service to see its domains here and import them as projects.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <TextField
            id="integration-site-name"
            label="Site name"
            placeholder="My domain registrar"
            error={form.formState.errors.siteName?.message}
            {...form.register('siteName')}
          />
          <TextField
            id="integration-base-url"
            label="Base URL"
            type="url"
            placeholder="https://api.example.com"
            error={form.formState.errors.baseUrl?.message}
            {...form.register('baseUrl')}
          />
          <TextField
            id="integration-api-key"
            label="API key"
            type="password"
            autoComplete="off"
            error={form.formState.errors.apiKey?.message}
            {...form.register('apiKey')}
          />
          <div className="flex gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100">
            <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>
              Security notice: your API key is encrypted before it is stored, is never shown again, and is sent only to
              the base URL above. Shiplog never connects to private or local network addresses.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" disabled={busy} onClick={form.handleSubmit(runTest)}>
              {test.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
              Test Connection
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={form.handleSubmit(runDiagnostics)}>
              {diagnostics.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
              Advanced Diagnostics
            </Button>
            <Button type="submit" disabled={busy}>
              {save.isPending ? 'Saving...' : 'Save Configuration'}
            </Button>
          </div>
          {diagnostics.isPending ? (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              Running diagnostics: this may take up to 30 seconds.
            </p>
          ) : null}
        </form>
        {tested ? <TestResult result={tested} /> : null}
        {diagnosed ? <DiagnosticsResult result={diagnosed} /> : null}
        <HowTo />
      </CardContent>
    </Card>
  );
}

function ResultPanel({ success, title, children }: { success: boolean; title: string; children: ReactNode }) {
  const Icon = success ? CheckCircle2 : XCircle;
  return (
    <section
      aria-label={title}
      className={cn(
        'space-y-2 rounded-lg border p-4 text-sm',
        success
          ? 'border-green-200 bg-green-50 text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100'
          : 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100',
      )}
    >
      <h3 className="flex items-center gap-2 font-semibold">
        <Icon className="size-4" aria-hidden />
        {title}
      </h3>
      {children}
    </section>
  );
}

function TestResult({ result }: { result: TestConnectionResponse }) {
  return (
    <ResultPanel success={result.success} title={result.success ? 'Connection test passed' : 'Connection test failed'}>
      <p className="whitespace-pre-wrap break-words" data-testid="test-message">
        {result.message}
      </p>
    </ResultPanel>
  );
}

function DiagnosticsResult({ result }: { result: DiagnosticsResponse | { failed: string } }) {
  if ('failed' in result) {
    return (
      <ResultPanel success={false} title="Diagnostics">
        <p>{result.failed}</p>
      </ResultPanel>
    );
  }
  return (
    <ResultPanel success={result.success} title="Diagnostics">
      <p className="font-medium">{result.message}</p>
      <ul className="space-y-1">
        {result.results.map((r) => (
          <li key={r.test} className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-semibold">{r.success ? '✓ Success' : '✗ Fail'}</span>
            <span>{r.test}</span>
            <code className="text-xs">{r.authHeader}</code>
            <span className="text-xs">Status: {r.status ?? 'none'}</span>
            {r.error ? <span className="w-full break-words text-xs opacity-80">{r.error}</span> : null}
          </li>
        ))}
      </ul>
    </ResultPanel>
  );
}

function HowTo() {
  return (
    <section className="space-y-2 text-sm">
      <h3 className="font-semibold">How to get an API key</h3>
      <ol className="list-decimal space-y-1 pl-5 text-muted-foreground">
        <li>Sign in to your domain-management service.</li>
        <li>Open its API or developer settings.</li>
        <li>Create a new API key. Read permission is enough: Shiplog only lists your domains.</li>
        <li>Paste the service’s base URL and the key above, test the connection, then save.</li>
      </ol>
    </section>
  );
}

function IntegrationsList() {
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
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: 'Integration deleted' });
              setDeleting(null);
            },
            onError: (error) =>
              toast({ title: 'Failed to delete integration', description: error.message, variant: 'destructive' }),
          })
        }
      />
      {viewing ? (
        <Suspense fallback={null}>
          <DomainsDialog integration={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
    </Card>
  );
}
