import { INVITE_DAYS, inviteRoles, roleLabels, type SentInviteView, type WorkspaceView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { CopyField } from '../../ui/copy-field';
import { ConfirmDialog } from '../../ui/dialog';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { roleAbilities } from './roles';
import {
  hasCode,
  INVITE_FIELD_CODES,
  type InviteInput,
  messageOf,
  useRevokeInvite,
  useSendInvite,
  workspaceInvitesQuery,
} from './use-workspaces';

/**
 * Owners' and admins': invite an account by its username (it sees the invite on its Team workspaces
 * page) or an address by email (the link is mailed, and shown here this once), and the invites still
 * waiting, each to revoke.
 */
export function InvitesCard({ workspace }: { workspace: WorkspaceView }) {
  const { data: invites, isPending, error } = useQuery(workspaceInvitesQuery(workspace.id));
  const [revoking, setRevoking] = useState<SentInviteView | null>(null);
  const revoke = useRevokeInvite(workspace.id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invites</CardTitle>
        <CardDescription>
          An invite works for {INVITE_DAYS} days, once. Pending invites count towards the workspace’s member limit.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <InviteForm workspace={workspace} />
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p className="text-sm text-destructive">Could not load the invites: {error.message}</p>
        ) : invites.length === 0 ? (
          <p className="text-sm text-muted-foreground">No invites waiting.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Pending invites">
            {invites.map((invite) => (
              <li key={invite.id} className="flex items-center justify-between gap-3 p-3" data-testid="pending-invite">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{invite.to}</p>
                  <p className="text-xs text-muted-foreground">
                    As {roleLabels[invite.role].toLowerCase()} · Invited by {invite.invitedBy} · Expires{' '}
                    {formatDate(invite.expiresAt)}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Revoke the invite to ${invite.to}`}
                  onClick={() => setRevoking(invite)}
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
          title="Revoke this invite?"
          description={`The invite to ${revoking?.to ?? ''} will stop working at once; its link too, if it was emailed.`}
          confirmLabel={revoke.isPending ? 'Revoking...' : 'Revoke invite'}
          pending={revoke.isPending}
          onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(null) })}
        />
      </CardContent>
    </Card>
  );
}

function InviteForm({ workspace }: { workspace: WorkspaceView }) {
  const send = useSendInvite(workspace.id);
  const [emailed, setEmailed] = useState<{ to: string; url: string } | null>(null);
  const form = useSchemaForm('inviteFormSchema', { defaultValues: { by: 'username', to: '', role: 'member' } });
  const by = form.watch('by');
  const role = form.watch('role');
  const submit = ({ by, to, role }: FormOutput<'inviteFormSchema'>) => {
    const input: InviteInput = by === 'username' ? { username: to, role } : { email: to, role };
    return send.mutateAsync(input).then(
      (invite) => {
        setEmailed(invite.url ? { to, url: invite.url } : null);
        form.reset({ by, to: '', role });
      },
      (failure: Error) => {
        // Who was asked is refused (no such account, already in, already invited): said under the field.
        if (hasCode(failure, ...INVITE_FIELD_CODES))
          form.setError('to', { type: 'server', message: messageOf(failure) });
        else if (failure instanceof ApiError && failure.fieldErrors) {
          const message = failure.fieldErrors[by]?.[0] ?? Object.values(failure.fieldErrors)[0]?.[0];
          if (message) form.setError('to', { type: 'server', message });
        }
        throw failure;
      },
    );
  };
  return (
    <div className="space-y-4">
      {emailed ? (
        <div className="space-y-2 rounded-lg border border-primary/50 bg-accent/40 p-3" data-testid="invite-link">
          <p className="text-sm font-medium">Invite link for {emailed.to}</p>
          <CopyField
            value={emailed.url}
            label="Invite link"
            copyLabel="Copy invite link"
            copied="Send it to them if the email does not arrive."
            mono
          />
          <p className="text-xs text-muted-foreground">
            We also emailed it to {emailed.to}. Copy it now if you want to send it yourself: it will not be shown again.
            Only an account that has proven this address (in Settings) can accept it.
          </p>
          <Button variant="ghost" size="sm" onClick={() => setEmailed(null)}>
            Done
          </Button>
        </div>
      ) : null}
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)} aria-label="Invite someone">
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Invite by</legend>
          <div className="flex gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" value="username" {...form.register('by')} /> Username
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" value="email" {...form.register('by')} /> Email address
            </label>
          </div>
        </fieldset>
        <div className="flex flex-wrap items-start gap-2">
          <div className="min-w-56 flex-1">
            <TextField
              id="invite-to"
              label={by === 'email' ? 'Email address' : 'Username'}
              type={by === 'email' ? 'email' : 'text'}
              autoComplete="off"
              error={form.formState.errors.to?.message}
              {...form.register('to')}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="invite-role">Role</Label>
            <Select id="invite-role" className="block" aria-describedby="invite-role-help" {...form.register('role')}>
              {inviteRoles.map((option) => (
                <option key={option} value={option}>
                  {roleLabels[option]}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <p id="invite-role-help" className="text-xs text-muted-foreground">
          {roleAbilities[role]} Owners are made from members, on the member list.
        </p>
        <Button type="submit" disabled={send.isPending || form.formState.isSubmitting}>
          <Send /> {send.isPending ? 'Sending...' : 'Send invite'}
        </Button>
      </form>
    </div>
  );
}
