import type { ProjectFilter, ProjectSort, Reminder } from '@shiplog/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { CheckCircle2, FolderKanban, Plus, Rocket } from 'lucide-react';
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { dashboardQuery } from '../../lib/graphql';
import { lazyPart, WhenNear } from '../../lib/on-demand';
import { useAfterFirstScreen } from '../../shell/app-shell';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { ActivityCard } from '../activity/activity-card';
import { ProjectGrid } from '../projects/project-card';
import { ProjectFilterSelect, ProjectSortSelect } from '../projects/project-controls';
import { inSpace, knownSpace, SpaceFilterSelect, useListedSpace } from '../projects/spaces';
import { ReminderListState } from '../reminders/reminder-list';
import { dueBadge } from '../reminders/reminders';

/**
 * A new account's first steps: not part of the first screen (loaded with the shell's parts that follow
 * it, a second after), and only while one of them is not done.
 */
const GettingStarted = lazyPart(() => import('./getting-started'), 'GettingStarted');

/** Shipping, cost and reminder charts, below the fold: loaded when scrolled to. */
const DashboardCharts = lazyPart(() => import('./charts'), 'DashboardCharts');

/** The dashboard: its data is one GraphQL query (lib/graphql.ts), asked for by the route's loader. */
export function DashboardPage() {
  // Shared by `/` and `/dashboard`: the same search schema (router.tsx).
  const search = useSearch({ strict: false });
  const filter = search.status ?? 'all';
  const sort = search.sort ?? 'newest';
  const navigate = useNavigate();
  const setSearch = (next: { status?: ProjectFilter; sort?: ProjectSort; space?: string }) =>
    navigate({ to: '.', search: (prev) => ({ ...prev, ...next }), replace: true });
  const { data: dashboard, error, isPending } = useQuery(dashboardQuery({ filter, sort }));
  // The space filters the projects the answer lists; the counters and charts count every one.
  const space = knownSpace(search.space, dashboard?.workspaces);
  useListedSpace(space);
  const listed = dashboard?.projects.filter((project) => inSpace(project, space));
  usePaymentReturnToast();
  const [afterFirstScreen, setAfterFirstScreen] = useState(false);
  useAfterFirstScreen(async () => {
    setAfterFirstScreen(true);
    return [];
  }, []);

  if (error && !dashboard) return <p className="text-destructive">Error loading projects: {error.message}</p>;
  // Every step done shows on the dashboard's own data for nearly every account (GettingStarted checks).
  const started =
    dashboard && dashboard.monitors.length > 0 && dashboard.projects.some((project) => project.checklist.deployed);
  return (
    <div className="space-y-8">
      {dashboard && !started && afterFirstScreen ? (
        <Suspense fallback={null}>
          <GettingStarted dashboard={dashboard} filtered={filter !== 'all'} />
        </Suspense>
      ) : null}
      <section aria-label="Project statistics" className="grid gap-4 sm:grid-cols-3">
        <StatCard
          title="Total Projects"
          icon={FolderKanban}
          value={dashboard?.counters.totalProjects}
          change={dashboard?.counters.totalChange}
        />
        <StatCard
          title="Active Projects"
          icon={Rocket}
          value={dashboard?.counters.activeProjects}
          change={dashboard?.counters.activeChange}
        />
        <StatCard
          title="Completed Projects"
          icon={CheckCircle2}
          value={dashboard?.counters.completedProjects}
          change={dashboard?.counters.completedChange}
        />
      </section>

      <section aria-labelledby="my-projects" className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="my-projects" className="text-xl font-semibold tracking-tight">
            My Projects
          </h2>
          <div className="ml-auto flex flex-wrap gap-2">
            <SpaceFilterSelect
              id="dashboard-space"
              value={space}
              onChange={(value) => setSearch({ space: value })}
              workspaces={dashboard?.workspaces}
            />
            <ProjectFilterSelect
              id="dashboard-filter"
              value={filter}
              onChange={(value) => setSearch({ status: value as ProjectFilter })}
            />
            <ProjectSortSelect
              id="dashboard-sort"
              value={sort}
              onChange={(value) => setSearch({ sort: value as ProjectSort })}
            />
            <Button asChild>
              <Link to="/new-project">
                <Plus /> New Project
              </Link>
            </Button>
          </div>
        </div>
        {!dashboard && isPending ? (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-72" />
            ))}
          </div>
        ) : dashboard && listed?.length === 0 ? (
          <Card>
            <CardContent className="py-10 text-center text-sm text-muted-foreground">
              {dashboard.counters.totalProjects === 0
                ? 'No projects yet. Create your first project to get started.'
                : 'No projects match this filter.'}
            </CardContent>
          </Card>
        ) : (
          <ProjectGrid projects={listed ?? []} monitors={dashboard?.monitors} workspaces={dashboard?.workspaces} />
        )}
        {dashboard && dashboard.counters.totalProjects > 6 ? (
          <div className="text-center">
            <Button variant="outline" asChild>
              <Link to="/projects" search={space ? { space } : {}}>
                View all projects
              </Link>
            </Button>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="upcoming-reminders">
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle id="upcoming-reminders">Upcoming Reminders</CardTitle>
            <Button variant="link" asChild>
              <Link to="/reminders">View all reminders</Link>
            </Button>
          </CardHeader>
          <CardContent>
            <ReminderListState
              isPending={!dashboard && isPending}
              error={error && !dashboard ? error : null}
              reminders={dashboard?.upcomingReminders as Reminder[] | undefined}
            >
              <ul className="divide-y" data-testid="upcoming-reminders">
                {dashboard?.upcomingReminders.map((reminder) => {
                  const badge = dueBadge(reminder.dueDate);
                  return (
                    <li key={reminder.id} className="flex items-center justify-between gap-3 py-2">
                      <div className="min-w-0">
                        <Link
                          to="/projects/$id"
                          params={{ id: reminder.projectId }}
                          className="block truncate font-medium hover:underline"
                        >
                          {reminder.title}
                        </Link>
                        <p className="truncate text-sm text-muted-foreground">{reminder.projectName}</p>
                      </div>
                      <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${badge.className}`}>
                        {badge.text}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </ReminderListState>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="recent-activity">
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle id="recent-activity">Recent Activity</CardTitle>
            <Button variant="link" asChild>
              <Link to="/activities">View all activity</Link>
            </Button>
          </CardHeader>
          <CardContent className="divide-y">
            {dashboard && dashboard.recentActivities.length === 0 ? (
              <p className="text-sm text-muted-foreground">No recent activity to display.</p>
            ) : null}
            {dashboard?.recentActivities.map((activity) => (
              <ActivityCard
                key={activity.id}
                activity={{ ...activity, userId: '', metadata: JSON.parse(activity.metadata) }}
              />
            ))}
          </CardContent>
        </Card>
      </section>

      {dashboard ? (
        <WhenNear placeholder={<Skeleton className="h-72" />}>
          <DashboardCharts reminders={dashboard.reminders} />
        </WhenNear>
      ) : null}
    </div>
  );
}

/** 'Same as last week' when nothing new, else '+N from last week' (spec/core.md §2). */
function StatCard({
  title,
  icon: Icon,
  value,
  change,
}: {
  title: string;
  icon: ComponentType<{ className?: string }>;
  value?: number;
  change?: number;
}) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between pt-6">
        <div>
          <p className="text-sm font-medium text-muted-foreground">{title}</p>
          <p className="mt-1 text-3xl font-bold" data-testid={`stat-${title}`}>
            {value ?? '–'}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">
            {change === undefined ? '' : change === 0 ? 'Same as last week' : `+${change} from last week`}
          </p>
        </div>
        <Icon className="size-6 text-primary" aria-hidden />
      </CardContent>
    </Card>
  );
}

/** Back from the payment provider: its toast (features/billing/payment-return.ts), then the query string is cleared. */
function usePaymentReturnToast() {
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const back = String(search.success) === 'true' ? 'paid' : String(search.cancelled) === 'true' ? 'cancelled' : null;
    if (!back) return;
    void import('../billing/payment-return').then(({ paymentReturn }) => paymentReturn(back, queryClient));
    void navigate({ to: '/', search: {}, replace: true });
  }, [search.success, search.cancelled, navigate, queryClient]);
}
