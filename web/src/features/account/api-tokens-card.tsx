import { type ApiTokenView, PERSONAL_SPACE } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { formatDate } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { workspacesQuery } from '../../lib/queries';
import { showServerFieldErrors } from '../../lib/server-errors';
import { formatTimeAgo } from '../../lib/time-ago';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { CopyField } from '../../ui/copy-field';
import { ConfirmDialog } from '../../ui/dialog';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { apiTokensQuery, useCreateApiToken, useRevokeApiToken } from './use-api-tokens';

/**
 * Settings › API Tokens: tokens let the `shiplog` CLI and CI jobs record deployments,
 * backups and releases as the user (the routes marked `token` in the gateway's table). A token's text
 * is shown once.
 */
export function ApiTokensCard() {
  const { data: tokens, isPending, error } = useQuery(apiTokensQuery);
  const { data: workspaces } = useQuery(workspacesQuery);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const form = useSchemaForm('apiTokenSchema', {
    defaultValues: { name: '', expiresInDays: '90', scope: 'read', workspaceId: '' },
  });
  const space = form.watch('workspaceId');
  // A viewer's token for their workspace reads only (the server refuses more).
  const viewerSpace = workspaces?.some((w) => w.id === space && w.role === 'viewer') ?? false;
  const spaceName = (id: string | null) =>
    id === null
      ? 'Every space'
      : id === PERSONAL_SPACE
        ? 'Personal space'
        : (workspaces?.find((w) => w.id === id)?.name ?? 'A workspace you left');
  const submit = (values: FormOutput<'apiTokenSchema'>) =>
    create.mutateAsync(values).then(
      (answer) => {
        setCreated({ name: answer.name, token: answer.token });
        form.reset();
      },
      (failure: Error) => {
        showServerFieldErrors(failure, form.setError, ['name']);
        throw failure;
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>API tokens</CardTitle>
        <CardDescription>
          For the shiplog CLI and your CI: a read-and-write token records deployments, backups and releases as you, and
          can read and change your projects and their timelines; a read-only token reads them and changes nothing. Limit
          a token to one space and it finds nothing else. Any token can say whose it is, and one that reaches your
          personal space can download your export. It cannot change your account or reminders, nor reach billing or
          deploy webhooks. Changing your password revokes every token.{' '}
          <Link to="/api-reference" className="underline">
            API reference
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {created ? (
          <div className="space-y-2 rounded-lg border border-primary/50 bg-accent/40 p-3" data-testid="new-api-token">
            <p className="text-sm font-medium">Your new token “{created.name}”</p>
            <CopyField
              value={created.token}
              label="New API token"
              copyLabel="Copy API token"
              copied="Store it in your CI secrets."
              mono
            />
            <p className="text-xs text-muted-foreground">
              Copy it now: it will not be shown again. Keep it secret, as you would a password.
            </p>
            <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        ) : null}

        <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="min-w-56 flex-1">
            <TextField
              id="api-token-name"
              label="Token name"
              placeholder="GitHub Actions"
              error={form.formState.errors.name?.message}
              {...form.register('name')}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="api-token-scope">Access</Label>
            <Select id="api-token-scope" className="block" {...form.register('scope')}>
              <option value="read">Read only</option>
              <option value="write" disabled={viewerSpace}>
                Read and write
              </option>
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="api-token-space">Reaches</Label>
            <Select
              id="api-token-space"
              className="block"
              {...form.register('workspaceId', {
                onChange: (event: { target: { value: string } }) => {
                  if (workspaces?.some((w) => w.id === event.target.value && w.role === 'viewer'))
                    form.setValue('scope', 'read');
                },
              })}
            >
              <option value="">Every space</option>
              <option value={PERSONAL_SPACE}>Personal space</option>
              {workspaces?.map((workspace) => (
                <option key={workspace.id} value={workspace.id}>
                  {workspace.name}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="api-token-expiry">Expires</Label>
            <Select id="api-token-expiry" className="block" {...form.register('expiresInDays')}>
              <option value="30">In 30 days</option>
              <option value="90">In 90 days</option>
              <option value="365">In a year</option>
              <option value="never">Never</option>
            </Select>
          </div>
          <Button type="submit" disabled={create.isPending || form.formState.isSubmitting} className="mb-0.5">
            <KeyRound /> {create.isPending ? 'Creating...' : 'Create token'}
          </Button>
        </form>

        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load your tokens: {error.message}</p>
        ) : tokens.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tokens yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your API tokens">
            {tokens.map((token) => (
              <li key={token.id} className="flex items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{token.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {token.scope === 'read' ? 'Read only' : 'Read and write'} · {spaceName(token.workspaceId)}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Created {formatDate(token.createdAt)} · {expiryText(token.expiresAt)} ·{' '}
                    {token.lastUsedAt ? `Last used ${formatTimeAgo(token.lastUsedAt)}` : 'Never used'}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => setRevoking(token)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          open={revoking !== null}
          onOpenChange={(open) => {
            if (!open) setRevoking(null);
          }}
          title="Revoke this token?"
          description={`“${revoking?.name ?? ''}” will stop working at once: anything using it (a CI job, the CLI) will be refused.`}
          confirmLabel={revoke.isPending ? 'Revoking...' : 'Revoke token'}
          pending={revoke.isPending}
          onConfirm={() => revoking && revoke.mutate(revoking, { onSuccess: () => setRevoking(null) })}
        />
      </CardContent>
    </Card>
  );
}

/** When a token stops working, as its row says it. */
function expiryText(expiresAt: string | null): string {
  if (expiresAt === null) return 'Never expires';
  return Date.parse(expiresAt) <= Date.now() ? `Expired ${formatDate(expiresAt)}` : `Expires ${formatDate(expiresAt)}`;
}
