import type { Reminder } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Check, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/dialog';
import { ReminderFormDialog } from './reminder-form-dialog';
import { reminderState } from './reminders';
import { useReminderAction } from './use-reminders';

const stateStyles = {
  upcoming: { label: 'Upcoming', className: 'border-border' },
  today: { label: 'Due today', className: 'border-amber-400 bg-amber-50 dark:bg-amber-950/40' },
  overdue: { label: 'Overdue', className: 'border-red-400 bg-red-50 dark:bg-red-950/40' },
  completed: { label: 'Completed', className: 'border-green-400 bg-green-50 dark:bg-green-950/40' },
} as const;

/** How a recurring reminder says so (the form's Repeat choices). */
const repeats = { daily: 'Repeats every day', weekly: 'Repeats every week', monthly: 'Repeats every month' } as const;

/**
 * A reminder with its state colour and its actions: edit, complete or reactivate, delete after
 * confirmation; none when `readOnly` (a team project the user only views).
 */
export function ReminderItem({
  reminder,
  showProject,
  readOnly = false,
}: {
  reminder: Reminder;
  showProject?: boolean;
  readOnly?: boolean;
}) {
  const state = reminderState(reminder);
  const { data: user } = useQuery(userQuery);
  // A team's reminder says whom it reaches, when that is not simply its reader's own.
  const assigned =
    reminder.assigneeId === user?.id
      ? reminder.userId === user?.id
        ? null
        : 'Assigned to you'
      : `Assigned to ${reminder.assigneeName ?? 'a former member'}`;
  return (
    <li
      className={cn('flex items-start gap-3 rounded-lg border p-3', stateStyles[state].className)}
      data-testid="reminder-item"
      data-state={state}
    >
      <div className="min-w-0 flex-1">
        <p className={cn('font-medium', state === 'completed' && 'text-muted-foreground line-through')}>
          {reminder.title}
        </p>
        {showProject ? <p className="text-sm text-muted-foreground">{reminder.projectName}</p> : null}
        {reminder.description ? <p className="text-sm text-muted-foreground">{reminder.description}</p> : null}
        <p className="text-xs text-muted-foreground">
          {stateStyles[state].label} · {formatDate(reminder.dueDate, 'MMM d, yyyy h:mm a')}
          {reminder.frequency === 'once' ? null : ` · ${repeats[reminder.frequency]}`}
          {assigned ? ` · ${assigned}` : null}
        </p>
      </div>
      {readOnly ? null : <ReminderActions reminder={reminder} />}
    </li>
  );
}

function ReminderActions({ reminder }: { reminder: Reminder }) {
  const complete = useReminderAction('complete');
  const reactivate = useReminderAction('reactivate');
  const remove = useReminderAction('delete');
  const [confirm, setConfirm] = useState(false);
  return (
    <>
      <div className="flex shrink-0 gap-1">
        <ReminderFormDialog
          projectId={reminder.projectId}
          reminder={reminder}
          trigger={
            <Button variant="ghost" size="icon" aria-label={`Edit ${reminder.title}`}>
              <Pencil />
            </Button>
          }
        />
        {reminder.isCompleted ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Reactivate ${reminder.title}`}
            disabled={reactivate.isPending}
            onClick={() => reactivate.mutate(reminder.id)}
          >
            <RotateCcw />
          </Button>
        ) : (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Complete ${reminder.title}`}
            disabled={complete.isPending}
            onClick={() => complete.mutate(reminder.id)}
          >
            <Check />
          </Button>
        )}
        <Button variant="ghost" size="icon" aria-label={`Delete ${reminder.title}`} onClick={() => setConfirm(true)}>
          <Trash2 />
        </Button>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete this reminder?"
        description={`"${reminder.title}" will be deleted. You can undo it for 10 seconds.`}
        confirmLabel="Delete"
        onConfirm={() => {
          setConfirm(false);
          remove.mutate(reminder.id);
        }}
      />
    </>
  );
}
