import type { MonitorState, MonitorView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Activity, Pause, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { projectMonitorsQuery, useAddMonitor, usePauseMonitor, useRemoveMonitor } from '../../hooks/use-monitors';
import { cn } from '../../lib/class-names';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { formatTimeAgo } from '../../lib/time-ago';
import { TextField } from '../text-field';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ConfirmDialog } from '../ui/dialog';
import { Label } from '../ui/input';
import { Select } from '../ui/select';

const states: Record<MonitorState, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  up: { label: 'Up', className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200' },
  down: { label: 'Down', className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200' },
  paused: { label: 'Paused', className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200' },
};

const intervals = [
  [30, 'Every 30 seconds'],
  [60, 'Every minute'],
  [300, 'Every 5 minutes'],
  [600, 'Every 10 minutes'],
  [1800, 'Every 30 minutes'],
  [3600, 'Every hour'],
] as const;

const percent = (share: number | null) => (share === null ? '—' : `${(Math.floor(share * 10_000) / 100).toFixed(2)}%`);

/**
 * The project's monitors: each URL checked on its schedule, its state (up, down, paused, or pending
 * before the first check), the last check and uptime over 24 hours and 30 days; add one, pause or
 * remove it. Two failed checks in a row (by default) open an incident: it is emailed, and goes on the
 * timeline with how long it lasted.
 */
export function MonitorsCard({ projectId, suggestedUrl }: { projectId: string; suggestedUrl: string | null }) {
  const { data: monitors, isPending, error } = useQuery(projectMonitorsQuery(projectId));
  const add = useAddMonitor(projectId);
  const form = useSchemaForm('createMonitorSchema', {
    defaultValues: { url: suggestedUrl ?? '', intervalSeconds: 60 },
  });
  const submit = (values: FormOutput<'createMonitorSchema'>) =>
    add.mutate(values, { onSuccess: () => form.reset({ url: '', intervalSeconds: values.intervalSeconds }) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Monitors</CardTitle>
        <CardDescription>
          Shiplog checks these addresses on a schedule and tells you by email when one goes down, and when it is back.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isPending ? null : error ? (
          <p className="text-sm text-destructive">Failed to load monitors: {error.message}</p>
        ) : monitors.length === 0 ? (
          <p className="text-sm text-muted-foreground">No monitors yet.</p>
        ) : (
          <ul className="space-y-3" aria-label="Monitors">
            {monitors.map((monitor) => (
              <MonitorItem key={monitor.id} monitor={monitor} />
            ))}
          </ul>
        )}
        <form className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="flex-1">
            <TextField
              id={`monitor-url-${projectId}`}
              label="URL to check"
              type="url"
              placeholder="https://example.com/health"
              error={form.formState.errors.url?.message}
              {...form.register('url')}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`monitor-interval-${projectId}`}>How often</Label>
            <Select id={`monitor-interval-${projectId}`} {...form.register('intervalSeconds')}>
              {intervals.map(([seconds, label]) => (
                <option key={seconds} value={seconds}>
                  {label}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" disabled={add.isPending}>
            <Activity /> {add.isPending ? 'Adding...' : 'Add monitor'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MonitorItem({ monitor }: { monitor: MonitorView }) {
  const pause = usePauseMonitor();
  const remove = useRemoveMonitor();
  const [confirm, setConfirm] = useState(false);
  const state = states[monitor.state];
  const paused = monitor.state === 'paused';
  return (
    <li
      className="flex flex-wrap items-start gap-3 rounded-lg border p-3"
      data-testid="monitor"
      data-state={monitor.state}
    >
      <span
        className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', state.className)}
      >
        {state.label}
      </span>
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="break-all font-medium">{monitor.url}</p>
        <p className="text-muted-foreground">
          {monitor.openIncident
            ? `Down since ${formatTimeAgo(monitor.openIncident.startedAt)}: ${monitor.openIncident.cause}`
            : monitor.lastCheck
              ? `Checked ${formatTimeAgo(monitor.lastCheck.at)}${monitor.lastCheck.ok ? ` · ${monitor.lastCheck.ms} ms` : ` · ${monitor.lastCheck.cause}`}`
              : 'Not checked yet'}
        </p>
        <p className="text-muted-foreground">
          Uptime: {percent(monitor.uptime.day)} (24 h) · {percent(monitor.uptime.month)} (30 days)
        </p>
      </div>
      <div className="flex shrink-0 gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={`${paused ? 'Resume' : 'Pause'} ${monitor.url}`}
          disabled={pause.isPending}
          onClick={() => pause.mutate({ id: monitor.id, paused: !paused })}
        >
          {paused ? <Play /> : <Pause />}
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Remove ${monitor.url}`} onClick={() => setConfirm(true)}>
          <Trash2 />
        </Button>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Remove this monitor?"
        description={`${monitor.url} will no longer be checked. Its past incidents stay on the timeline.`}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(monitor.id, { onSuccess: () => setConfirm(false) })}
      />
    </li>
  );
}
