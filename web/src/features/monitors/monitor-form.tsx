import type { MonitorView } from '@shiplog/schemas';
import type { ComponentProps } from 'react';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { useAddMonitor, useChangeMonitor } from './use-monitors';

/** A labelled select of fixed choices, `[value, label]` pairs. */
function ChoiceField({
  id,
  label,
  choices,
  ...select
}: ComponentProps<typeof Select> & {
  id: string;
  label: string;
  choices: readonly (readonly [string | number, string])[];
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} className="w-full" {...select}>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </Select>
    </div>
  );
}

const intervals = [
  [30, 'Every 30 seconds'],
  [60, 'Every minute'],
  [300, 'Every 5 minutes'],
  [600, 'Every 10 minutes'],
  [1800, 'Every 30 minutes'],
  [3600, 'Every hour'],
] as const;

/** The fields a URL check's form sends, which a 400 may name (a private address is refused on `url`). */
const monitorFields = [
  'url',
  'intervalSeconds',
  'expectedStatuses',
  'failureThreshold',
  'maxResponseMs',
  'keyword',
] as const;

/**
 * The Add Monitor dialog's form (monitors-card.tsx), loaded the first time it opens: the URL, how
 * often, what answers count as up, how many failures in a row open an incident, and optionally a
 * keyword the page must show. Given a `monitor`, it edits that one in place, with the same rules:
 * its incidents, results and uptime stay.
 */
export function MonitorForm({
  projectId,
  suggestedUrl = null,
  monitor,
  onDone,
}: {
  projectId: string;
  suggestedUrl?: string | null;
  /** The monitor to change; none: a new one. */
  monitor?: MonitorView;
  /** Added or saved: the dialog closes. */
  onDone: () => void;
}) {
  const add = useAddMonitor(projectId);
  const change = useChangeMonitor();
  const form = useSchemaForm('createMonitorSchema', {
    defaultValues: monitor
      ? {
          url: monitor.url,
          intervalSeconds: monitor.intervalSeconds,
          expectedStatuses: monitor.expectedStatuses,
          failureThreshold: monitor.failureThreshold,
          keyword: monitor.keyword ?? '',
          repeatMinutes: monitor.repeatMinutes,
          maxResponseMs: monitor.maxResponseMs === null ? '' : String(monitor.maxResponseMs),
        }
      : {
          url: suggestedUrl ?? '',
          intervalSeconds: 60,
          expectedStatuses: '200-399',
          failureThreshold: 2,
          keyword: '',
          repeatMinutes: 0,
          maxResponseMs: '',
        },
  });
  const { errors } = form.formState;
  const onError = (failure: unknown) => showServerFieldErrors(failure, form.setError, monitorFields);
  const submit = (values: FormOutput<'createMonitorSchema'>) =>
    monitor
      ? change.mutateAsync({ id: monitor.id, changes: values }).then(onDone, onError)
      : add.mutateAsync(values).then(onDone, onError);
  const pending = add.isPending || change.isPending;
  const id = monitor ? `monitor-${monitor.id}` : `monitor-${projectId}`;
  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
      <TextField
        id={`${id}-url`}
        label="URL to check"
        type="url"
        placeholder="https://example.com/health"
        error={errors.url?.message}
        {...form.register('url')}
      />
      <ChoiceField id={`${id}-interval`} label="How often" choices={intervals} {...form.register('intervalSeconds')} />
      <TextField
        id={`${id}-statuses`}
        label="Status codes that count as up"
        placeholder="200-399"
        error={errors.expectedStatuses?.message}
        {...form.register('expectedStatuses')}
      />
      <ChoiceField
        id={`${id}-threshold`}
        label="Open an incident after"
        choices={thresholds}
        {...form.register('failureThreshold')}
      />
      <ChoiceField
        id={`${id}-repeat`}
        label="While it is down, remind me"
        choices={reminders}
        {...form.register('repeatMinutes')}
      />
      <TextField
        id={`${id}-slow`}
        label="Slower than this many ms shows as slow (optional)"
        inputMode="numeric"
        placeholder="2000"
        error={errors.maxResponseMs?.message}
        {...form.register('maxResponseMs')}
      />
      <TextField
        id={`${id}-keyword`}
        label="Text the page must show (optional)"
        error={errors.keyword?.message}
        {...form.register('keyword')}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {monitor ? (pending ? 'Saving...' : 'Save changes') : pending ? 'Adding...' : 'Add monitor'}
      </Button>
    </form>
  );
}

const thresholds = Array.from(
  { length: 10 },
  (_, i) => [i + 1, i === 0 ? '1 failed check' : `${i + 1} failed checks in a row`] as const,
);

const reminders = [
  [0, 'Never: only when it goes down and comes back'],
  [60, 'Every hour'],
  [240, 'Every 4 hours'],
  [1440, 'Every day'],
] as const;

const kinds = [
  ['backup', 'A backup'],
  ['deployment', 'A deployment'],
] as const;

const cadences = [
  [3600, 'Every hour'],
  [6 * 3600, 'Every 6 hours'],
  [86_400, 'Every day'],
  [7 * 86_400, 'Every week'],
  [30 * 86_400, 'Every 30 days'],
] as const;
const graces = [
  [0, 'None'],
  [1800, '30 minutes'],
  [7200, '2 hours'],
  [6 * 3600, '6 hours'],
  [86_400, '1 day'],
] as const;

/** The Expect dialog's form: a backup or a deployment, how often, and how late it may be. */
export function ExpectationForm({ projectId, onDone }: { projectId: string; onDone: () => void }) {
  const add = useAddMonitor(projectId);
  const form = useSchemaForm('createExpectationSchema', {
    defaultValues: { kind: 'backup', intervalSeconds: 86_400, graceSeconds: 7200 },
  });
  const submit = (values: FormOutput<'createExpectationSchema'>) => add.mutate(values, { onSuccess: onDone });
  const id = `expect-${projectId}`;
  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
      <ChoiceField id={`${id}-kind`} label="Expect" choices={kinds} {...form.register('kind')} />
      <ChoiceField id={`${id}-every`} label="How often" choices={cadences} {...form.register('intervalSeconds')} />
      <ChoiceField id={`${id}-grace`} label="Late by at most" choices={graces} {...form.register('graceSeconds')} />
      <Button type="submit" className="w-full" disabled={add.isPending}>
        {add.isPending ? 'Adding...' : 'Expect it'}
      </Button>
    </form>
  );
}

/** A domain typed by hand: its registration's end is looked up once a day, and warned of at 14, 7 and 1 days. */
export function DomainForm({ projectId, onDone }: { projectId: string; onDone: () => void }) {
  const add = useAddMonitor(projectId);
  const form = useSchemaForm('createDomainMonitorSchema', { defaultValues: { kind: 'domain', domain: '' } });
  const submit = (values: FormOutput<'createDomainMonitorSchema'>) =>
    add.mutate(values, {
      onSuccess: onDone,
      onError: (failure) => showServerFieldErrors(failure, form.setError, ['domain']),
    });
  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
      <TextField
        id={`domain-${projectId}`}
        label="Domain"
        placeholder="example.com"
        error={form.formState.errors.domain?.message}
        {...form.register('domain')}
      />
      <Button type="submit" className="w-full" disabled={add.isPending}>
        {add.isPending ? 'Adding...' : 'Watch domain'}
      </Button>
    </form>
  );
}
