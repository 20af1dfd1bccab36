import type { MonitorsStatus, PublicStatus, PublicTeamStatus, StatusIncident, StatusMonitor } from '@shiplog/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect } from 'react';
import { apiRequest, isNotFound } from '../../lib/api';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { keys } from '../../lib/queries';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { monitorStates, percent, watched } from '../monitors/monitors';
import { PublicPageFrame } from './public-header';

/**
 * A builder's status data, or null for a private or missing profile. Here rather than in
 * lib/queries.ts, which every first load carries: only this page reads it.
 */
const publicStatusQuery = (username: string) =>
  queryOptions({
    queryKey: [...keys.publicStatus, username],
    queryFn: async () => {
      try {
        return await apiRequest<PublicStatus>('GET', `/api/public/users/${encodeURIComponent(username)}/status`);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    // The page is for leaving open: it asks again each minute (the server holds it 30 s for everyone).
    refetchInterval: 60_000,
  });

const DAY_MS = 86_400_000;

/** A day's bar: green when every check passed, amber when most did, red otherwise, grey without checks. */
function barClass(share: number | null): string {
  if (share === null) return 'bg-muted';
  if (share >= 1) return 'bg-green-500';
  if (share >= 0.95) return 'bg-amber-500';
  return 'bg-red-500';
}

/** `Down 12:04–12:09 UTC, 5 min` or `Down since Nov 26, 12:04 UTC`. */
function incidentSpan(incident: StatusIncident): string {
  const start = formatDate(incident.startedAt, 'MMM d, h:mm a');
  if (!incident.endedAt) return `Ongoing since ${start}`;
  const minutes = Math.max(1, Math.round((Date.parse(incident.endedAt) - Date.parse(incident.startedAt)) / 60_000));
  return `${start} – ${formatDate(incident.endedAt, 'MMM d, h:mm a')} · ${minutes} min`;
}

/**
 * `/u/{username}/status` (`?project=` for one project): the state of what a builder ships, readable
 * signed out. Their public projects' monitors (a URL by its origin only), 90 days of daily uptime bars
 * and the incidents of those days with the builder's notes.
 */
export function PublicStatusPage() {
  const { username } = useParams({ from: '/u/$username/status' });
  // `?project=` shows one project.
  const search: { project?: unknown } = useSearch({ strict: false });
  const only = typeof search.project === 'string' ? search.project : undefined;
  const query = useQuery(publicStatusQuery(username));
  const status = query.data;
  useEffect(() => {
    if (status) document.title = `Status of ${status.displayName}'s projects · Shiplog`;
  }, [status]);
  return (
    <PublicPageFrame query={query} notFound="Status page not found">
      {(status) => (
        <>
          <div className="space-y-1">
            <h1 className="text-2xl font-semibold">
              Status of{' '}
              <Link
                to="/u/$username"
                params={{ username: status.username }}
                className="underline-offset-4 hover:underline"
              >
                {status.displayName}
              </Link>
              ’s projects
            </h1>
            <p className="text-sm text-muted-foreground">
              Checked by Shiplog · updated {formatDate(status.at, 'h:mm a')}
            </p>
          </div>
          <StatusBody status={status} only={only} />
        </>
      )}
    </PublicPageFrame>
  );
}

/** A team's status data, or null for a slug that leads nowhere. */
const teamStatusQuery = (slug: string) =>
  queryOptions({
    queryKey: [...keys.publicStatus, 'team', slug],
    queryFn: async () => {
      try {
        return await apiRequest<PublicTeamStatus>('GET', `/api/public/workspaces/${encodeURIComponent(slug)}/status`);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    refetchInterval: 60_000,
  });

/**
 * `/w/{slug}/status`: a team workspace's status page, readable signed out, as a builder's is: the
 * monitors of its public projects, whoever on the team made them. A slug the team gave up moves to its
 * current one.
 */
export function TeamStatusPage() {
  const { slug } = useParams({ from: '/w/$slug/status' });
  const navigate = useNavigate();
  const query = useQuery(teamStatusQuery(slug));
  const status = query.data;
  useEffect(() => {
    if (!status) return;
    document.title = `Status of ${status.workspace.name} · Shiplog`;
    if (status.workspace.slug !== slug)
      void navigate({ to: '/w/$slug/status', params: { slug: status.workspace.slug }, replace: true });
  }, [status, slug, navigate]);
  return (
    <PublicPageFrame query={query} notFound="Status page not found">
      {(status) => (
        <>
          <div className="space-y-1">
            <h1 className="text-2xl font-semibold">Status of {status.workspace.name}</h1>
            <p className="text-sm text-muted-foreground">
              Checked by Shiplog · updated {formatDate(status.at, 'h:mm a')}
            </p>
          </div>
          <StatusBody status={status} />
        </>
      )}
    </PublicPageFrame>
  );
}

/** A status page's projects, their monitors and the incidents of 90 days (one project's with `only`). */
function StatusBody({
  status,
  only,
}: {
  status: MonitorsStatus & { projects: { id: string; name: string }[]; at: string };
  only?: string | undefined;
}) {
  const projects = status.projects.filter((p) => !only || p.id === only);
  const monitors = status.monitors.filter((m) => projects.some((p) => p.id === m.projectId));
  const incidents = status.incidents.filter((i) => projects.some((p) => p.id === i.projectId));
  const down = monitors.filter((m) => m.state === 'down').length;
  const slow = monitors.filter((m) => m.state === 'degraded').length;
  return (
    <>
      {monitors.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing is monitored on a public project yet.</p>
      ) : (
        <p
          role="status"
          data-testid="overall-status"
          className={cn(
            'rounded-lg px-4 py-3 font-medium',
            down > 0
              ? 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200'
              : slow > 0
                ? 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200'
                : 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-200',
          )}
        >
          {down === 0
            ? slow > 0
              ? 'Degraded performance'
              : 'All systems operational'
            : down === monitors.length
              ? 'Everything is down'
              : `${down} of ${monitors.length} down`}
        </p>
      )}
      {projects.map((project) => (
        <Card key={project.id}>
          <CardHeader>
            <CardTitle>{project.name}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-5" aria-label={`${project.name} monitors`}>
              {monitors
                .filter((m) => m.projectId === project.id)
                .map((monitor) => (
                  <StatusMonitorRow key={monitor.id} monitor={monitor} at={status.at} />
                ))}
            </ul>
          </CardContent>
        </Card>
      ))}
      {monitors.length > 0 ? (
        <section aria-labelledby="incidents" className="space-y-3">
          <h2 id="incidents" className="text-lg font-semibold">
            Incidents in the last 90 days
          </h2>
          {incidents.length === 0 ? (
            <p className="text-sm text-muted-foreground">No incidents in the last 90 days.</p>
          ) : (
            <ul className="space-y-3">
              {incidents.map((incident) => (
                <li key={incident.id} className="rounded-lg border p-3 text-sm" data-testid="status-incident">
                  <p className="font-medium">
                    {projects.find((p) => p.id === incident.projectId)?.name}: {incident.cause}
                  </p>
                  <p className="text-muted-foreground">{incidentSpan(incident)}</p>
                  {incident.note ? <p className="mt-2 whitespace-pre-wrap">{incident.note}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </>
  );
}

function StatusMonitorRow({ monitor, at }: { monitor: StatusMonitor; at: string }) {
  const state = monitorStates[monitor.state];
  const label = watched({ ...monitor, url: monitor.origin });
  // The bars' days: the last is today (UTC), as the server counted them.
  const today = Date.parse(`${at.slice(0, 10)}T00:00:00Z`);
  return (
    <li className="space-y-2" data-testid="status-monitor" data-state={monitor.state}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="break-all font-medium">{label}</span>
        <span className="flex items-center gap-3 text-sm">
          {monitor.maintenanceSince ? <span className="text-muted-foreground">Deploying</span> : null}
          <span className="text-muted-foreground">{percent(monitor.uptime.quarter)} over 90 days</span>
          <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold', state.className)}>
            {state.label}
          </span>
        </span>
      </div>
      <div
        role="img"
        aria-label={`${label}: ${percent(monitor.uptime.quarter)} up over 90 days, ${percent(monitor.uptime.day)} in the last 24 hours`}
        className="flex h-8"
      >
        {monitor.days.map((share, index) => {
          const day = formatDate(new Date(today - (monitor.days.length - 1 - index) * DAY_MS), 'MMM d');
          return (
            <span
              // The bars are a fixed 90, a day each: the index is the day.
              // biome-ignore lint/suspicious/noArrayIndexKey: one bar a day, in order
              key={index}
              title={share === null ? `${day}: no checks` : `${day}: ${percent(share)} up`}
              className={cn('flex-1 border-r', barClass(share))}
            />
          );
        })}
      </div>
    </li>
  );
}
