import type { Reminder } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../lib/format';
import { useSchemaForm } from '../../lib/forms';
import { projectQuery, userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { FieldError, Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { Textarea } from '../../ui/textarea';
import { workspaceMembersQuery } from '../workspaces/use-workspaces';
import { notificationTimesQuery, useSaveReminder } from './use-reminders';

/**
 * Adding or editing a reminder (in ReminderFormDialog, reminder-form-dialog.tsx, which loads this the
 * first time it opens: react-hook-form stays out of the pages' first load, decision 023).
 */
export function ReminderForm({
  projectId,
  reminder,
  onDone,
}: {
  projectId: string;
  reminder?: Reminder;
  /** Saved: the dialog closes. */
  onDone: () => void;
}) {
  const save = useSaveReminder(reminder?.id);
  const { data: times } = useQuery(notificationTimesQuery);
  const { data: user } = useQuery(userQuery);
  // A team project's reminder goes to one of the members who may change it: its author unless chosen.
  const { data: project } = useQuery(projectQuery(projectId));
  const workspaceId = project?.workspaceId ?? null;
  const { data: members } = useQuery({ ...workspaceMembersQuery(workspaceId ?? ''), enabled: workspaceId !== null });
  const assignable = (members ?? []).filter((member) => member.role !== 'viewer');
  const due = reminder ? new Date(reminder.dueDate) : null;
  const form = useSchemaForm('reminderFormSchema', {
    defaultValues: {
      title: reminder?.title ?? '',
      description: reminder?.description ?? '',
      dueDate: due ? formatDate(due, 'yyyy-MM-dd') : '',
      dueTime: due ? formatDate(due, 'HH:mm') : '12:00',
      reminderTimes: reminder?.reminderTimes ?? ['1_day_before'],
      frequency: reminder?.frequency ?? 'once',
      isCompleted: reminder?.isCompleted ?? false,
      // The app's shell has the user before any form opens.
      assigneeId: reminder?.assigneeId ?? user?.id ?? '',
    },
  });
  const { errors } = form.formState;
  const chosen = form.watch('reminderTimes');
  const prefix = reminder ? `edit-${reminder.id}` : `new-${projectId}`;

  const submit = form.handleSubmit((values) => {
    const body = {
      title: values.title.trim(),
      description: values.description.trim() || null,
      dueDate: new Date(`${values.dueDate}T${values.dueTime}`).toISOString(),
      reminderTimes: values.reminderTimes as Reminder['reminderTimes'],
      frequency: values.frequency,
      ...(reminder ? { isCompleted: values.isCompleted } : { projectId, isCompleted: false }),
      ...(workspaceId && values.assigneeId ? { assigneeId: values.assigneeId } : {}),
    };
    return save.mutateAsync(body as Parameters<typeof save.mutate>[0]).then(onDone);
  });

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <TextField id={`${prefix}-title`} label="Title" error={errors.title?.message} {...form.register('title')} />
      <div className="space-y-2">
        <Label htmlFor={`${prefix}-description`}>Description (optional)</Label>
        <Textarea id={`${prefix}-description`} {...form.register('description')} />
      </div>
      <div className="grid grid-cols-2 gap-3">
        {/* Past dates are not selectable. */}
        <TextField
          id={`${prefix}-date`}
          label="Due date"
          type="date"
          min={formatDate(new Date(), 'yyyy-MM-dd')}
          error={errors.dueDate?.message}
          {...form.register('dueDate')}
        />
        <TextField
          id={`${prefix}-time`}
          label="Time"
          type="time"
          error={errors.dueTime?.message}
          {...form.register('dueTime')}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${prefix}-frequency`}>Repeat</Label>
        <Select id={`${prefix}-frequency`} className="w-full" {...form.register('frequency')}>
          <option value="once">Does not repeat</option>
          <option value="daily">Every day</option>
          <option value="weekly">Every week</option>
          <option value="monthly">Every month</option>
        </Select>
      </div>
      {workspaceId && assignable.length > 0 ? (
        <div className="space-y-2">
          <Label htmlFor={`${prefix}-assignee`}>Assigned to</Label>
          <Select id={`${prefix}-assignee`} className="w-full" {...form.register('assigneeId')}>
            {assignable.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.userId === user?.id ? `${member.username} (you)` : member.username}
              </option>
            ))}
          </Select>
          <FieldError id={`${prefix}-assignee-error`} message={errors.assigneeId?.message} />
        </div>
      ) : null}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Remind me</legend>
        <div className="grid grid-cols-2 gap-2">
          {(times ?? []).map(({ value, label }) => (
            <div key={value} className="flex items-center gap-2">
              <Checkbox
                id={`${prefix}-time-${value}`}
                checked={chosen.includes(value)}
                onCheckedChange={(checked) =>
                  form.setValue('reminderTimes', checked ? [...chosen, value] : chosen.filter((t) => t !== value), {
                    shouldValidate: form.formState.isSubmitted,
                  })
                }
              />
              <Label htmlFor={`${prefix}-time-${value}`} className="font-normal">
                {label}
              </Label>
            </div>
          ))}
        </div>
        <FieldError id={`${prefix}-times-error`} message={errors.reminderTimes?.message} />
      </fieldset>
      {reminder ? (
        <div className="flex items-center gap-2">
          <Checkbox
            id={`${prefix}-completed`}
            checked={form.watch('isCompleted')}
            onCheckedChange={(v) => form.setValue('isCompleted', v === true)}
          />
          <Label htmlFor={`${prefix}-completed`}>Completed</Label>
        </div>
      ) : null}
      <Button type="submit" className="w-full" disabled={save.isPending || form.formState.isSubmitting}>
        {save.isPending || form.formState.isSubmitting ? 'Saving...' : reminder ? 'Save Reminder' : 'Add Reminder'}
      </Button>
    </form>
  );
}
