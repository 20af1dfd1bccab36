import { type AdminCommentRow, commentPriorities } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { FieldError, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Textarea } from '../../ui/textarea';
import { allAdminCommentsQuery, useCreateComment, useDeleteComment, useUpdateComment } from './use-admin';

/** Admin Comments: a message every user sees in the sidebar, made with the shared form helper. */
export function AdminCommentsCard() {
  const comments = useQuery(allAdminCommentsQuery);
  const create = useCreateComment();
  const form = useSchemaForm('adminCommentSchema', { defaultValues: { message: '', priority: 'normal' } });
  const submit = (values: FormOutput<'adminCommentSchema'>) =>
    create.mutateAsync({ message: values.message, priority: values.priority }).then(() => form.reset());
  const error = form.formState.errors.message?.message;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Admin Comments</CardTitle>
        <CardDescription>Manage messages that display to all users in the sidebar</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form className="space-y-3" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="space-y-2">
            <Label htmlFor="comment-message">Message</Label>
            <Textarea
              id="comment-message"
              aria-invalid={Boolean(error)}
              aria-describedby="comment-message-error"
              placeholder="Write a message every user will see in the sidebar"
              {...form.register('message')}
            />
            <FieldError id="comment-message-error" message={error} />
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="space-y-2">
              <Label htmlFor="comment-priority">Priority</Label>
              <Select id="comment-priority" {...form.register('priority')}>
                {priorityOptions}
              </Select>
            </div>
            <Button type="submit" disabled={create.isPending || form.formState.isSubmitting}>
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

const priorityOptions = commentPriorities.map((p) => (
  <option key={p} value={p}>
    {p[0]!.toUpperCase() + p.slice(1)}
  </option>
));

function CommentItem({ comment }: { comment: AdminCommentRow }) {
  const update = useUpdateComment();
  const remove = useDeleteComment();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const saved = { message: comment.message, priority: comment.priority };
  const form = useSchemaForm('adminCommentSchema', { defaultValues: saved });
  const save = (values: FormOutput<'adminCommentSchema'>) =>
    update.mutate(
      { id: comment.id, message: values.message, priority: values.priority },
      { onSuccess: () => setEditing(false) },
    );
  const error = form.formState.errors.message?.message;
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
        <form className="space-y-2" noValidate onSubmit={form.handleSubmit(save)}>
          <Label htmlFor={`${id}-message`} className="sr-only">
            Message
          </Label>
          <Textarea
            id={`${id}-message`}
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-message-error`}
            {...form.register('message')}
          />
          <FieldError id={`${id}-message-error`} message={error} />
          <div className="flex flex-wrap gap-2">
            <Label htmlFor={`${id}-priority`} className="sr-only">
              Priority
            </Label>
            <Select id={`${id}-priority`} {...form.register('priority')}>
              {priorityOptions}
            </Select>
            <Button type="submit" size="sm" disabled={update.isPending}>
              Save
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                setEditing(false);
                form.reset(saved);
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
