import type { GitHubConnectedView, GitHubConnectionView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { AlertCircle, GitBranch } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSchemaForm } from '../../lib/forms';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { CopyField } from '../../ui/copy-field';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { toast } from '../../ui/toast';
import { WarningNotice } from '../../ui/warning-notice';
import {
  githubQuery,
  githubRepositoriesQuery,
  useConnectGitHub,
  useDisconnectGitHub,
  useFinishGitHubAppInstall,
  useImportRepositories,
  useInstallGitHubApp,
} from './use-github';

/**
 * GitHub on the External API page: connect with a fine-grained token (github.com, or a GitHub
 * Enterprise Server's API address), or by installing the server's GitHub App when it has one, then
 * import repositories as projects. Each imported project's releases, deployments and pushes are
 * recorded from GitHub's webhook; the webhook secret is shown here once, for a repository whose
 * webhook the token may not make. This page is the app's callback: GitHub sends the browser back
 * here after an install, and the install is finished here.
 */
export function GitHubCard() {
  const { data: connection, isPending } = useQuery(githubQuery);
  const [made, setMade] = useState<GitHubConnectedView | null>(null);
  const finishing = useInstallReturn();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GitBranch className="size-5" aria-hidden /> GitHub
        </CardTitle>
        <CardDescription>
          Import repositories as projects: their releases, deployments and pushes are recorded on each project’s
          timeline as they happen.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending || !connection || finishing ? (
          <Skeleton className="h-24 w-full" />
        ) : connection.connected && !connection.reconnect ? (
          <Connected connection={connection} made={made} />
        ) : (
          <>
            {connection.appAvailable ? (
              <InstallApp reconnect={connection.reconnect && connection.via === 'app'} />
            ) : null}
            <ConnectForm
              reconnect={connection.reconnect && connection.via === 'token'}
              withApp={connection.appAvailable}
              onConnected={setMade}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * What GitHub hands this page after an install of the app (`installation_id`, `code`, `state`), taken
 * off the address at once and sent to finish the connection; true while that is under way.
 */
function useInstallReturn(): boolean {
  const navigate = useNavigate();
  const finish = useFinishGitHubAppInstall();
  const taken = useRef(false);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const installationId = params.get('installation_id');
    if (taken.current || (!installationId && !params.has('setup_action'))) return;
    taken.current = true;
    void navigate({ to: '.', search: {}, replace: true });
    // An organisation member's install waits for an owner of the organisation to approve it on GitHub.
    if (params.get('setup_action') === 'request')
      return void toast({
        title: 'Installation requested',
        description: 'An owner of the GitHub organisation approves it; then install the app here again.',
      });
    finish.mutate({
      installationId: Number(installationId),
      code: params.get('code') ?? '',
      state: params.get('state') ?? '',
    });
  }, [navigate, finish.mutate]);
  return finish.isPending;
}

function InstallApp({ reconnect }: { reconnect: boolean }) {
  const install = useInstallGitHubApp();
  return (
    <section className="space-y-3 rounded-lg border p-3" aria-label="GitHub App">
      {reconnect ? (
        <WarningNotice icon={AlertCircle}>
          The GitHub App was uninstalled or suspended on GitHub. Install it again: your projects and their repositories
          stay joined.
        </WarningNotice>
      ) : null}
      <p className="text-sm text-muted-foreground">
        Install this server’s GitHub App on your account or organisation, for the repositories you choose: no token to
        make or renew, and one webhook for all of them.
      </p>
      <Button disabled={install.isPending || install.isSuccess} onClick={() => install.mutate()}>
        {install.isPending || install.isSuccess ? 'Opening GitHub…' : 'Install the GitHub App'}
      </Button>
    </section>
  );
}

