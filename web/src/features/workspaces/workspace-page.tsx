import { roleAtLeast, roleLabels, WORKSPACE_READ_ONLY_MESSAGE, type WorkspaceView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { AlertCircle, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ApiError, isNotFound } from '../../lib/api';
import { plural } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { usePageTitle } from '../../lib/page-title';
import { showServerFieldErrors } from '../../lib/server-errors';
import { BackLink } from '../../ui/back-link';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { WarningNotice } from '../../ui/warning-notice';
import { AlertChannelsCard } from '../monitors/alert-channels-card';
import { AlertMailCard } from './alert-mail-card';
import { AuditCard } from './audit-card';
import { InvitesCard } from './invites-card';
import { MembersCard } from './members-card';
import { RoleBadge, roleAbilities } from './roles';
import {
  messageOf,
  roleArticle,
  useDeleteWorkspace,
  useRenameWorkspace,
  useWorkspaceSlug,
  workspaceQuery,
} from './use-workspaces';

/**
 * One team workspace, as the user's role allows: everyone sees its members and their own role (and
 * may leave); admins and owners rename it, change roles, invite and revoke; owners make owners and
 * delete it. What the role cannot do is not offered.
 */
export function WorkspacePage() {
  const { id } = useParams({ from: '/app/workspaces/$id' });
  const { data: workspace, error, isPending } = useQuery(workspaceQuery(id));
  usePageTitle(workspace?.name ?? null);

  if (isPending)
    return (
      <div className="mx-auto max-w-3xl space-y-4" role="status" aria-busy="true" aria-label="Loading workspace">
        <Skeleton className="h-8 w-1/3" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  if (error) return isNotFound(error) ? <WorkspaceNotFound /> : <WorkspaceLoadError error={error} />;

  const admin = roleAtLeast(workspace.role, 'admin');
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/workspaces">Back to Team workspaces</BackLink>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-2xl font-semibold tracking-tight">{workspace.name}</h2>
          <RoleBadge role={workspace.role} />
        </div>
        <p className="text-sm text-muted-foreground" data-testid="your-role">
          You are {roleArticle(workspace.role)} of this workspace, with {plural(workspace.memberCount, 'member')}.{' '}
          {roleAbilities[workspace.role]}
        </p>
        {workspace.readOnly ? (
          <WarningNotice icon={AlertCircle} data-testid="workspace-read-only">
            {WORKSPACE_READ_ONLY_MESSAGE}{' '}
            {workspace.role === 'owner' ? (
              <Link to="/subscription" className="font-medium underline">
                Choose a plan
              </Link>
            ) : null}
          </WarningNotice>
        ) : null}
      </div>
      {admin ? <RenameCard workspace={workspace} /> : null}
      {admin ? <StatusPageCard workspace={workspace} /> : null}
      <AlertMailCard workspace={workspace} />
      {admin ? <AlertChannelsCard workspaceId={workspace.id} /> : null}
      <MembersCard workspace={workspace} />
      {admin ? <InvitesCard workspace={workspace} /> : null}
      {admin ? <AuditCard workspace={workspace} /> : null}
      {workspace.role === 'owner' ? <DeleteWorkspaceCard workspace={workspace} /> : null}
    </div>
  );
}

/** The address of the team's public status page: its public projects' monitors, signed out. */
function StatusPageCard({ workspace }: { workspace: WorkspaceView }) {
  const save = useWorkspaceSlug(workspace.id);
  const form = useSchemaForm('workspaceSlugFormSchema', { values: { slug: workspace.slug ?? '' } });
  const submit = (values: FormOutput<'workspaceSlugFormSchema'>) =>
    save.mutateAsync(values).catch((failure: Error) => {
      showServerFieldErrors(failure, form.setError, ['slug']);
      if (failure instanceof ApiError && failure.code === 'SLUG_TAKEN')
        form.setError('slug', { type: 'server', message: messageOf(failure) });
      throw failure;
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status page</CardTitle>
        <CardDescription>
          The monitors of the workspace’s public projects, for anyone, at an address you choose. A changed address still
          leads here for 30 days.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {workspace.slug ? (
          <p className="text-sm">
            <Link to="/w/$slug/status" params={{ slug: workspace.slug }} className="underline">
              /w/{workspace.slug}/status
            </Link>
          </p>
        ) : null}
        <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="min-w-56 flex-1">
            <TextField
              id="workspace-slug"
              label="Address (slug)"
              maxLength={40}
              placeholder="my-team"
              error={form.formState.errors.slug?.message}
              {...form.register('slug')}
            />
          </div>
          <Button
            type="submit"
            variant="outline"
            disabled={save.isPending || form.formState.isSubmitting}
            className="mb-0.5"
          >
            {save.isPending ? 'Saving...' : 'Save address'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function RenameCard({ workspace }: { workspace: WorkspaceView }) {
  const rename = useRenameWorkspace(workspace.id);
  const form = useSchemaForm('workspaceInputSchema', { values: { name: workspace.name } });
  const submit = (values: FormOutput<'workspaceInputSchema'>) =>
    rename.mutateAsync(values).catch((failure: Error) => {
      showServerFieldErrors(failure, form.setError, ['name']);
      throw failure;
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Name</CardTitle>
        <CardDescription>What its members see it as. {roleLabels.owner}s and admins can rename it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="min-w-56 flex-1">
            <TextField
              id="workspace-rename"
              label="Workspace name"
              maxLength={100}
              error={form.formState.errors.name?.message}
              {...form.register('name')}
            />
          </div>
          <Button
            type="submit"
            variant="outline"
            disabled={rename.isPending || form.formState.isSubmitting}
            className="mb-0.5"
          >
            {rename.isPending ? 'Saving...' : 'Rename'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function DeleteWorkspaceCard({ workspace }: { workspace: WorkspaceView }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteWorkspace(workspace);
  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle>Delete workspace</CardTitle>
        <CardDescription>
          Deletes the workspace for everyone in it: its members lose it and its pending invites stop working. Owners
          only; you will be asked for your password if you have not typed it lately.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <Trash2 /> Delete workspace
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Delete “${workspace.name}”?`}
          description="Everyone in it loses it at once, and this cannot be undone."
          confirmLabel={remove.isPending ? 'Deleting...' : 'Delete workspace'}
          pending={remove.isPending}
          typeToConfirm={workspace.name}
          onConfirm={() => remove.mutate(undefined, { onError: () => setConfirming(false) })}
        />
      </CardContent>
    </Card>
  );
}

/** A workspace the user is not in (or that is gone), or a path whose id is not an id at all. */
export function WorkspaceNotFound() {
  return (
    <Card className="mx-auto max-w-3xl">
      <CardContent className="space-y-4 pt-6">
        <p>
          <strong>Workspace not found:</strong> it does not exist, was deleted, or you are not one of its members.
        </p>
        <BackLink to="/workspaces">Back to Team workspaces</BackLink>
      </CardContent>
    </Card>
  );
}

function WorkspaceLoadError({ error }: { error: Error }) {
  return (
    <Card className="mx-auto max-w-3xl">
      <CardContent className="space-y-4 pt-6">
        <div className="flex items-center gap-2 text-destructive">
          <AlertCircle className="size-5" aria-hidden />
          <h2 className="font-semibold">Error loading workspace</h2>
        </div>
        <p className="text-sm text-muted-foreground">{error.message}</p>
        <BackLink to="/workspaces">Back to Team workspaces</BackLink>
      </CardContent>
    </Card>
  );
}
