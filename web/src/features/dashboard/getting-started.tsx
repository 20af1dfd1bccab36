import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckCircle2, Circle, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { DashboardData } from '../../lib/graphql';
import { projectsQuery } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { notificationSettingsQuery, useUpdateNotificationSettings } from '../account/use-account';

/**
 * A new account's first steps, on the dashboard: create a project, record a deployment (from its page,
 * or from CI with the CLI), watch it with a monitor. Each is done by doing it (read from the account's
 * data: a project, one with a successful deployment, a monitor), and the card goes when all three are,
 * or when the user hides it (kept with the account's settings, so it stays hidden on every device).
 */
export function GettingStarted({ dashboard, filtered }: { dashboard: DashboardData; filtered: boolean }) {
  // The dashboard lists six projects at most, and only the filter's: else the whole list says.
  const allListed = !filtered && dashboard.projects.length >= dashboard.counters.totalProjects;
  const deployedListed = dashboard.projects.some((project) => project.checklist.deployed);
  const projects = useQuery({ ...projectsQuery, enabled: !allListed && !deployedListed });
  const created = dashboard.counters.totalProjects > 0;
  const deployed = deployedListed || (projects.data ?? []).some((project) => project.checklist.deployed);
  const monitored = dashboard.monitors.length > 0;
  const done = created && deployed && monitored;
  const settings = useQuery({ ...notificationSettingsQuery, enabled: !done });
  const save = useUpdateNotificationSettings();
  const [hidden, setHidden] = useState(false);
  if (done || hidden || !settings.data || settings.data.gettingStartedHidden) return null;
  if (!allListed && !deployedListed && !projects.data) return null;

  const first = dashboard.projects[0];
  const onProject = (text: string) =>
    first ? (
      <Link to="/projects/$id" params={{ id: first.id }} className="font-medium text-primary hover:underline">
        {text}
      </Link>
    ) : (
      text
    );
  const steps: { done: boolean; title: string; how: ReactNode }[] = [
    {
      done: created,
      title: 'Create a project',
      how: (
        <>
          Give one of your side projects a name:{' '}
          <Link to="/new-project" className="font-medium text-primary hover:underline">
            New Project
          </Link>
          .
        </>
      ),
    },
    {
      done: deployed,
      title: 'Record a deployment',
      how: (
        <>
          {onProject('Record Deployment on its page')}, or let your CI record each one with the shiplog CLI and an API
          token (
          <Link to="/settings" className="font-medium text-primary hover:underline">
            Settings
          </Link>
          , API Tokens).
        </>
      ),
    },
    {
      done: monitored,
      title: 'Add a monitor',
      how: <>Watch its site, or expect its backups on a schedule: {onProject('Add monitor on its page')}.</>,
    },
  ];
  const count = steps.filter((step) => step.done).length;
  return (
    <section aria-labelledby="getting-started">
      <Card>
        <CardHeader className="flex-row items-start justify-between gap-3">
          <div className="space-y-1">
            <CardTitle id="getting-started">Get started</CardTitle>
            <p className="text-sm text-muted-foreground">{count} of 3 done</p>
          </div>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Hide getting started"
            onClick={() => {
              setHidden(true);
              save.mutate({ ...settings.data, gettingStartedHidden: true }, { onError: () => setHidden(false) });
            }}
          >
            <X />
          </Button>
        </CardHeader>
        <CardContent>
          <ol className="space-y-3" data-testid="getting-started-steps">
            {steps.map((step) => (
              <li key={step.title} className="flex gap-3">
                {step.done ? (
                  <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
                ) : (
                  <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <div className="min-w-0">
                  <p className="font-medium">
                    <span className="sr-only">{step.done ? 'Done: ' : 'To do: '}</span>
                    {step.title}
                  </p>
                  {step.done ? null : <p className="text-sm text-muted-foreground">{step.how}</p>}
                </div>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
    </section>
  );
}
