import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminCommentRow,
  type AdminUser,
  commentPriorities,
  type SubscriptionStatus,
  subscriptionStatuses,
} from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, CreditCard, Search, ShieldAlert, Trash2, Users } from 'lucide-react';
import { type ComponentType, useEffect, useState } from 'react';
import { BackLink } from '../components/back-link';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { FieldError, Input, Label } from '../components/ui/input';
import { Select } from '../components/ui/select';
import { Textarea } from '../components/ui/textarea';
import {
  useChangeSubscriptionStatus,
  useCreateComment,
  useDeleteComment,
  useDeleteUser,
  useExtendTrial,
  useMarkContactMessage,
  useUpdateComment,
} from '../hooks/use-admin';
import { cn } from '../lib/class-names';
import { formatDate } from '../lib/format';
import { loadFormSchemas } from '../lib/load-form-schemas';
import {
  adminUserCountsQuery,
  adminUsersQuery,
  allAdminCommentsQuery,
  contactMessagesQuery,
  userQuery,
} from '../lib/queries';

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

const when = (iso: string | null) => (iso ? formatDate(iso, 'MMM d, yyyy') : 'N/A');

export function AdminPage() {
  const { data: me, isPending } = useQuery(userQuery);
  if (isPending) return <p className="text-muted-foreground">Loading admin dashboard...</p>;
  if (!me?.isAdmin) {
    return (
      <Card className="mx-auto max-w-lg" data-testid="admin-refused">
        <CardContent className="space-y-4 p-6 text-center">
          <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
          <h2 className="text-xl font-semibold">Administrators only</h2>
          <p className="text-sm text-muted-foreground">
            The Admin Dashboard is for the site's administrators. Your account can do everything else in Shiplog.
          </p>
          <BackLink to="/">Back to Dashboard</BackLink>
        </CardContent>
      </Card>
    );
  }
  return <AdminDashboard />;
}

function AdminDashboard() {
  const counts = useQuery(adminUserCountsQuery);
  if (counts.isPending) return <p className="text-muted-foreground">Loading admin dashboard...</p>;
  return (
    <div className="space-y-6">
      <BackLink to="/">Back to Dashboard</BackLink>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Counter title="Total Users" value={counts.data?.totalUsers} icon={Users} />
        <Counter title="Active Subscriptions" value={counts.data?.activeSubscriptions} icon={CreditCard} />
        <Counter title="Trial Users" value={counts.data?.trialUsers} icon={CalendarPlus} />
        <Counter title="Unpaid Users" value={counts.data?.unpaidUsers} icon={ShieldAlert} />
      </div>
      <AdminCommentsCard />
      <UserManagementCard />
      <ContactInboxCard />
    </div>
  );
}

function Counter({
  title,
  value,
  icon: Icon,
}: {
  title: string;
  value: number | undefined;
  icon: ComponentType<{ className?: string }>;
}) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between p-5">
        <div>
          <p className="text-sm font-medium text-muted-foreground">{title}</p>
          <p className="mt-1 text-3xl font-bold" data-testid={`admin-count-${title}`}>
            {value ?? '–'}
          </p>
        </div>
        <Icon className="size-6 text-primary" />
      </CardContent>
    </Card>
  );
}

const PRIORITY_BADGE: Record<string, string> = {
  urgent: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
  high: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  normal: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
};

function PriorityBadge({ priority }: { priority: string }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-semibold capitalize',
        PRIORITY_BADGE[priority] ?? PRIORITY_BADGE.normal,
      )}
    >
      {priority}
    </span>
  );
}

type Priority = (typeof commentPriorities)[number];

function PrioritySelect({ id, value, onChange }: { id: string; value: Priority; onChange: (p: Priority) => void }) {
  return (
    <Select id={id} value={value} onChange={(event) => onChange(event.target.value as Priority)}>
      {commentPriorities.map((p) => (
        <option key={p} value={p}>
          {p[0]!.toUpperCase() + p.slice(1)}
        </option>
      ))}
    </Select>
  );
}

function AdminCommentsCard() {
  const comments = useQuery(allAdminCommentsQuery);
  const create = useCreateComment();
  const [message, setMessage] = useState('');
  const [priority, setPriority] = useState<Priority>('normal');
  const [error, setError] = useState<string | undefined>();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Admin Comments</CardTitle>
        <CardDescription>Manage messages that display to all users in the sidebar</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form
          className="space-y-3"
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            // zod comes with the form schemas, fetched at the first submit (lib/load-form-schemas.ts).
            const { adminCommentSchema } = await loadFormSchemas();
            const parsed = adminCommentSchema.safeParse({ message, priority });
            if (!parsed.success) return setError(parsed.error.issues[0]?.message);
            setError(undefined);
            create.mutate(
              { message: parsed.data.message, priority: parsed.data.priority },
              { onSuccess: () => setMessage('') },
            );
          }}
        >
          <div className="space-y-2">
            <Label htmlFor="comment-message">Message</Label>
            <Textarea
              id="comment-message"
              value={message}
              aria-invalid={Boolean(error)}
              aria-describedby="comment-message-error"
              placeholder="Write a message every user will see in the sidebar"
              onChange={(event) => setMessage(event.target.value)}
            />
            <FieldError id="comment-message-error" message={error} />
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="space-y-2">
              <Label htmlFor="comment-priority">Priority</Label>
              <PrioritySelect id="comment-priority" value={priority} onChange={setPriority} />
            </div>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding...' : 'Add Comment'}
            </Button>
          </div>
        </form>
        <div className="space-y-3" data-testid="admin-comment-list">
          {comments.data?.length === 0 ? (
            <p className="text-sm text-muted-foreground">No admin comments yet. Create one to get started.</p>
          ) : null}
          {comments.data?.map((comment) => (
            <CommentItem key={comment.id} comment={comment} />
          ))}
        </div>
      </CardContent>
    </Card>
  );
}

