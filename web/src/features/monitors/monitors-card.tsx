import type { MonitorView } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Activity, CalendarClock, Globe, Pause, Pencil, Play, Trash2 } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { lazyPart, preloading } from '../../lib/on-demand';
import { userQuery } from '../../lib/queries';
import { formatTimeAgo } from '../../lib/time-ago';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { CopyField } from '../../ui/copy-field';
import { ConfirmDialog, Dialog } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import { AlertReach } from './alert-reach';
import { monitorStates, percent, watched } from './monitors';
import { projectMonitorsQuery, usePauseMonitor, useRemoveMonitor } from './use-monitors';

// The forms, with react-hook-form, load when a dialog first opens (or its button is pointed at).
const MonitorForm = lazyPart(() => import('./monitor-form'), 'MonitorForm');
/** A monitor's incidents and their notes, loaded when first shown. */
const MonitorIncidents = lazyPart(() => import('./monitor-incidents'), 'MonitorIncidents');
const ExpectationForm = lazyPart(() => import('./monitor-form'), 'ExpectationForm');
const DomainForm = lazyPart(() => import('./monitor-form'), 'DomainForm');
/** The forms are one module: pointing at any of their buttons loads it. */
const preloadForm = preloading(MonitorForm);

/** A button that opens one of the monitor forms in a dialog; the form closes it once it has added. */
function MonitorFormDialog({
  title,
  description,
  button,
  form,
}: {
  title: string;
  description: string;
  button: ReactNode;
  form: (onDone: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={title}
      description={description}
      preload={preloadForm}
      trigger={<Button variant="outline">{button}</Button>}
    >
      <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>{form(() => setOpen(false))}</Suspense>
    </Dialog>
  );
}

/**
 * The project's monitors: each URL checked on its schedule, its state (up, down, paused, or pending
 * before the first check), the last check and uptime over 24 hours and 30 days; add one, pause or
 * remove it. Two failed checks in a row (by default) open an incident: it is emailed, and goes on the
 * timeline with how long it lasted. `readOnly` (a viewer of a team project): read, and nothing offered to change.
 */
export function MonitorsCard({
  projectId,
  suggestedUrl,
  readOnly = false,
  team = false,
}: {
  projectId: string;
  suggestedUrl: string | null;
  readOnly?: boolean;
  /** A team workspace's project: its monitors follow the workspace owners' plan, not the reader's. */
  team?: boolean;
}) {
  const { data: monitors, isPending, error } = useQuery(projectMonitorsQuery(projectId));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Monitors</CardTitle>
        <CardDescription>
          Shiplog checks these addresses on a schedule and tells you by email when one goes down, and when it is back.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <AlertReach where="monitors" />
        {isPending ? null : error ? (
          <p className="text-sm text-destructive">Failed to load monitors: {error.message}</p>
        ) : monitors.length === 0 ? (
          <p className="text-sm text-muted-foreground">No monitors yet.</p>
        ) : (
          <ul className="space-y-3" aria-label="Monitors">
            {monitors.map((monitor) => (
              <MonitorItem key={monitor.id} monitor={monitor} readOnly={readOnly} team={team} />
            ))}
          </ul>
        )}
        {readOnly ? null : (
          <div className="flex flex-wrap gap-2">
            <MonitorFormDialog
              title="Add Monitor"
              description="Shiplog checks the address on this schedule and emails you when it goes down, and when it is back."
              button={
                <>
                  <Activity /> Add monitor
                </>
              }
              form={(onDone) => <MonitorForm projectId={projectId} suggestedUrl={suggestedUrl} onDone={onDone} />}
            />
            <MonitorFormDialog
              title="Expect Backups or Deployments"
              description="Each one recorded (on this page, by the shiplog CLI, a deploy webhook or the cron ping URL) counts. When one is late, you are told."
              button={
                <>
                  <CalendarClock /> Expect backups or deployments
                </>
              }
              form={(onDone) => <ExpectationForm projectId={projectId} onDone={onDone} />}
            />
            <MonitorFormDialog
              title="Watch a Domain"
              description="Shiplog looks up its registration once a day and tells you 14, 7 and 1 days before it ends."
              button={
                <>
                  <Globe /> Watch a domain
                </>
              }
              form={(onDone) => <DomainForm projectId={projectId} onDone={onDone} />}
            />
          </div>
        )}
        {monitors && monitors.length > 0 ? <PublicLinks projectId={projectId} /> : null}
      </CardContent>
    </Card>
  );
}

/** When the site's certificate (or the domain's registration) ends; within 14 days (when its owner is told), in warning colours. */
function ExpiryEnd({ at, of }: { at: string; of: 'Certificate' | 'Registration' }) {
  const days = Math.max(0, Math.ceil((Date.parse(at) - Date.now()) / 86_400_000));
  return (
    <p className={days <= 14 ? 'font-medium text-amber-700 dark:text-amber-300' : 'text-muted-foreground'}>
      {of} ends {formatDate(at)}, in {days} {days === 1 ? 'day' : 'days'}
    </p>
  );
}

/**
 * Where the world sees these monitors: the status page, and badges for the project's README (both
 * while the profile and the project are public).
 */
