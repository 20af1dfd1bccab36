import { Link } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { watched } from '../features/monitors/monitors';
import { relativeDueLabel } from '../features/reminders/reminders';
import type { BellIncident, BellReminder } from '../lib/queries';
import { formatTimeAgo } from '../lib/time-ago';
import { Button } from '../ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover';

/** The bell's list, loaded on first use (notifications-bell.tsx), which hands it its button as `Trigger`. */
export function NotificationsPopover({
  active,
  incidents,
  defaultOpen,
  Trigger,
}: {
  active: BellReminder[];
  incidents: BellIncident[];
  defaultOpen?: boolean;
  Trigger: ComponentType<{ active: BellReminder[]; incidents: BellIncident[] }>;
}) {
  const count = active.length;
  return (
    <Popover defaultOpen={defaultOpen}>
      <PopoverTrigger asChild>
        <Trigger active={active} incidents={incidents} />
      </PopoverTrigger>
      <PopoverContent aria-labelledby="notifications-title">
        <p id="notifications-title" className="font-semibold">
          Notifications
        </p>
        <p className="text-sm text-muted-foreground">You have {count} active reminders</p>
        {count === 0 ? (
          <p className="mt-4 text-center text-sm text-muted-foreground">No active reminders</p>
        ) : (
          <ul className="mt-3 space-y-1">
            {active.slice(0, 5).map((reminder) => (
              <li key={reminder.id}>
                <Link
                  to="/projects/$id"
                  params={{ id: reminder.projectId }}
                  className="block rounded-md px-2 py-1.5 hover:bg-accent"
                >
                  <span className="block text-sm font-medium">{reminder.title}</span>
                  <span className="block text-xs text-muted-foreground">Due: {relativeDueLabel(reminder.dueDate)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {count > 5 ? (
          <Button variant="link" asChild className="mt-2 w-full">
            {/* spec/core.md §2: the bell's link goes to /projects (the dashboard's goes to /reminders). */}
            <Link to="/projects">View all reminders</Link>
          </Button>
        ) : null}
        {incidents.length > 0 ? <OpenIncidents incidents={incidents} /> : null}
      </PopoverContent>
    </Popover>
  );
}

/** Monitors down and backups or deployments missed, after the reminders: each links to its project. */
function OpenIncidents({ incidents }: { incidents: BellIncident[] }) {
  return (
    <section aria-labelledby="notifications-incidents" className="mt-4 border-t pt-3">
      <p id="notifications-incidents" className="text-sm font-semibold">
        {incidents.length === 1 ? '1 open incident' : `${incidents.length} open incidents`}
      </p>
      <ul className="mt-2 space-y-1">
        {incidents.slice(0, 5).map((monitor) => {
          const missed = monitor.kind === 'backup' || monitor.kind === 'deployment';
          return (
            <li key={monitor.id}>
              <Link
                to="/projects/$id"
                params={{ id: monitor.projectId }}
                className="block rounded-md px-2 py-1.5 hover:bg-accent"
              >
                <span className="block text-sm font-medium text-destructive">
                  {missed ? 'Missed' : 'Down'}: {monitor.projectName}
                </span>
                <span className="block break-all text-xs text-muted-foreground">
                  {watched(monitor)} · since {formatTimeAgo(monitor.openIncident.startedAt)}:{' '}
                  {monitor.openIncident.cause}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
