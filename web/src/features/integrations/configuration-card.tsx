import type { DiagnosticsResponse, IntegrationForm, TestConnectionResponse } from '@shiplog/schemas';
import { CheckCircle2, Loader2, ShieldCheck, XCircle } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { cn } from '../../lib/class-names';
import { useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { TextField } from '../../ui/text-field';
import { useDiagnostics, useSaveIntegration, useTestConnection } from './use-integrations';

/** The connection form: test, diagnose and save an integration (spec/account.md §2). */
export function ConfigurationCard() {
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
    save.mutateAsync(values).then(() => {
      form.reset({ siteName: '', baseUrl: values.baseUrl, apiKey: '' });
      setTested(null);
      setDiagnosed(null);
    });
  const busy = save.isPending || test.isPending || diagnostics.isPending || form.formState.isSubmitting;

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