function PublicLinks({ projectId }: { projectId: string }) {
  const { data: user } = useQuery(userQuery);
  if (!user) return null;
  const origin = window.location.origin;
  const badge = (name: string, alt: string) =>
    `![${alt}](${origin}/api/badges/${user.username}/${projectId}/${name}.svg)`;
  const markdown = [badge('uptime', 'Uptime'), badge('last-deploy', 'Last deploy'), badge('version', 'Version')].join(
    ' ',
  );
  return (
    <details className="rounded-lg border p-3 text-sm">
      <summary className="cursor-pointer font-medium">Status page and README badges</summary>
      <div className="mt-2 space-y-2 text-muted-foreground">
        <p>
          While your profile and this project are public, anyone can see these monitors on{' '}
          <a
            href={`/u/${encodeURIComponent(user.username)}/status?project=${projectId}`}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            your status page
          </a>
          , and show them in a README:
        </p>
        <CopyField
          value={markdown}
          label="README badges"
          copyLabel="Copy README badges"
          copied="Paste it into your README."
          mono
        />
      </div>
    </details>
  );
}

/**
 * The card's line on the last check: an open incident (down, or a run missed) and since when; a check
 * the address guard refused, and why; or when it was checked and what it found, in the words of its kind.
 */
function lastCheckLine(monitor: MonitorView): string {
  const { lastCheck, openIncident } = monitor;
  const expected = monitor.kind === 'backup' || monitor.kind === 'deployment';
  if (lastCheck?.refused)
    return `Cannot be checked: ${(lastCheck.cause ?? '').replace(/^Refused: /, '')} Change its URL, or pause it. (Tried ${formatTimeAgo(lastCheck.at)}.)`;
  if (openIncident)
    return `${expected ? 'Missed' : 'Down'} since ${formatTimeAgo(openIncident.startedAt)}: ${openIncident.cause}`;
  if (!lastCheck) return 'Not checked yet';
  const checked = `${monitor.kind === 'domain' ? 'Looked up' : 'Checked'} ${formatTimeAgo(lastCheck.at)}`;
  if (!lastCheck.ok) return `${checked} · ${lastCheck.cause ?? 'failed'}`;
  if (expected) return `${checked} · on time`;
  return lastCheck.ms === null ? checked : `${checked} · ${lastCheck.ms} ms`;
}

function MonitorItem({ monitor, readOnly, team }: { monitor: MonitorView; readOnly: boolean; team: boolean }) {
  const pause = usePauseMonitor();
  const remove = useRemoveMonitor();
  const [confirm, setConfirm] = useState(false);
  const [showIncidents, setShowIncidents] = useState(false);
  const [editing, setEditing] = useState(false);
  const state = monitorStates[monitor.state];
  const paused = monitor.state === 'paused';
  return (
    <li
      className="flex flex-wrap items-start gap-3 rounded-lg border p-3"
      data-testid="monitor"
      data-state={monitor.state}
    >
      <span
        className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', state.className)}
      >
        {state.label}
      </span>
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="break-all font-medium">{watched(monitor)}</p>
        {monitor.maintenanceSince ? (
          <p className="font-medium text-amber-700 dark:text-amber-300">
            Deploying since {formatTimeAgo(monitor.maintenanceSince)}: alerts wait until the deployment ends.
          </p>
        ) : null}
        {monitor.pausedBy === 'plan' ? (
          <p className="font-medium text-amber-700 dark:text-amber-300">
            {team
              ? 'Paused: none of the workspace’s owners has a trial or subscription. It resumes by itself when one has.'
              : 'Paused: your trial or subscription has ended. Upgrade, and it resumes by itself.'}
          </p>
        ) : null}
        <p
          className={
            monitor.state === 'unchecked' ? 'font-medium text-amber-700 dark:text-amber-300' : 'text-muted-foreground'
          }
        >
          {lastCheckLine(monitor)}
        </p>
        <p className="text-muted-foreground">
          Uptime: {percent(monitor.uptime.day)} (24 h) · {percent(monitor.uptime.month)} (30 days)
        </p>
        {monitor.lastCheck?.expiresAt ? (
          <ExpiryEnd at={monitor.lastCheck.expiresAt} of={monitor.kind === 'domain' ? 'Registration' : 'Certificate'} />
        ) : null}
        <Button
          variant="link"
          size="sm"
          className="h-auto p-0"
          aria-expanded={showIncidents}
          onClick={() => setShowIncidents((shown) => !shown)}
        >
          {showIncidents ? 'Hide incidents' : 'Incidents'}
        </Button>
        {showIncidents ? (
          <Suspense fallback={<Spinner className="size-4" />}>
            <MonitorIncidents monitorId={monitor.id} readOnly={readOnly} />
          </Suspense>
        ) : null}
      </div>
      {readOnly ? null : (
        <div className="flex shrink-0 gap-1">
          {monitor.kind === 'http' ? (
            <Dialog
              open={editing}
              onOpenChange={setEditing}
              title="Edit Monitor"
              description="Its incidents, results and uptime stay as they are."
              preload={preloadForm}
              trigger={
                <Button variant="ghost" size="icon" aria-label={`Edit ${watched(monitor)}`}>
                  <Pencil />
                </Button>
              }
            >
              <Suspense fallback={<Spinner className="mx-auto my-8 size-6" />}>
                <MonitorForm projectId={monitor.projectId} monitor={monitor} onDone={() => setEditing(false)} />
              </Suspense>
            </Dialog>
          ) : null}
          <Button
            variant="ghost"
            size="icon"
            aria-label={`${paused ? 'Resume' : 'Pause'} ${watched(monitor)}`}
            disabled={pause.isPending}
            onClick={() => pause.mutate({ id: monitor.id, paused: !paused })}
          >
            {paused ? <Play /> : <Pause />}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${watched(monitor)}`}
            onClick={() => setConfirm(true)}
          >
            <Trash2 />
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Remove this monitor?"
        description={`${watched(monitor)} will no longer be checked. Its past incidents stay on the timeline.`}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(monitor.id, { onSuccess: () => setConfirm(false) })}
      />
    </li>
  );
}
