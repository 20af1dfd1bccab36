import { useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import type { ComponentProps } from 'react';
import { activeByDueDate } from '../features/reminders/reminders';
import { onDemand } from '../lib/on-demand';
import {
  type BellIncident,
  type BellReminder,
  bellIncidentsQuery,
  bellRemindersQuery,
  userQuery,
} from '../lib/queries';
import { Button } from '../ui/button';

/**
 * The bell's button, with the count of active reminders (spec/core.md §2); an open incident (a monitor
 * down, a backup or deployment missed) adds a mark of its own and is named. Its list
 * (notifications-popover.tsx) loads on first use.
 */
export function BellButton({
  active,
  incidents,
  ...props
}: { active: BellReminder[]; incidents: BellIncident[] } & ComponentProps<'button'>) {
  const count = active.length;
  const open = incidents.length;
  return (
    <Button variant="ghost" size="icon" className="relative" {...props}>
      <Bell className="size-5" aria-hidden />
      {/* The name, with the exact counts; the badge shows the reminders' (or 9+) to the eye. */}
      <span className="sr-only">
        {`Notifications (${count})`}
        {open > 0 ? `, ${open} open ${open === 1 ? 'incident' : 'incidents'}` : ''}
      </span>
      {count > 0 ? (
        <span
          data-testid="bell-count"
          aria-hidden
          className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-bold text-destructive-foreground"
        >
          {count > 9 ? '9+' : count}
        </span>
      ) : null}
      {open > 0 ? (
        <span
          data-testid="bell-incidents"
          aria-hidden
          className="absolute -bottom-0.5 -right-0.5 size-3 rounded-full border-2 border-background bg-red-600"
        />
      ) : null}
    </Button>
  );
}

const BellMenu = onDemand(() => import('./notifications-popover').then((m) => m.NotificationsPopover), BellButton);

/**
 * The bell: active reminders and open incidents, kept current by the live feed (every 60 s without
 * it); a failure shows as an empty list (spec/core.md §2, §7).
 */
export function NotificationsBell() {
  const { data } = useQuery(bellRemindersQuery);
  const { data: incidents } = useQuery(bellIncidentsQuery);
  const { data: user } = useQuery(userQuery);
  return <BellMenu active={activeByDueDate(data ?? [], user?.id)} incidents={incidents ?? []} />;
}
