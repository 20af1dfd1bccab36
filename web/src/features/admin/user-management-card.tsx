import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type SubscriptionStatus, subscriptionStatuses } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Search, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatDate } from '../../lib/format';
import { useSchemaForm } from '../../lib/forms';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog, Dialog } from '../../ui/dialog';
import { FieldError, Input, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { adminUsersQuery, useChangeSubscriptionStatus, useDeleteUser, useExtendTrial } from './use-admin';

/** A date as the user table shows it, or N/A. */
const when = (iso: string | null) => (iso ? formatDate(iso, 'MMM d, yyyy') : 'N/A');

type UserDialog = { kind: 'status' | 'trial' | 'delete'; user: AdminUser } | null;

export function UserManagementCard() {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<UserDialog>(null);
  useEffect(() => {
    // Searched on the server: one request once typing pauses.
    const timer = setTimeout(() => {
      setQ(typed.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const users = useQuery(adminUsersQuery({ q, page }));
  // The administrator's own account cannot be deleted (the server refuses): its row offers no Delete.
  const me = useQuery(userQuery).data;
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));
  return (
    <Card>
      <CardHeader>
        <CardTitle>User Management</CardTitle>
        <CardDescription>Every account, newest first. Search by username or email.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="relative max-w-sm">
          <Search className="absolute left-3 top-3 size-4 text-muted-foreground" aria-hidden />
          <Input
            aria-label="Search users"
            placeholder="Search users"
            className="pl-9"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="admin-users">
            <thead className="text-left text-muted-foreground">
              <tr className="border-b">
                {['Username', 'Status', 'Trial End', 'Days Remaining', 'Created', 'Actions'].map((column) => (
                  <th key={column} scope="col" className="px-2 py-2 font-medium">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {users.data?.users.map((user) => (
                <tr key={user.id} className="border-b last:border-0" data-testid="admin-user-row">
                  <td className="px-2 py-2">
                    <div className="font-medium">
                      {user.username}
                      {user.id === me?.id ? <span className="ml-2 text-xs text-muted-foreground">(you)</span> : null}
                    </div>
                    {user.email ? <div className="text-xs text-muted-foreground">{user.email}</div> : null}
                  </td>
                  <td className="px-2 py-2">
                    {user.subscriptionStatus ? STATUS_LABELS[user.subscriptionStatus] : 'N/A'}
                  </td>
                  <td className="px-2 py-2">{when(user.trialEndDate)}</td>
                  <td className="px-2 py-2">{adminDaysRemaining(user) ?? 'N/A'}</td>
                  <td className="px-2 py-2">{when(user.createdAt)}</td>
                  <td className="px-2 py-2">
                    <div className="flex flex-wrap gap-1">
                      <Button size="sm" variant="outline" onClick={() => setDialog({ kind: 'status', user })}>
                        Status
                      </Button>
                      <Button size="sm" variant="outline" onClick={() => setDialog({ kind: 'trial', user })}>
                        Extend Trial
                      </Button>
                      {user.id === me?.id ? null : (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Delete ${user.username}`}
                          onClick={() => setDialog({ kind: 'delete', user })}
                        >
                          <Trash2 />
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {users.data && users.data.users.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No users match your search.</p>
          ) : null}
          {users.isError ? <p className="py-6 text-center text-sm text-destructive">{users.error.message}</p> : null}
        </div>
        <div className="flex items-center justify-between text-sm text-muted-foreground">
          <span aria-live="polite">
            {users.isPending ? 'Loading users...' : `${total} user${total === 1 ? '' : 's'} · Page ${page} of ${pages}`}
          </span>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        </div>
      </CardContent>
      <StatusDialog dialog={dialog} onClose={() => setDialog(null)} />
      <TrialDialog dialog={dialog} onClose={() => setDialog(null)} />
      <DeleteUserDialog dialog={dialog} onClose={() => setDialog(null)} />
    </Card>
  );
}

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: 'Trialing',
  active: 'Active',
  paid: 'Paid',
  past_due: 'Past Due',
  unpaid: 'Unpaid',
  canceled: 'Canceled',
  incomplete: 'Incomplete',
};

const DAY_MS = 86_400_000;

/** spec/account.md §4: trialing users only; days to the trial end (at least 0), else 30 from the start, else 30. */
export function adminDaysRemaining(user: AdminUser, now = new Date()): number | null {
  if (user.subscriptionStatus !== 'trialing') return null;
  const end = user.trialEndDate
    ? new Date(user.trialEndDate)
    : user.trialStartDate
      ? new Date(new Date(user.trialStartDate).getTime() + 30 * DAY_MS)
      : null;
  if (!end) return 30;
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

function StatusDialog({ dialog, onClose }: { dialog: UserDialog; onClose: () => void }) {
  const change = useChangeSubscriptionStatus();
  const open = dialog?.kind === 'status';
  const [status, setStatus] = useState<SubscriptionStatus>('trialing');
  useEffect(() => {
    if (open) setStatus(dialog.user.subscriptionStatus ?? 'trialing');
  }, [open, dialog]);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Update Subscription Status"
      description={open ? `For ${dialog.user.username}` : undefined}
    >
      <div className="space-y-2">
        <Label htmlFor="admin-status">Subscription status</Label>
        <Select
          id="admin-status"
          className="w-full"
          value={status}
          onChange={(event) => setStatus(event.target.value as SubscriptionStatus)}
        >
          {subscriptionStatuses.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={change.isPending}
          onClick={() => open && change.mutate({ userId: dialog.user.id, status }, { onSuccess: onClose })}
        >
          Update
        </Button>
      </div>
    </Dialog>
  );
}

function TrialDialog({ dialog, onClose }: { dialog: UserDialog; onClose: () => void }) {
  const extend = useExtendTrial();
  const open = dialog?.kind === 'trial';
  const form = useSchemaForm('extendTrialSchema', { defaultValues: { days: '7' } });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ days: '7' });
  }, [open, reset]);
  const error = form.formState.errors.days?.message;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Extend Trial Period"
      description={open ? `For ${dialog.user.username}` : undefined}
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (open) extend.mutate({ userId: dialog.user.id, days: values.days }, { onSuccess: onClose });
        })}
      >
        <div className="space-y-2">
          <Label htmlFor="admin-days">Days to Add</Label>
          <Input
            id="admin-days"
            type="number"
            min={1}
            step={1}
            aria-invalid={Boolean(error)}
            aria-describedby="admin-days-error"
            {...form.register('days')}
          />
          <FieldError id="admin-days-error" message={error} />
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={extend.isPending}>
            Extend Trial
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteUserDialog({ dialog, onClose }: { dialog: UserDialog; onClose: () => void }) {
  const remove = useDeleteUser();
  const open = dialog?.kind === 'delete';
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Delete User"
      description={`${open ? `Delete ${dialog.user.username}? ` : ''}This action cannot be undone and will permanently delete all user data including projects and activities.`}
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => open && remove.mutate(dialog.user.id, { onSuccess: onClose })}
    />
  );
}
