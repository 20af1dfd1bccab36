import { useQuery } from '@tanstack/react-query';
import { projectsQuery, remindersQuery } from '../../lib/queries';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { canChange } from '../projects/spaces';
import { CalendarFeedCard } from './calendar-feed-card';
import { ReminderItem } from './reminder-item';
import { ReminderListState } from './reminder-list';
import { groupByState, type ReminderState } from './reminders';

/** The groups, in order, with the colour each state has on its badge (spec/core.md §2). */
const sections: { state: ReminderState; title: string; dot: string }[] = [
  { state: 'overdue', title: 'Overdue', dot: 'bg-red-500' },
  { state: 'today', title: 'Due today', dot: 'bg-amber-500' },
  { state: 'upcoming', title: 'Upcoming', dot: 'bg-blue-500' },
  { state: 'completed', title: 'Completed', dot: 'bg-green-500' },
];

/** Every reminder of every project, grouped: overdue, due today, upcoming, completed. */
export function RemindersPage() {
  const { data, error, isPending, refetch, isFetching } = useQuery(remindersQuery);
  const groups = groupByState(data ?? []);
  // The reminders of a team project the user only views are read, with nothing offered that changes
  // them; until the projects are known, nothing is offered that might be refused.
  const { data: projects, isPending: projectsPending } = useQuery(projectsQuery);
  const viewed = new Set(projects?.filter((project) => !canChange(project)).map((project) => project.id));
  const active = groups.overdue.length + groups.today.length + groups.upcoming.length;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Card>
        <CardHeader>
          <CardTitle>All Reminders</CardTitle>
          <CardDescription>
            {data
              ? `${active} active, ${groups.completed.length} completed, across all your projects`
              : 'Across all your projects'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ReminderListState
            isPending={isPending}
            error={error}
            reminders={data}
            onRetry={() => void refetch()}
            retrying={isFetching}
          >
            <div className="space-y-6" data-testid="all-reminders">
              {sections
                .filter(({ state }) => groups[state].length > 0)
                .map(({ state, title, dot }) => (
                  <section key={state} aria-labelledby={`reminders-${state}`} className="space-y-2">
                    <h2 id={`reminders-${state}`} className="flex items-center gap-2 text-sm font-semibold">
                      <span className={`size-2 rounded-full ${dot}`} aria-hidden />
                      {title}
                      <span className="font-normal text-muted-foreground">{groups[state].length}</span>
                    </h2>
                    <ul className="space-y-2">
                      {groups[state].map((reminder) => (
                        <ReminderItem
                          key={reminder.id}
                          reminder={reminder}
                          showProject
                          readOnly={projectsPending || viewed.has(reminder.projectId)}
                        />
                      ))}
                    </ul>
                  </section>
                ))}
            </div>
          </ReminderListState>
        </CardContent>
      </Card>
      <CalendarFeedCard />
    </div>
  );
}
