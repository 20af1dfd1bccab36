import { useAddMonitor } from '../../hooks/use-monitors';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { TextField } from '../text-field';
import { Button } from '../ui/button';
import { Label } from '../ui/input';
import { Select } from '../ui/select';

const intervals = [
  [30, 'Every 30 seconds'],
  [60, 'Every minute'],
  [300, 'Every 5 minutes'],
  [600, 'Every 10 minutes'],
  [1800, 'Every 30 minutes'],
  [3600, 'Every hour'],
] as const;

/**
 * The Add Monitor dialog's form (monitors-card.tsx), loaded the first time it opens: the URL, how
 * often, and optionally a keyword the page must show.
 */
export function MonitorForm({
  projectId,
  suggestedUrl,
  onDone,
}: {
  projectId: string;
  suggestedUrl: string | null;
  /** Added: the dialog closes. */
  onDone: () => void;
}) {
  const add = useAddMonitor(projectId);
  const form = useSchemaForm('createMonitorSchema', {
    defaultValues: { url: suggestedUrl ?? '', intervalSeconds: 60, keyword: '' },
  });
  const { errors } = form.formState;
  const submit = (values: FormOutput<'createMonitorSchema'>) => add.mutate(values, { onSuccess: onDone });
  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
      <TextField
        id={`monitor-url-${projectId}`}
        label="URL to check"
        type="url"
        placeholder="https://example.com/health"
        error={errors.url?.message}
        {...form.register('url')}
      />
      <div className="space-y-2">
        <Label htmlFor={`monitor-interval-${projectId}`}>How often</Label>
        <Select id={`monitor-interval-${projectId}`} className="w-full" {...form.register('intervalSeconds')}>
          {intervals.map(([seconds, label]) => (
            <option key={seconds} value={seconds}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <TextField
        id={`monitor-keyword-${projectId}`}
        label="Text the page must show (optional)"
        error={errors.keyword?.message}
        {...form.register('keyword')}
      />
      <Button type="submit" className="w-full" disabled={add.isPending}>
        {add.isPending ? 'Adding...' : 'Add monitor'}
      </Button>
    </form>
  );
}
