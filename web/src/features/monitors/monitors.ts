import type { MonitorState, MonitorView } from '@shiplog/schemas';

/** A monitor's state as a pill shows it: its word and colours. */
export const monitorStates: Record<MonitorState, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  up: { label: 'Up', className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200' },
  degraded: { label: 'Slow', className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200' },
  failing: { label: 'Failing', className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200' },
  down: { label: 'Down', className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200' },
  unchecked: { label: 'Can’t check', className: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200' },
  paused: { label: 'Paused', className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200' },
};

/** `every day`, `every 12 hours`: an expectation's cadence. */
function every(seconds: number): string {
  const [amount, unit] = seconds % 86_400 === 0 ? [seconds / 86_400, 'day'] : [Math.round(seconds / 3600), 'hour'];
  return amount === 1 ? `every ${unit}` : `every ${amount} ${unit}s`;
}

/** What a monitor watches, in words: its URL, a domain's registration, or the backups or deployments it expects. */
export function watched(monitor: Pick<MonitorView, 'kind' | 'url' | 'intervalSeconds'>): string {
  if (monitor.kind === 'http') return monitor.url;
  if (monitor.kind === 'domain') return `Domain ${monitor.url}`;
  return `${monitor.kind === 'backup' ? 'A backup' : 'A deployment'} ${every(monitor.intervalSeconds)}`;
}

/** A share of passed checks as `99.95%`, rounded down (100% only when none failed); `—` without checks. */
export const percent = (share: number | null) =>
  share === null ? '—' : `${(Math.floor(share * 10_000) / 100).toFixed(2)}%`;