function CommentItem({ comment }: { comment: AdminCommentRow }) {
  const update = useUpdateComment();
  const remove = useDeleteComment();
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState(comment.message);
  const [priority, setPriority] = useState<Priority>(comment.priority);
  const [confirming, setConfirming] = useState(false);
  const id = `comment-${comment.id}`;
  return (
    <article
      className={cn('space-y-2 rounded-lg border p-3', !comment.isActive && 'opacity-60')}
      data-testid="admin-comment"
      aria-label={`Comment: ${comment.message}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">Admin {comment.adminUsername}</span>
        <PriorityBadge priority={comment.priority} />
        {!comment.isActive ? <span className="rounded-full bg-muted px-2 py-0.5 font-semibold">Inactive</span> : null}
        <span>{formatDate(comment.createdAt, 'MMM d, yyyy h:mm a')}</span>
      </div>
      {editing ? (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!message.trim()) return;
            update.mutate(
              { id: comment.id, message: message.trim(), priority },
              { onSuccess: () => setEditing(false) },
            );
          }}
        >
          <Label htmlFor={`${id}-message`} className="sr-only">
            Message
          </Label>
          <Textarea id={`${id}-message`} value={message} onChange={(event) => setMessage(event.target.value)} />
          <div className="flex flex-wrap gap-2">
            <Label htmlFor={`${id}-priority`} className="sr-only">
              Priority
            </Label>
            <PrioritySelect id={`${id}-priority`} value={priority} onChange={setPriority} />
            <Button type="submit" size="sm" disabled={update.isPending || !message.trim()}>
              Save
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                setEditing(false);
                setMessage(comment.message);
                setPriority(comment.priority);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <p className="whitespace-pre-wrap text-sm">{comment.message}</p>
      )}
      {editing ? null : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: comment.id, isActive: !comment.isActive })}
          >
            {comment.isActive ? 'Deactivate' : 'Activate'}
          </Button>
          <Button size="sm" variant="outline" aria-label="Delete comment" onClick={() => setConfirming(true)}>
            <Trash2 /> Delete
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete comment"
        description="Are you sure you want to delete this comment?"
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(comment.id, { onSettled: () => setConfirming(false) })}
      />
    </article>
  );
}

type UserDialog = { kind: 'status' | 'trial' | 'delete'; user: AdminUser } | null;

function UserManagementCard() {
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
                    <div className="font-medium">{user.username}</div>
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
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Delete ${user.username}`}
                        onClick={() => setDialog({ kind: 'delete', user })}
                      >
                        <Trash2 />
                      </Button>
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
  const [days, setDays] = useState('7');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (open) {
      setDays('7');
      setError(undefined);
    }
  }, [open]);
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
        onSubmit={async (event) => {
          event.preventDefault();
          const { extendTrialSchema } = await loadFormSchemas();
          const parsed = extendTrialSchema.safeParse({ days });
          if (!parsed.success) return setError(parsed.error.issues[0]?.message);
          setError(undefined);
          if (open) extend.mutate({ userId: dialog.user.id, days: parsed.data.days }, { onSuccess: onClose });
        }}
      >
        <div className="space-y-2">
          <Label htmlFor="admin-days">Days to Add</Label>
          <Input
            id="admin-days"
            type="number"
            min={1}
            step={1}
            value={days}
            aria-invalid={Boolean(error)}
            aria-describedby="admin-days-error"
            onChange={(event) => setDays(event.target.value)}
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

function ContactInboxCard() {
  const messages = useQuery(contactMessagesQuery);
  const mark = useMarkContactMessage();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Messages from users</CardTitle>
        <CardDescription>What users sent with Contact Admin, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3" data-testid="contact-inbox">
        {messages.data?.length === 0 ? <p className="text-sm text-muted-foreground">No messages yet.</p> : null}
        {messages.data?.map((message) => (
          <article key={message.id} className={cn('space-y-1 rounded-lg border p-3', message.handled && 'opacity-60')}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-medium">{message.subject}</h3>
              <Button
                size="sm"
                variant="outline"
                disabled={mark.isPending}
                onClick={() => mark.mutate({ id: message.id, handled: !message.handled })}
              >
                {message.handled ? 'Mark as open' : 'Mark handled'}
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              From {message.username} · {formatDate(message.createdAt, 'MMM d, yyyy h:mm a')}
              {message.handled ? ' · Handled' : ''}
            </p>
            <p className="whitespace-pre-wrap text-sm">{message.message}</p>
          </article>
        ))}
      </CardContent>
    </Card>
  );
}
