import { type ReceivedInviteView, roleLabels } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Check, Plus, Users, X } from 'lucide-react';
import { formatDate, plural } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { RoleBadge } from './roles';
import {
  hasCode,
  messageOf,
  receivedInvitesQuery,
  useAcceptInvite,
  useCreateWorkspace,
  useDeclineInvite,
  workspacesQuery,
} from './use-workspaces';

/**
 * Team workspaces: the invites waiting for the user (accept or decline), the workspaces they are in
 * with their role, and a new one (the trial's or a subscription's).
 */
export function WorkspacesPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <ReceivedInvitesCard />
      <WorkspacesCard />
    </div>
  );
}

function ReceivedInvitesCard() {
  const { data: invites, error } = useQuery(receivedInvitesQuery);
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  // Nothing to answer: no card (a failure still says so).
  if (!error && (!invites || invites.length === 0)) return null;
  const busy = (invite: ReceivedInviteView) =>
    (accept.isPending && accept.variables?.id === invite.id) ||
    (decline.isPending && decline.variables?.id === invite.id);
  return (
    <Card className="border-primary/50" data-testid="received-invites">
      <CardHeader>
        <CardTitle>Invites for you</CardTitle>
        <CardDescription>Accept to join the workspace with the role it gives you.</CardDescription>
      </CardHeader>
      <CardContent>
        {error ? (
          <p className="text-sm text-destructive">Could not load your invites: {error.message}</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Invites for you">
            {invites?.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{invite.workspace.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {invite.invitedBy} invited you as {roleLabels[invite.role].toLowerCase()} · Expires{' '}
                    {formatDate(invite.expiresAt)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    disabled={busy(invite)}
                    aria-label={`Accept the invite to ${invite.workspace.name}`}
                    onClick={() => accept.mutate(invite)}
                  >
                    <Check /> Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={busy(invite)}
                    aria-label={`Decline the invite to ${invite.workspace.name}`}
                    onClick={() => decline.mutate(invite)}
                  >
                    <X /> Decline
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function WorkspacesCard() {
  const { data: workspaces, isPending, error } = useQuery(workspacesQuery);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your workspaces</CardTitle>
        <CardDescription>
          Share projects with your team: owners and admins invite people, members work on the projects, viewers read
          them.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load your workspaces: {error.message}</p>
        ) : workspaces.length === 0 ? (
          <p className="text-sm text-muted-foreground">You are not in any workspace yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your workspaces">
            {workspaces.map((workspace) => (
              <li key={workspace.id} className="flex items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <Link
                    to="/workspaces/$id"
                    params={{ id: workspace.id }}
                    className="truncate text-sm font-medium hover:underline"
                  >
                    {workspace.name}
                  </Link>
                  <p className="flex items-center gap-1 text-xs text-muted-foreground">
                    <Users className="size-3" aria-hidden /> {plural(workspace.memberCount, 'member')}
                  </p>
                </div>
                <RoleBadge role={workspace.role} />
              </li>
            ))}
          </ul>
        )}
        <CreateWorkspaceForm />
      </CardContent>
    </Card>
  );
}

function CreateWorkspaceForm() {
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const form = useSchemaForm('workspaceInputSchema', { defaultValues: { name: '' } });
  const submit = (values: FormOutput<'workspaceInputSchema'>) =>
    create.mutateAsync(values).then(
      (workspace) => navigate({ to: '/workspaces/$id', params: { id: workspace.id } }),
      (failure: Error) => {
        showServerFieldErrors(failure, form.setError, ['name']);
        throw failure;
      },
    );
  const needsPlan = hasCode(create.error, 'SUBSCRIPTION_REQUIRED') && !create.isPending ? create.error : null;
  return (
    <form className="space-y-3" noValidate onSubmit={form.handleSubmit(submit)}>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-56 flex-1">
          <TextField
            id="workspace-name"
            label="New workspace name"
            placeholder="Acme"
            maxLength={100}
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
        </div>
        <Button type="submit" disabled={create.isPending || form.formState.isSubmitting} className="mb-0.5">
          <Plus /> {create.isPending ? 'Creating...' : 'Create workspace'}
        </Button>
      </div>
      {needsPlan ? (
        <p role="alert" className="text-sm text-destructive" data-testid="workspace-needs-plan">
          {messageOf(needsPlan)}{' '}
          <Link to="/subscription" className="font-medium underline">
            See plans
          </Link>
        </p>
      ) : null}
    </form>
  );
}