function ConnectForm({
  reconnect,
  withApp,
  onConnected,
}: {
  reconnect: boolean;
  withApp: boolean;
  onConnected: (made: GitHubConnectedView) => void;
}) {
  const form = useSchemaForm('connectGitHubSchema', { defaultValues: { token: '', apiUrl: '' } });
  const connect = useConnectGitHub();
  const { errors } = form.formState;
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        connect
          .mutateAsync(values)
          .then(onConnected)
          .catch((error: unknown) => showServerFieldErrors(error, form.setError, ['token', 'apiUrl'])),
      )}
    >
      {withApp ? <p className="text-sm text-muted-foreground">Or connect with a token of yours:</p> : null}
      {reconnect ? (
        <WarningNotice icon={AlertCircle}>
          GitHub no longer accepts the token you connected with (revoked or expired). Connect again with a new one: your
          projects and their repositories stay joined.
        </WarningNotice>
      ) : null}
      <TextField
        id="github-token"
        label="Personal access token"
        type="password"
        autoComplete="off"
        error={errors.token?.message}
        {...form.register('token')}
      />
      <TextField
        id="github-api-url"
        label="GitHub Enterprise API URL (optional)"
        type="url"
        placeholder="https://github.example.com/api/v3"
        error={errors.apiUrl?.message}
        {...form.register('apiUrl')}
      />
      <details className="rounded-lg border p-3 text-sm">
        <summary className="cursor-pointer font-medium">Which token?</summary>
        <p className="mt-2 text-muted-foreground">
          A fine-grained personal access token (GitHub › Settings › Developer settings), for the repositories you want
          here, with read access to Metadata, Contents and Deployments, and read and write access to Webhooks so Shiplog
          can add each repository’s webhook itself. Without Webhooks, you add it by hand with the address and secret
          shown once connected. The token is encrypted before it is stored and never shown again.
        </p>
      </details>
      <Button type="submit" disabled={connect.isPending || form.formState.isSubmitting}>
        {connect.isPending ? 'Connecting…' : reconnect ? 'Connect again' : 'Connect GitHub'}
      </Button>
    </form>
  );
}

function Connected({ connection, made }: { connection: GitHubConnectionView; made: GitHubConnectedView | null }) {
  const disconnect = useDisconnectGitHub();
  const [importing, setImporting] = useState(false);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm" data-testid="github-connected">
          Connected as <strong>{connection.login}</strong>
          {connection.apiUrl && connection.apiUrl !== 'https://api.github.com' ? ` on ${connection.apiUrl}` : ''}
          {connection.via === 'app' ? ', through the GitHub App' : ''}.
        </p>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setImporting((open) => !open)} aria-expanded={importing}>
            Import repositories
          </Button>
          <Button variant="ghost" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
            Disconnect
          </Button>
        </div>
      </div>
      {made && connection.webhookUrl ? (
        <section
          className="space-y-2 rounded-lg border p-3 text-sm"
          aria-label="Webhook for a repository added by hand"
        >
          <p>
            For a repository whose webhook the token may not add: in its Settings › Webhooks, add this payload URL
            (content type application/json) with this secret, for releases, deployment statuses and pushes. The secret
            is shown only now.
          </p>
          <CopyField
            value={connection.webhookUrl}
            label="Webhook payload URL"
            copyLabel="Copy webhook payload URL"
            copied="Paste it as the webhook's payload URL."
            mono
          />
          <CopyField
            value={made.webhookSecret}
            label="Webhook secret"
            copyLabel="Copy webhook secret"
            copied="Paste it as the webhook's secret."
            mono
          />
        </section>
      ) : null}
      {importing ? <ImportList /> : null}
    </div>
  );
}

function ImportList() {
  const { data: repositories, isPending, error } = useQuery(githubRepositoriesQuery);
  const importRepositories = useImportRepositories();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  if (isPending) return <Skeleton className="h-32 w-full" />;
  if (error)
    return (
      <p role="alert" className="text-sm text-destructive">
        {error.message}
      </p>
    );
  const toggle = (name: string, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <section className="space-y-3" aria-label="Repositories">
      {repositories.length === 0 ? (
        <p className="text-sm text-muted-foreground">GitHub gives this connection no repository.</p>
      ) : (
        <ul className="max-h-80 space-y-1 overflow-y-auto rounded-lg border p-2" data-testid="github-repositories">
          {repositories.map((repository) => (
            <li key={repository.id} className="flex items-center gap-2 rounded p-1 text-sm">
              {repository.projectId ? (
                <>
                  <span className="w-4" />
                  <span className="flex-1 truncate">{repository.fullName}</span>
                  <Link to="/projects/$id" params={{ id: repository.projectId }} className="text-xs underline">
                    Imported
                  </Link>
                </>
              ) : (
                <>
                  <Checkbox
                    id={`repository-${repository.id}`}
                    checked={chosen.has(repository.fullName)}
                    onCheckedChange={(on) => toggle(repository.fullName, on)}
                  />
                  <label htmlFor={`repository-${repository.id}`} className="flex-1 truncate">
                    {repository.fullName}
                    {repository.private ? <span className="ml-2 text-xs text-muted-foreground">private</span> : null}
                  </label>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <Button
        disabled={chosen.size === 0 || importRepositories.isPending}
        onClick={() => importRepositories.mutate([...chosen], { onSuccess: () => setChosen(new Set()) })}
      >
        {importRepositories.isPending
          ? 'Importing…'
          : chosen.size > 0
            ? `Import ${chosen.size} as projects`
            : 'Import as projects'}
      </Button>
    </section>
  );
}
