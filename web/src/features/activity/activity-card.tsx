import type { Activity, Shipped } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import {
  Archive,
  CheckCircle2,
  HeartPulse,
  type LucideIcon,
  Pencil,
  PlusCircle,
  Rocket,
  Tag,
  Trash2,
  Workflow,
  Zap,
} from 'lucide-react';
import { cn } from '../../lib/class-names';
import { formatDate, plural, projectNameOf } from '../../lib/format';
import { userQuery } from '../../lib/queries';
import { formatTimeAgo } from '../../lib/time-ago';
import { actorText } from './actor';

/** Fixed labels and icons for created, updated, completed and deleted; other actions shown as they are. */
const actions: Record<string, { label: string; icon: LucideIcon; className: string }> = {
  created: {
    label: 'Created',
    icon: PlusCircle,
    className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300',
  },
  updated: {
    label: 'Updated',
    icon: Pencil,
    className: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  },
  completed: {
    label: 'Completed',
    icon: CheckCircle2,
    className: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  },
  deleted: { label: 'Deleted', icon: Trash2, className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300' },
};
const eventIcons: Record<string, LucideIcon> = {
  deployment: Rocket,
  backup_created: Archive,
  version_release: Tag,
  incident: HeartPulse,
  workflow: Workflow,
};

const statusBadges: Record<string, { label: string; className: string }> = {
  success: { label: 'success', className: 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-300' },
  failed: { label: 'failed', className: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300' },
  in_progress: { label: 'in progress', className: 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300' },
};

export function ActivityCard({ activity }: { activity: Activity }) {
  const { data: user } = useQuery(userQuery);
  const by = actorText(activity, user?.id);
  const known = actions[activity.action];
  const Icon = known?.icon ?? eventIcons[activity.eventType] ?? Zap;
  const projectName = projectNameOf(activity.details);
  const what = activity.details.split(': ')[0];
  const status = statusBadges[activity.status];
  const notes = typeof activity.metadata?.notes === 'string' ? activity.metadata.notes : null;
  const changes = Array.isArray(activity.metadata?.changes) ? (activity.metadata.changes as string[]) : [];
  const shipped = shippedOf(activity.metadata?.shipped);
  return (
    <article className="flex gap-3 py-3" data-testid="activity-card">
      <span
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-full',
          known?.className ?? 'bg-accent text-accent-foreground',
        )}
      >
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{known?.label ?? activity.action}</span>
          {projectName ? <span className="text-sm text-muted-foreground">{projectName}</span> : null}
          {activity.version ? <span className="rounded bg-muted px-1.5 text-xs">{activity.version}</span> : null}
          {status ? <span className={cn('rounded-full px-2 text-xs', status.className)}>{status.label}</span> : null}
        </div>
        <p className="text-sm">{what}</p>
        {notes ? <p className="text-sm text-muted-foreground">{notes}</p> : null}
        {changes.length > 0 ? (
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            {changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        ) : null}
        {shipped ? <WhatShipped shipped={shipped} /> : null}
        <time
          className="block text-xs text-muted-foreground"
          dateTime={activity.timestamp}
          // The app's own date format, not toLocaleString: the first Intl call sets up ICU's date
          // formatting, 30 ms of the dashboard's first paint (120 ms at the bench's 4x slower CPU).
          title={formatDate(activity.timestamp, 'MMM d, yyyy h:mm a')}
        >
          {formatTimeAgo(activity.timestamp)}
          {by ? ` · ${by}` : null}
        </time>
      </div>
    </article>
  );
}

/** A release's or deployment's `metadata.shipped` (GitHub's compare), when it has one. */
function shippedOf(value: unknown): Shipped | null {
  const shipped = value as Shipped | undefined;
  return shipped && Array.isArray(shipped.commits) && shipped.commits.length > 0 ? shipped : null;
}

/** The commits and pull requests a release or deployment shipped, folded away under their count. */
function WhatShipped({ shipped }: { shipped: Shipped }) {
  const { commits, pullRequests, compareUrl } = shipped;
  return (
    <details className="text-sm" data-testid="what-shipped">
      <summary className="cursor-pointer text-muted-foreground">
        What shipped: {plural(commits.length, 'commit')}
        {pullRequests.length > 0 ? `, ${plural(pullRequests.length, 'pull request')}` : ''}
      </summary>
      <ul className="mt-1 space-y-0.5 pl-1">
        {pullRequests.map((pull) => (
          <li key={`pr-${pull.number}`}>
            <a href={pull.url} target="_blank" rel="noreferrer" className="underline">
              #{pull.number}
            </a>{' '}
            {pull.title}
          </li>
        ))}
        {commits.map((commit) => (
          <li key={commit.sha} className="text-muted-foreground">
            <a href={commit.url} target="_blank" rel="noreferrer" className="font-mono text-xs underline">
              {commit.sha.slice(0, 7)}
            </a>{' '}
            {commit.message} <span className="text-xs">({commit.author})</span>
          </li>
        ))}
      </ul>
      {compareUrl ? (
        <a href={compareUrl} target="_blank" rel="noreferrer" className="text-xs underline">
          Compare on GitHub
        </a>
      ) : null}
    </details>
  );
}
