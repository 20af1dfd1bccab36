import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import { bellRemindersQuery } from '../../lib/queries';
import { activeByDueDate, relativeDueLabel } from '../../lib/reminders';
import { Button } from '../ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover';

/** The bell: active reminders, refreshed every 60 s; a failure shows as an empty list (spec/core.md §2, §7). */
export function NotificationsBell() {
  const { data } = useQuery(bellRemindersQuery);
  const active = activeByDueDate(data ?? []);
  const count = active.length;
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative">
          <Bell className="size-5" aria-hidden />
          {/* The name, with the exact count; the badge shows it (or 9+) to the eye. */}
          <span className="sr-only">{`Notifications (${count})`}</span>
          {count > 0 ? (
            <span
              data-testid="bell-count"
              aria-hidden
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-bold text-destructive-foreground"
            >
              {count > 9 ? '9+' : count}
            </span>
          ) : null}
        </Button>
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
      </PopoverContent>
    </Popover>
  );
}
