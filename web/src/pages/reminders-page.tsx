import { useQuery } from '@tanstack/react-query';
import { CalendarFeedCard } from '../components/reminders/calendar-feed-card';
import { ReminderItem } from '../components/reminders/reminder-item';
import { ReminderListState } from '../components/reminders/reminder-list';
import { remindersQuery } from '../lib/queries';
import { activeByDueDate } from '../lib/reminders';

/** All reminders: active ones by due date, then the completed ones. */
export function RemindersPage() {
  const { data, error, isPending, refetch, isFetching } = useQuery(remindersQuery);
  const active = data ? activeByDueDate(data) : [];
  const done = data ? data.filter((r) => r.isCompleted) : [];
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <ReminderListState
        isPending={isPending}
        error={error}
        reminders={data}
        onRetry={() => void refetch()}
        retrying={isFetching}
      >
        <ul className="space-y-2" data-testid="all-reminders">
          {[...active, ...done].map((reminder) => (
            <ReminderItem key={reminder.id} reminder={reminder} showProject />
          ))}
        </ul>
      </ReminderListState>
      <CalendarFeedCard />
    </div>
  );
}
